"""Deal numbers as intervals: the block grid, `--range` parsing, samples and shards.

Blocks of a range lie on a fixed grid (deal numbers (k−1)·B+1 … k·B, on both sides of zero), so
that two runs, the shards of one run, a resumed run and the fixtures' digest tables all cut the
same blocks.  A range is cut to its dialect's domain first: `--range=-2-100` in xp is the blocks
−2 … −1 and 1 … 100 (0 is not a deal there: skipped, not refused).
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections.abc import Container, Iterable, Iterator, Sequence
from dataclasses import dataclass
from heapq import merge
from itertools import islice
from typing import TYPE_CHECKING, NamedTuple

from harness.errors import RequestError
from reference import get_dialect
from reference.dialects import join_intervals

if TYPE_CHECKING:
    import numpy as np

BLOCK_SIZE = 10_000
DOMAIN_BLOCK_SIZE = 1_000_000  # the grid of the whole-domain digest tables of the golden fixtures
_INT = re.compile(r"[+-]?\d+")
_RANGE = re.compile(r"\s*([+-]?\d+)\s*(?:-|\.\.)\s*([+-]?\d+)\s*")
_SAMPLE_CHUNK = 1 << 18  # random numbers drawn at a time by `sample_deals`: memory stays flat


class Interval(NamedTuple):
    """Deal numbers first … last, both included (a plain (first, last) pair wherever a tuple is expected)."""

    first: int
    last: int

    @property
    def size(self) -> int:
        return self.last - self.first + 1

    @property
    def deals(self) -> range:
        return range(self.first, self.last + 1)

    @property
    def key(self) -> str:
        return f"{self.first}-{self.last}"

    def covers(self, other: tuple[int, int]) -> bool:
        return self.first <= other[0] and other[1] <= self.last


def as_interval(deals: Sequence[int]) -> Interval | None:
    """`deals` as one interval when they are exactly first, first+1 … last; else None.

    The one test adapters use to choose a "start … stop" request over a list of numbers.
    """
    if not deals:
        return None
    if isinstance(deals, range):
        return Interval(deals[0], deals[-1]) if deals.step == 1 else None
    first = deals[0]
    if all(n == first + i for i, n in enumerate(deals)):
        return Interval(first, deals[-1])
    return None


def merge_intervals(intervals: Iterable[tuple[int, int]]) -> list[Interval]:
    """The union of `intervals` as disjoint intervals in order, adjacent ones joined."""
    return [Interval(a, b) for a, b in join_intervals(list(intervals))]


def subtract_intervals(intervals: Iterable[tuple[int, int]], removed: Iterable[tuple[int, int]]) -> list[Interval]:
    """What of `intervals` is not in `removed`, as disjoint intervals in order."""
    out: list[Interval] = []
    cuts = merge_intervals(removed)
    for first, last in merge_intervals(intervals):
        start = first
        for a, b in cuts[max(0, bisect_right(cuts, (first, first)) - 1) :]:
            if a > last:
                break
            if b < start:
                continue
            if a > start:
                out.append(Interval(start, a - 1))
            start = max(start, b + 1)
            if start > last:
                break
        if start <= last:
            out.append(Interval(start, last))
    return out


def holds(intervals: Sequence[Interval], n: int) -> bool:
    """Whether n lies in one of `intervals` (disjoint and in order, as `merge_intervals` gives them)."""
    i = bisect_right(intervals, (n, n))  # the first interval that starts after n, or at n and ends after it
    return any(0 <= j < len(intervals) and intervals[j].first <= n <= intervals[j].last for j in (i - 1, i))


def size_of(intervals: Iterable[tuple[int, int]]) -> int:
    """How many numbers the (disjoint) intervals hold."""
    return sum(b - a + 1 for a, b in intervals)


def domain(dialect: str) -> list[Interval]:
    """The dialect's deal numbers as disjoint intervals, in order."""
    return list(_domain(dialect))


@functools.cache
def _domain(dialect: str) -> tuple[Interval, ...]:  # once per dialect: a report may hold 300,000 ranges
    return tuple(Interval(a, b) for a, b in get_dialect(dialect).intervals())


def in_domain(interval: tuple[int, int], dialect: str) -> list[Interval]:
    """The parts of `interval` that are deal numbers of `dialect`."""
    a, b = interval
    return [Interval(max(a, lo), min(b, hi)) for lo, hi in _domain(dialect) if lo <= b and a <= hi]


def deal_count(ranges: Iterable[tuple[int, int]], dialect: str) -> int:
    """How many deal numbers of `dialect` the ranges hold."""
    return sum(part.size for r in ranges for part in in_domain(r, dialect))


# ------------------------------------------------------------------------------------ parsing


def parse_deal_number(text: str, dialect: str, *, where: str = "deal number") -> int:
    """A deal number of `dialect` from the command line; RequestError naming it and the domain."""
    d = get_dialect(dialect)
    if not _INT.fullmatch(text.strip()):
        raise RequestError(f"{where} {text!r} is not a whole number (the {d.name} domain is {d.describe_domain()})")
    try:
        return d.check(int(text))
    except ValueError as exc:
        raise RequestError(f"{where}: {exc}") from None


def parse_range(text: str, dialect: str, *, option: str = "--range") -> Interval:
    """`A-B` (or `A..B`), inclusive; both ends deal numbers of `dialect` (numbers between that are
    not deals, like 0 in xp, are skipped when the range is cut into blocks)."""
    m = _RANGE.fullmatch(text)
    if not m:
        raise RequestError(f"{option} {text!r} is not of the form A-B, e.g. 1-32000")
    a = parse_deal_number(m[1], dialect, where=f"{option} {text}: first deal")
    b = parse_deal_number(m[2], dialect, where=f"{option} {text}: last deal")
    if a > b:
        raise RequestError(f"{option} {text}: range {a}-{b} is reversed: the first deal must not exceed the last")
    return Interval(a, b)


def looks_like_range(text: str) -> bool:
    return _RANGE.fullmatch(text) is not None


# ------------------------------------------------------------------------------------- blocks


@dataclass(frozen=True, slots=True)
class Block:
    """One unit of work: `key` names it in resume logs; `deals` are its deal numbers, in order.

    `interval` is set when the deals are exactly first … last (then `deals` is that range);
    None for a list of deals (a sample).  Build with `Block.spanning` or `Block.listing`.
    """

    key: str
    deals: Sequence[int]
    interval: Interval | None

    @classmethod
    def spanning(cls, interval: Interval) -> Block:
        return cls(interval.key, interval.deals, interval)

    @classmethod
    def listing(cls, key: str, deals: Sequence[int]) -> Block:
        return cls(key, tuple(deals), None)

    @property
    def first(self) -> int:
        return self.deals[0]

    def __len__(self) -> int:
        return len(self.deals)


def grid_cell(n: int, size: int = BLOCK_SIZE) -> Interval:
    """The grid block holding deal n: (k−1)·size+1 … k·size."""
    k = (n - 1) // size
    return Interval(k * size + 1, (k + 1) * size)


def grid_intervals(first: int, last: int, size: int = BLOCK_SIZE) -> Iterator[Interval]:
    """first … last cut on the grid of `size`; the first and last piece may be partial."""
    if size < 1:
        raise RequestError(f"block size {size}: must be a positive whole number")
    start = first
    while start <= last:
        stop = min(last, grid_cell(start, size).last)
        yield Interval(start, stop)
        start = stop + 1


def range_blocks(
    first: int,
    last: int,
    size: int = BLOCK_SIZE,
    *,
    dialect: str | None = None,
    rows: Container[tuple[int, int]] = (),
) -> Iterator[Block]:
    """Blocks of first … last on the grid; with `dialect`, only its deal numbers (0 is no xp deal).  A cell of
    the whole-domain grid (DOMAIN_BLOCK_SIZE deals, the last one cut at the domain's end) that lies wholly in
    the range and is one of `rows` (whose digest is stored) is one block."""
    parts = in_domain((first, last), dialect) if dialect is not None else [Interval(first, last)]
    for part in parts:
        start = part.first
        while start <= part.last:
            cell = grid_cell(start, DOMAIN_BLOCK_SIZE)
            whole = Interval(start, min(cell.last, part.last))  # a row may end with the domain, inside its cell
            if cell.first == start and whole in rows:
                yield Block.spanning(whole)
                start = whole.last + 1
                continue
            stop = min(part.last, cell.last) if rows else part.last
            for piece in grid_intervals(start, stop, size):
                yield Block.spanning(piece)
            start = stop + 1


def sample_blocks(deals: Iterable[int], size: int = BLOCK_SIZE) -> Iterator[Block]:
    """Consecutive chunks of `deals` (any iterable, drawn lazily) as listed blocks."""
    it = iter(deals)
    for i in range(2**63):
        chunk = tuple(islice(it, size))
        if not chunk:
            return
        yield Block.listing(f"sample{i}", chunk)


# ------------------------------------------------------------------------------------ samples


def sample_boundaries(dialect: str) -> list[int]:
    """The deal numbers `--sample` always checks: the dialect's boundaries (its ends, and every seam of a
    dialect with the deal after it: SPEC.md's boundaries)."""
    return get_dialect(dialect).boundaries()


def check_sample(dialect: str, size: int) -> None:
    """RequestError unless `dialect` can give a sample of `size` distinct deals with its boundaries."""
    d = get_dialect(dialect)
    boundaries = len(sample_boundaries(dialect))
    total = sum(part.size for part in domain(dialect))
    if size < boundaries:
        raise RequestError(
            f"--sample {size}: {d.name} always checks its {boundaries} boundaries; ask for at least that"
        )
    if size > total:
        raise RequestError(f"--sample {size}: the {d.name} domain has only {total} deals")


def sample_deals(dialect: str, size: int, seed: int) -> Iterator[int]:
    """`size` distinct deal numbers in increasing order, drawn lazily in flat memory: every boundary,
    the rest spread uniformly over the rest of the domain.  The same for the same seed (shards agree).

    The rest are k sorted uniform draws x₁ ≤ … ≤ x_k over n−k+1 slots (exponential spacings,
    drawn twice from one seeded stream: once to learn their total, once to emit them), made
    distinct as xᵢ + i over the n deals that are not boundaries.
    """
    check_sample(dialect, size)
    boundaries = sample_boundaries(dialect)
    rest = _without(domain(dialect), boundaries)
    k, n = size - len(boundaries), sum(part.size for part in rest)
    return merge(boundaries, _nth_deals(rest, _spread(k, n - k + 1, seed)))


def _without(intervals: list[Interval], points: list[int]) -> list[Interval]:
    out = list(intervals)
    for p in points:
        cut: list[Interval] = []
        for part in out:
            if part.first <= p <= part.last:
                cut += [iv for iv in (Interval(part.first, p - 1), Interval(p + 1, part.last)) if iv.size > 0]
            else:
                cut.append(part)
        out = cut
    return out


def _spread(k: int, slots: int, seed: int) -> Iterator[int]:
    """k sorted draws from 0 … slots−1, each plus its index (so strictly increasing)."""
    if k <= 0:
        return
    import numpy as np  # here: parsing ranges and cutting blocks need no NumPy

    def exponentials() -> Iterator[np.ndarray]:
        rng = np.random.Generator(np.random.PCG64(seed))
        left = k + 1
        while left:
            take = min(left, _SAMPLE_CHUNK)
            yield rng.standard_exponential(take)
            left -= take

    total = sum(float(chunk.sum()) for chunk in exponentials())
    carried, index = 0.0, 0
    for chunk in exponentials():
        sums = np.cumsum(chunk) + carried
        carried = float(sums[-1])
        picks = np.minimum((sums / total * slots).astype(np.int64), slots - 1)
        for x in picks.tolist():
            if index == k:
                return
            yield x + index
            index += 1


def _nth_deals(parts: list[Interval], offsets: Iterator[int]) -> Iterator[int]:
    """The deal at each (increasing) offset into the concatenation of `parts`."""
    base, i = 0, 0
    for offset in offsets:
        while offset >= base + parts[i].size:
            base += parts[i].size
            i += 1
        yield parts[i].first + offset - base


# ------------------------------------------------------------------------------------- shards


@dataclass(frozen=True, slots=True)
class Shard:
    index: int  # 1-based
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    @classmethod
    def parse(cls, text: str, *, option: str = "--shard") -> Shard:
        m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
        if not m or not 1 <= int(m[1]) <= int(m[2]):
            raise RequestError(f"{option} {text!r}: expected K/N with 1 <= K <= N, e.g. 2/8")
        return cls(int(m[1]), int(m[2]))


ALL = Shard(1, 1)


def shard_blocks(blocks: Iterable[Block], shard: Shard) -> Iterator[Block]:
    """Round-robin: block i belongs to shard (i mod N) + 1.  Disjoint, and together they cover all."""
    for i, block in enumerate(blocks):
        if i % shard.count == shard.index - 1:
            yield block
