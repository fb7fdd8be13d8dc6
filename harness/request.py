"""One `verify` request, validated once at the edge: the CLI and the pytest plugin both build it.

A `Request` that exists is a request the engine can serve as far as can be told without opening
a dealer: every value is inside its accepted range (said in `BOUNDS`), or the constructor raises
`RequestError` with one line naming the option.  The `parse_*` helpers read option text.
"""

from __future__ import annotations

import codecs
import math
import os
import re
from collections.abc import Container, Iterator, Sequence
from dataclasses import dataclass, field

import reference
from harness.adapters.base import DealerOptions
from harness.adapters.registry import dealer_class, parse_impl
from harness.errors import RequestError
from harness.intervals import (
    ALL,
    BLOCK_SIZE,
    DOMAIN_BLOCK_SIZE,
    Block,
    Interval,
    Shard,
    check_sample,
    deal_count,
    in_domain,
    merge_intervals,
    range_blocks,
    sample_blocks,
    sample_boundaries,
    sample_deals,
    shard_blocks,
)
from harness.limits import DEFAULT_LIMITS, DEFAULT_STARTUP_TIMEOUT, Limits

MIN_TIMEOUT, MAX_TIMEOUT = 0.01, 86_400.0  # seconds per deal: 10 ms … one day
MAX_BLOCK_SIZE = 1_000_000
MAX_JOBS_CEILING = 256
MAX_SEED = 2**63 - 1
DEFAULT_RANGE = Interval(1, 32000)  # Microsoft's original deals
# Deals on each side of every boundary that the default request checks: enough to reach 32768 from
# 32000, where dealers that hold the number in 16 bits go wrong.
DEFAULT_WINDOW = 1000
_WHOLE = re.compile(r"\s*[+-]?\d+\s*")


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)))


def max_jobs() -> int:
    """The most worker processes a run may ask for: 4 per core, and never above 256."""
    return min(MAX_JOBS_CEILING, 4 * default_jobs())


BOUNDS = {
    "--timeout": f"{MIN_TIMEOUT:g} … {MAX_TIMEOUT:g} seconds",
    "--startup-timeout": f"0 … {MAX_TIMEOUT:g} seconds",
    "--jobs": "1 … 4 × the cores (at most 256)",
    "--block-size": f"1 … {MAX_BLOCK_SIZE}",
    "--seed": f"0 … {MAX_SEED}",
}


def default_ranges(dialect: str) -> tuple[Interval, ...]:
    """What `verify` checks when given no --range and no --sample: Microsoft's 1 … 32000 and
    DEFAULT_WINDOW deals on each side of every boundary of the dialect (those --sample always
    checks), cut to its domain and joined where they touch."""
    windows = [(b - DEFAULT_WINDOW, b + DEFAULT_WINDOW) for b in sample_boundaries(dialect)]
    parts = [part for window in (DEFAULT_RANGE, *windows) for part in in_domain(window, dialect)]
    return tuple(merge_intervals(parts))


def whole_blocks_only(*impls: str) -> bool:
    """Whether one of `impls` answers only whole blocks of the domain grid (the fixtures' digest tables)."""
    return any(dealer_class(parse_impl(impl).kind).whole_blocks_only for impl in impls)


def default_block_size(impl: str, against: str) -> int:
    """Blocks of BLOCK_SIZE; against the fixtures, the rows of the whole-domain tables, so that every whole
    block is answered from a stored digest (and, dealt in chunks, reproduced by the reference once)."""
    return DOMAIN_BLOCK_SIZE if whole_blocks_only(impl, against) else BLOCK_SIZE


def parse_timeout(text: str | float, option: str = "--timeout") -> float:
    """Seconds per deal, a finite number inside MIN_TIMEOUT … MAX_TIMEOUT."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise RequestError(f"{option} {text!r} is not a number of seconds") from None
    check_timeout(value, option)
    return value


def check_timeout(value: float, option: str = "--timeout") -> None:
    low = 0.0 if option == "--startup-timeout" else MIN_TIMEOUT
    if not (math.isfinite(value) and low <= value <= MAX_TIMEOUT):
        raise RequestError(f"{option} {value!r}: must be {BOUNDS.get(option, BOUNDS['--timeout'])}")


def parse_startup_timeout(text: str | float) -> float:
    """Seconds a process may take to start, on top of --timeout for its first answer."""
    return parse_timeout(text, "--startup-timeout")


def parse_count(text: str | int, option: str, *, low: int = 1, high: int | None = None) -> int:
    """A whole number low … high (inclusive) from option text."""
    if isinstance(text, bool) or (not isinstance(text, int) and not _WHOLE.fullmatch(str(text))):
        raise RequestError(f"{option} {text!r} is not a whole number")
    value = int(text)
    if value < low or (high is not None and value > high):
        bound = f"{low} … {high}" if high is not None else f"at least {low}"
        raise RequestError(f"{option} {value}: must be {bound}")
    return value


def check_card_encoding(cards: str | None, suits: str | None) -> None:
    """`--cards` and `--suits` name an encoding of bare numbers; RequestError naming the option if not."""
    if cards is None and suits is None:
        return
    from harness.shapes import CardEncoding

    try:
        CardEncoding(cards, suits)
    except ValueError as exc:
        raise RequestError(str(exc)) from None


@dataclass(frozen=True, slots=True)
class Request:
    """One `verify`: what to compare with what, over which deals, spread how.  Validated on creation."""

    impl: str
    against: str = "reference"
    dialect: str = "classic"
    ranges: tuple[tuple[int, int], ...] = ()  # stored as Intervals
    sample: int | None = None
    seed: int = 0
    jobs: int = 1
    shard: Shard = ALL
    timeout: float = 10.0
    encoding: str = "utf-8"
    block_size: int = BLOCK_SIZE
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT
    limits: Limits = DEFAULT_LIMITS  # of every dealer process
    cards: str | None = None  # --cards: how a dealer's bare card numbers are numbered
    suits: str | None = None  # --suits: which suit each of a dealer's suit numbers is
    _total: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # as written in full: `deal.js` is `node:deal.js` in the verdict, the report and a resume log
        object.__setattr__(self, "impl", str(parse_impl(self.impl)))
        object.__setattr__(self, "against", str(parse_impl(self.against)))
        if self.dialect not in reference.DIALECTS:
            raise RequestError(f"--dialect {self.dialect!r}: choose one of {', '.join(reference.DIALECTS)}")
        d = reference.get_dialect(self.dialect)
        ranges = tuple(Interval(*r) for r in self.ranges)
        object.__setattr__(self, "ranges", ranges)
        for r in ranges:
            for end in r:
                if end not in d:
                    raise RequestError(f"--range {r.key}: deal {end} is outside the {d.name} domain")
            if r.first > r.last:
                raise RequestError(f"--range {r.key} is reversed: the first deal must not exceed the last")
        if ranges and self.sample is not None:
            raise RequestError("verify: give --range or --sample, not both")
        if not ranges and self.sample is None:
            raise RequestError("verify: give --range or --sample")
        if self.sample is not None:
            check_sample(self.dialect, self.sample)
            if whole_blocks_only(self.impl, self.against):
                raise RequestError(
                    "--sample with the fixtures: they hold digests of 1,000,000-deal blocks, so every sampled "
                    "deal would cost its whole block; give --range, or compare the sample --against reference"
                )
        parse_count(self.seed, "--seed", low=0, high=MAX_SEED)
        parse_count(self.jobs, "--jobs", high=max_jobs())
        parse_count(self.block_size, "--block-size", high=MAX_BLOCK_SIZE)
        if not 1 <= self.shard.index <= self.shard.count:
            raise RequestError(f"--shard {self.shard}: expected K/N with 1 <= K <= N")
        check_timeout(self.timeout)
        check_timeout(self.startup_timeout, "--startup-timeout")
        try:
            codecs.lookup(self.encoding)
        except LookupError:
            raise RequestError(f"verify: unknown --encoding {self.encoding!r}") from None
        check_card_encoding(self.cards, self.suits)
        total = deal_count(ranges, self.dialect) + (self.sample or 0)
        object.__setattr__(self, "_total", total)

    @classmethod
    def from_text(
        cls,
        impl: str,
        *,
        against: str = "reference",
        dialect: str = "classic",
        ranges: Sequence[str] = (),
        sample: str | int | None = None,
        seed: str | int | None = None,
        jobs: str | int | None = None,
        shard: str | None = None,
        timeout: str | float = 10.0,
        encoding: str = "utf-8",
        block_size: str | int | None = None,
        limits: Limits = DEFAULT_LIMITS,
        cards: str | None = None,
        suits: str | None = None,
        startup_timeout: str | float = DEFAULT_STARTUP_TIMEOUT,
    ) -> Request:
        """A request from option text, as the command line and the plugin have it."""
        from harness.intervals import parse_range

        if dialect not in reference.DIALECTS:
            raise RequestError(f"--dialect {dialect!r}: choose one of {', '.join(reference.DIALECTS)}")
        parsed = tuple(parse_range(r, dialect) for r in ranges)
        if seed is not None and sample is None:
            raise RequestError("verify: --seed goes with --sample")
        return cls(
            impl=impl,
            against=against,
            dialect=dialect,
            ranges=parsed or (default_ranges(dialect) if sample is None else ()),
            sample=None if sample is None else parse_count(sample, "--sample"),
            seed=0 if seed is None else parse_count(seed, "--seed", low=0, high=MAX_SEED),
            jobs=default_jobs() if jobs is None else parse_count(jobs, "--jobs", high=max_jobs()),
            shard=Shard.parse(shard) if shard else ALL,
            timeout=parse_timeout(timeout),
            encoding=encoding,
            block_size=default_block_size(impl, against)
            if block_size is None
            else parse_count(block_size, "--block-size", high=MAX_BLOCK_SIZE),
            limits=limits,
            cards=cards,
            suits=suits,
            startup_timeout=parse_startup_timeout(startup_timeout),
        )

    @property
    def options(self) -> DealerOptions:
        return DealerOptions(
            dialect=self.dialect,
            timeout=self.timeout,
            startup_timeout=self.startup_timeout,
            encoding=self.encoding,
            limits=self.limits,
            cards=self.cards,
            suits=self.suits,
        )

    @property
    def total(self) -> int:
        """Deals of the whole request (all shards)."""
        return self._total

    def blocks(self) -> Iterator[Block]:
        """This shard's blocks, lazily, in deal order (a sample is drawn lazily too)."""

        rows = self.stored_rows()

        def every_block() -> Iterator[Block]:
            for first, last in self.ranges:
                yield from range_blocks(first, last, self.block_size, dialect=self.dialect, rows=rows)
            if self.sample is not None:
                yield from sample_blocks(sample_deals(self.dialect, self.sample, self.seed), self.block_size)

        return shard_blocks(every_block(), self.shard)

    def stored_rows(self) -> Container[tuple[int, int]]:
        """The whole-domain rows whose reference digests the fixtures store, when a `stream:` dealer (which may
        read in bulk) is checked against the reference in blocks of the default size: such a row is checked as
        one block, its expected digest read, not dealt."""
        actual, expected = dealer_class(parse_impl(self.impl).kind), dealer_class(parse_impl(self.against).kind)
        if not (actual.may_read_in_bulk and expected.stores_row_digests) or self.block_size != BLOCK_SIZE:
            return ()
        from harness.adapters.reference import stored_tables

        return stored_tables(self.dialect)

    def fingerprint(self) -> dict[str, object]:
        """What must match for a resume log to belong to this run."""
        return {
            "implementation": self.impl,
            "against": self.against,
            "dialect": self.dialect,
            "ranges": [list(r) for r in self.ranges],
            "sample": self.sample,
            "seed": self.seed if self.sample is not None else None,
            "shard": str(self.shard),
            "block_size": self.block_size,
            "timeout": self.timeout,
            "encoding": self.encoding,
            **({"cards": self.cards} if self.cards else {}),
            **({"suits": self.suits} if self.suits else {}),
        }
