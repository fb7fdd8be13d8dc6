"""What a verification run checks: its blocks of deal numbers, split into shards.

Blocks of a range lie on a fixed grid (deal numbers (k−1)·B+1 … k·B), so that two runs, the
shards of one run, a resumed run and the fixtures' digest tables all cut the same blocks.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from harness.errors import RequestError
from reference import get_dialect

BLOCK_SIZE = 10_000
_COMMON_BOUNDARIES = (32000, 32001, 1_000_000, 1_000_001, 2**31 - 1)
_FCPRO_BOUNDARIES = (2**31, 2**32 - 1, 2**32, 2**33 - 1)


@dataclass(frozen=True, slots=True)
class Block:
    """One unit of work: `key` names it in resume logs; `deals` are its deal numbers, in order."""

    key: str
    deals: Sequence[int]  # a range for --range runs, a tuple for samples

    @property
    def first(self) -> int:
        return self.deals[0]


@dataclass(frozen=True, slots=True)
class Shard:
    index: int  # 1-based
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    @classmethod
    def parse(cls, text: str) -> Shard:
        m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
        if not m or not 1 <= int(m[1]) <= int(m[2]):
            raise RequestError(f"--shard {text!r}: expected K/N with 1 <= K <= N, e.g. 2/8")
        return cls(int(m[1]), int(m[2]))


ALL = Shard(1, 1)


def sample_boundaries(dialect: str) -> list[int]:
    """The deal numbers `--sample` always checks: the domain's ends and SPEC.md's boundaries."""
    d = get_dialect(dialect)
    wanted = [d.first, d.last, *_COMMON_BOUNDARIES, *(_FCPRO_BOUNDARIES if d.name == "fcpro" else ())]
    return sorted({n for n in wanted if n in d})


def sample_deals(dialect: str, size: int, seed: int) -> list[int]:
    """`size` distinct deal numbers: every boundary, the rest uniform over the domain, sorted."""
    d = get_dialect(dialect)
    chosen = set(sample_boundaries(dialect))
    domain_size = sum(hi - lo + 1 for lo, hi in d.intervals())
    if size < len(chosen):
        raise RequestError(
            f"--sample {size}: {d.name} always checks its {len(chosen)} boundaries; ask for at least that"
        )
    if size > domain_size:
        raise RequestError(f"--sample {size}: the {d.name} domain has only {domain_size} deals")
    rng = random.Random(seed)
    while len(chosen) < size:
        offset = rng.randrange(domain_size)
        for lo, hi in d.intervals():
            if offset <= hi - lo:
                chosen.add(lo + offset)
                break
            offset -= hi - lo + 1
    return sorted(chosen)


def range_blocks(first: int, last: int, size: int = BLOCK_SIZE) -> Iterator[Block]:
    """Blocks of first … last on the grid of `size`; the first and last may be partial."""
    start = first
    while start <= last:
        stop = min(last, ((start - 1) // size + 1) * size)  # end of start's grid cell
        yield Block(f"{start}-{stop}", range(start, stop + 1))
        start = stop + 1


def sample_blocks(deals: Sequence[int], size: int = BLOCK_SIZE) -> Iterator[Block]:
    for i in range(0, len(deals), size):
        chunk = tuple(deals[i : i + size])
        yield Block(f"sample{i // size}", chunk)


def shard_blocks(blocks: Iterator[Block], shard: Shard) -> Iterator[Block]:
    """Round-robin: block i belongs to shard (i mod N) + 1.  Disjoint, and together they cover all."""
    for i, block in enumerate(blocks):
        if i % shard.count == shard.index - 1:
            yield block
