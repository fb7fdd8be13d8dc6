"""What a run says: the JSON report of SPEC.md, the verdict line and the board diff (JUnit XML: `junit`)."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.errors import RequestError
from harness.failures import Failure
from harness.files import read_regular, write_atomically
from harness.intervals import (
    Interval,
    Shard,
    grid_cell,
    holds,
    in_domain,
    merge_intervals,
    size_of,
    subtract_intervals,
)
from harness.text import counted, printable
from harness.verdict import Verdict, merge_verdicts
from harness.version import harness_version
from reference.cards import CARD_NAMES, COLUMNS

if TYPE_CHECKING:
    from harness.request import Request


@dataclass(frozen=True, slots=True)
class Report:
    """SPEC.md's `verify --report` document (plus what `report merge` and a reader need: the shard,
    the ranges or the sample's size and seed, the deals a resume log had already checked, versions)."""

    implementation: str
    against: str
    dialect: str
    checked: int
    first_failure: Failure | None
    elapsed_s: float
    shard: str = "1/1"
    ranges: tuple[tuple[int, int], ...] = ()
    interrupted: bool = False  # stopped (Ctrl-C, SIGTERM) before every deal was checked
    sample: int | None = None
    seed: int | None = None
    resumed: int = 0  # deals of `checked` read from a resume log, not checked by this run
    harness_version: str = field(default_factory=harness_version)
    dealer_version: str | None = None
    dealer_build: str | None = None  # SHA-256 of what the dealer is made of (harness.adapters.dealer_build)
    # An interrupted run's deals found identical; None: every block of the shard that starts before the failure
    # was checked (of a merge: every deal of its ranges before the failure but its gaps).
    covered: tuple[Interval, ...] | None = None
    gaps: tuple[Interval, ...] = ()  # of a merge: requested deals no report checked (before its failure)

    @property
    def verdict(self) -> Verdict:
        return Verdict(self.checked, self.first_failure)

    @property
    def conformant(self) -> bool:
        return self.first_failure is None

    @property
    def incomplete(self) -> bool:
        """Not every deal checked (stopped, or a merge with gaps), with no failure found: neither conformant
        nor not (null)."""
        return (self.interrupted or bool(self.gaps)) and self.first_failure is None

    @property
    def deals_per_s(self) -> float:
        """This run's rate: deals it checked itself (not those of a resume log) per second."""
        return (self.checked - self.resumed) / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "implementation": self.implementation,
            "against": self.against,
            "dialect": self.dialect,
            "checked": self.checked,
            "conformant": None if self.incomplete else self.conformant,
            "first_failure": self.first_failure.to_json() if self.first_failure else None,
            "elapsed_s": round(self.elapsed_s, 3),
            "deals_per_s": round(self.deals_per_s),
            "shard": self.shard,
            "ranges": [list(r) for r in self.ranges],
            "sample": None if self.sample is None else {"size": self.sample, "seed": self.seed},
            "resumed": self.resumed,
            "harness_version": self.harness_version,
            "dealer_version": self.dealer_version,
            "dealer_build": self.dealer_build,
            "interrupted": self.interrupted,
            "covered": None if self.covered is None else [list(r) for r in self.covered],
            "gaps": [list(r) for r in self.gaps],
        }

    @classmethod
    def from_json(cls, data: object, source: str) -> Report:
        def bad(why: str) -> RequestError:
            return RequestError(f"{source}: not a verify report: {why}")

        if not isinstance(data, dict):
            raise bad("not a JSON object")
        try:
            failure = data["first_failure"]
            sample = data.get("sample")
            if sample is not None and not isinstance(sample, dict):
                raise bad("'sample' is not an object {size, seed}")
            report = cls(
                implementation=_text(data["implementation"], "implementation"),
                against=_text(data["against"], "against"),
                dialect=_text(data["dialect"], "dialect"),
                checked=_count(data["checked"], "checked"),
                first_failure=Failure.from_json(failure) if failure is not None else None,
                elapsed_s=_seconds(data["elapsed_s"]),
                shard=str(Shard.parse(_text(data.get("shard", "1/1"), "shard"), option="'shard'")),
                ranges=tuple((_whole(a, "ranges"), _whole(b, "ranges")) for a, b in data.get("ranges", [])),
                sample=None if sample is None else _count(sample.get("size"), "sample size"),
                seed=None if sample is None else _whole(sample.get("seed"), "sample seed"),
                resumed=_count(data.get("resumed", 0), "resumed"),
                harness_version=str(data.get("harness_version", "unknown")),
                dealer_version=None if data.get("dealer_version") is None else str(data["dealer_version"]),
                dealer_build=_build(data.get("dealer_build")),
                interrupted=bool(data.get("interrupted", False)),
                covered=None if data.get("covered") is None else _intervals(data["covered"], "covered"),
                gaps=_intervals(data.get("gaps", []), "gaps"),
            )
        except RequestError as exc:
            raise bad(str(exc)) from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise bad(f"{type(exc).__name__}: {exc}") from None
        if not isinstance(data.get("conformant"), bool) and not (report.incomplete and data.get("conformant") is None):
            raise bad("'conformant' is not true or false")
        if data["conformant"] != (None if report.incomplete else report.conformant):
            raise RequestError(f"{source}: 'conformant' contradicts 'first_failure'")
        if report.resumed > report.checked:
            raise bad("'resumed' exceeds 'checked'")
        return report

    def write_json(self, path: str) -> None:
        write_atomically(path, json.dumps(self.to_json(), indent=2) + "\n")


def _text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise RequestError(f"{name!r} is not a string")
    return value


def _build(value: object) -> str | None:
    if value is not None and not (isinstance(value, str) and re.fullmatch(r"[0-9a-f]{64}", value)):
        raise RequestError(f"'dealer_build': {value!r} is not a SHA-256 in hex, nor null")
    return value


def _whole(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(f"{name!r}: {value!r} is not a whole number")
    return value


def _intervals(value: object, name: str) -> tuple[Interval, ...]:
    if not isinstance(value, list):
        raise RequestError(f"{name!r} is not a list of [first, last]")
    pairs = []
    for pair in value:
        if not isinstance(pair, list) or len(pair) != 2:
            raise RequestError(f"{name!r}: {pair!r} is not [first, last]")
        first, last = _whole(pair[0], name), _whole(pair[1], name)
        if first > last:
            raise RequestError(f"{name!r}: [{first}, {last}] is reversed")
        pairs.append(Interval(first, last))
    return tuple(pairs)


def _count(value: object, name: str) -> int:
    number = _whole(value, name)
    if number < 0:
        raise RequestError(f"{name!r} is negative ({number})")
    return number


def _seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise RequestError(f"'elapsed_s' {value!r} is not a finite number of seconds >= 0")
    return float(value)


MAX_REPORT_BYTES = 16 << 20  # a report is a few KiB, its failure's boards included


def read_report(path: str) -> Report:
    try:
        data = json.loads(read_regular(path, MAX_REPORT_BYTES, "report").decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RequestError(f"{path}: not JSON: {exc}") from None
    except RecursionError:
        raise RequestError(f"{path}: not JSON that can be read: nested too deeply") from None
    return Report.from_json(data, path)


def merge_reports(reports: Sequence[tuple[str, Report]]) -> Report:
    """One verdict from reports of one dealer build over any deals: the union of what they checked.

    Shards of any cut, runs of other ranges, a re-run of one shard: what one report checked, the
    others need not.  A deal two reports checked must have the same answer in both.  Deals of their
    ranges that none checked (before the first failure) are the merged report's `gaps`: then the
    verdict is partial, `conformant` null unless a failure was found."""
    if not reports:
        raise RequestError("report merge: no reports given")
    first_path, first = reports[0]
    for path, r in reports[1:]:
        _same_subject(first_path, first, path, r)
    for path, r in reports:
        _check_counts(path, r)
    sample = first.sample is not None
    parts = [(path, r, _agreed(r)) for path, r in reports]
    for path, r, _ in parts:
        f = r.first_failure
        for other_path, other, agreed in parts:
            if f is None or other is r:
                continue
            g = other.first_failure
            if g is not None and g.deal == f.deal and (g.kind, g.actual) != (f.kind, f.actual):
                raise RequestError(
                    f"report merge: {path} and {other_path} disagree on deal {f.deal} ({f.kind} and {g.kind})"
                )
            if holds(agreed, _place(r, f.deal)):
                raise RequestError(
                    f"report merge: {path} and {other_path} disagree on deal {f.deal}: "
                    f"a {f.kind} in {path}, identical in {other_path}"
                )
    merged = merge_verdicts(r.verdict for _, r in reports)
    failure = merged.first_failure
    agreed = merge_intervals(iv for _, _, a in parts for iv in a)
    scope = merge_intervals(iv for _, r, _ in parts for iv in _scope(r))
    until = None if failure is None else _place(first, failure.deal)
    gaps = subtract_intervals(_before(scope, until), agreed)
    # Deals compared up to and including the first failure, as one run's `checked` counts them.
    checked = size_of(agreed) if until is None else size_of((a, min(b, until - 1)) for a, b in agreed if a < until) + 1
    ranges = first.ranges if sample else tuple(merge_intervals(r for _, rep in reports for r in rep.ranges))
    return Report(
        implementation=first.implementation,
        against=first.against,
        dialect=first.dialect,
        checked=checked,
        first_failure=failure,
        elapsed_s=max(r.elapsed_s for _, r in reports),  # the shards ran side by side
        shard="1/1",
        ranges=ranges,
        sample=first.sample,
        seed=first.seed,
        resumed=min(checked, sum(r.resumed for _, r in reports)),
        harness_version=first.harness_version,
        dealer_version=first.dealer_version,
        dealer_build=first.dealer_build,
        interrupted=False,
        covered=None,  # what it checked is what it was asked, up to its failure, but its gaps
        gaps=tuple(gaps),
    )


def _same_subject(first_path: str, first: Report, path: str, r: Report) -> None:
    """RequestError, naming both reports, unless they judge the same dealer build the same way."""

    def refuse(what: str, mine: object, theirs: object) -> RequestError:
        return RequestError(
            f"report merge: {first_path} and {path} are of different {what} ({_shown(mine)} and {_shown(theirs)})"
        )

    if r.dialect != first.dialect:
        raise refuse("dialects", first.dialect, r.dialect)
    if r.against != first.against:
        raise refuse("dealers compared with ('against')", first.against, r.against)
    if first.dealer_build is not None and r.dealer_build is not None and first.dealer_build != r.dealer_build:
        raise refuse(
            "builds of the dealer",
            f"{first.implementation}: {first.dealer_build}",
            f"{r.implementation}: {r.dealer_build}",
        )
    # One build may go by two IMPL strings (its path on two machines), never by two kinds of IMPL (a build of
    # `reference` is not one of `pysol-cards`); without a build, only the same IMPL string is the same dealer.
    both_built = first.dealer_build is not None and r.dealer_build is not None
    same = _impl_kind(first) == _impl_kind(r) if both_built else first.implementation == r.implementation
    if not same or first.dealer_version != r.dealer_version:
        raise refuse("dealers", f"{first.implementation} {first.dealer_version or ''}".strip(),
                     f"{r.implementation} {r.dealer_version or ''}".strip())  # fmt: skip
    if (first.sample, first.seed) != (r.sample, r.seed):
        raise refuse("samples", _scope_text(first), _scope_text(r))


def _impl_kind(r: Report) -> str:
    """The kind of IMPL a report names (`stream`, `node`, `reference`, …), as the registry parses it."""
    from harness.adapters.registry import parse_impl

    return parse_impl(r.implementation).kind


def _scope_text(r: Report) -> str:
    return "ranges" if r.sample is None else f"a sample of {r.sample} (seed {r.seed})"


def _scope(r: Report) -> list[Interval]:
    """What the report was asked to check: deal numbers, or for a sample the places 1 … K in it."""
    if r.sample is not None:
        return [Interval(1, r.sample)] if r.sample else []
    return [part for rng in r.ranges for part in in_domain(rng, r.dialect)]


def _place(r: Report, deal: int) -> int:
    """Where a deal lies in what `_scope` numbers: itself, or its place in the sample (1-based)."""
    if r.sample is None:
        return deal
    from harness.intervals import sample_deals

    for place, n in enumerate(sample_deals(r.dialect, r.sample, r.seed or 0), start=1):
        if n >= deal:
            return place
    return r.sample + 1


def _agreed(r: Report) -> list[Interval]:
    """The deals (places, for a sample) the report found identical, as disjoint intervals in order."""
    if r.covered is not None:
        return merge_intervals(r.covered)
    if r.interrupted:
        return []  # a report that does not say what it checked before it was stopped vouches for nothing
    f = r.first_failure
    until = None if f is None else _place(r, f.deal)
    if r.gaps:  # a merge: everything it was asked up to its failure, but its gaps
        return subtract_intervals(_before(_scope(r), until), r.gaps)
    from harness.request import default_block_size

    # Every block of the shard that starts before the failure (the engine's promise), the failing one up to it.
    # Blocks are the grid cells of each part in order, dealt out round-robin (as in `_deals_of_shard`).
    size, shard = default_block_size(r.implementation, r.against), Shard.parse(r.shard)
    mine, index = [], 0  # index: that of the part's first cell among all the cells
    for part in _scope(r):
        head = grid_cell(part.first, size)
        cells = (grid_cell(part.last, size).first - head.first) // size + 1
        for c in range((shard.index - 1 - index) % shard.count, cells, shard.count):
            start = head.first + c * size
            cell = Interval(max(start, part.first), min(start + size - 1, part.last))
            if until is not None and cell.last >= until:
                if cell.first < until:
                    mine.append(Interval(cell.first, until - 1))
                break
            mine.append(cell)
        index += cells
    return merge_intervals(mine)


def _before(intervals: list[Interval], until: int | None) -> list[Interval]:
    """The parts of `intervals` before `until` (all of them when it is None)."""
    return intervals if until is None else [Interval(a, min(b, until - 1)) for a, b in intervals if a < until]


def _shown(value: object) -> str:
    text = json.dumps(value, default=list)
    return text if len(text) <= 60 else text[:40] + "…"


def _check_counts(path: str, r: Report) -> None:
    """RequestError unless the report's counts agree with the deals its shard holds: all of them when it
    finished without a failure, at most them otherwise, and its failure among them."""
    from harness.request import Request, default_block_size

    try:
        shard = Request(
            impl=r.implementation,
            against=r.against,
            dialect=r.dialect,
            ranges=r.ranges,
            sample=r.sample,
            seed=r.seed or 0,
            shard=Shard.parse(r.shard),
            block_size=default_block_size(r.implementation, r.against),
        )
    except RequestError as exc:
        raise RequestError(f"report merge: {path}: not a run verify can make: {exc}") from None
    held = _deals_of_shard(shard)
    if r.checked > held or (r.checked != held and r.first_failure is None and not r.incomplete):
        finished = "" if r.incomplete or r.first_failure else ", finished without a failure,"
        raise RequestError(
            f"report merge: {path}: 'checked' is {r.checked}, but shard {r.shard} of {_asked(r)}{finished} "
            f"{'holds' if finished else 'holds only'} {held} deals"
        )
    f = r.first_failure
    if f is not None and r.ranges and not any(a <= f.deal <= b for a, b in r.ranges):
        raise RequestError(f"report merge: {path}: its first failure, deal {f.deal}, lies outside {_asked(r)}")


def _asked(r: Report) -> str:
    if r.sample is not None:
        return f"a sample of {r.sample} (seed {r.seed})"
    return "--range " + " ".join(f"{a}-{b}" for a, b in r.ranges)


def _deals_of_shard(request: Request) -> int:
    """How many deals the blocks of the request's shard hold, counted from the ranges alone (a report can
    name a range of 2³³ deals, or a million ranges: its blocks are never listed).

    Blocks are the grid cells of each range, in order (a sample's: its deals in chunks of the block size,
    as the cells of 1 … K), dealt out round-robin: block i to shard (i mod N) + 1 (`Request.blocks`)."""
    size, mine_at, shards = request.block_size, request.shard.index - 1, request.shard.count
    if request.sample is not None:
        parts = [Interval(1, request.sample)]
    else:
        parts = [part for r in request.ranges for part in in_domain(r, request.dialect)]
    total, index = 0, 0  # index: that of the part's first block among all the blocks
    for first, last in parts:
        head, tail = grid_cell(first, size), grid_cell(last, size)
        cells = (tail.first - head.first) // size + 1
        mine = range((mine_at - index) % shards, cells, shards)  # the part's blocks that are the shard's
        total += len(mine) * size
        if 0 in mine:
            total -= first - head.first  # the first block starts at the range's first deal
        if cells - 1 in mine:
            total -= tail.last - last  # the last ends at its last
        index += cells
    return total


def repeats(cards: Sequence[str]) -> tuple[set[str], list[str]]:
    """The cards of a board that repeat, and those missing from it (in deck order): none for a deck."""
    seen = Counter(cards)
    repeated = {c for c, k in seen.items() if k > 1}
    return repeated, [c for c in CARD_NAMES if c not in seen] if repeated else []


def board_diff(expected: str | None, actual: str | None) -> str:
    """Expected and actual boards side by side, 8 columns each; differing cards marked with *, the
    actual board's repeated cards with !, and the cards it misses with ? on the expected board."""
    want = expected.split() if expected else []
    got = actual.split() if actual else []
    repeated, missing = repeats(got)
    cell = 4
    width = COLUMNS * cell
    lines = [f"{'expected':<{width}}  │ {'actual'}"]
    for row in range(max(math.ceil(len(want) / COLUMNS), math.ceil(len(got) / COLUMNS), 1)):
        halves = []
        for mine, other in ((want, got), (got, want)):
            cells = []
            for p in range(row * COLUMNS, (row + 1) * COLUMNS):
                if p < len(mine):
                    mark = "*" if other and (p >= len(other) or other[p] != mine[p]) else " "
                    if mine is got and mine[p] in repeated:
                        mark = "!"
                    elif mine is want and mine[p] in missing:
                        mark = "?"
                    cells.append(f"{mine[p]}{mark}".ljust(cell))
            halves.append("".join(cells))
        lines.append(f"{halves[0]:<{width}}  │ {halves[1]}".rstrip())
    if not want:
        lines.append("(no expected board)")
    if not got:
        lines.append("(no board from the implementation)")
    if repeated:
        shown = " ".join(c for c in CARD_NAMES if c in repeated)
        lines.append(f"(not a board: repeated, marked !: {shown}; missing, marked ? where due: {' '.join(missing)})")
    return printable("\n".join(lines))


_RANGES_SHOWN = 12  # ranges named in the verdict line (every default range of every dialect); more are counted


def coverage(report: Report) -> str:
    """What the run was asked to check: its ranges (`1 … 33001, 999000 … 1001001`) or its sample."""
    if report.sample is not None:
        return f"a sample of {counted(report.sample, 'deal')} (seed {report.seed})"
    shown = [f"{a} … {b}" if a != b else str(a) for a, b in report.ranges[:_RANGES_SHOWN]]
    more = len(report.ranges) - _RANGES_SHOWN
    return ", ".join(shown) + (f" and {counted(more, 'more range')}" if more > 0 else "")


def _gaps(report: Report) -> str:
    """The gaps of a merge, as the verdict line names them (places in the sample, for a sample)."""
    shown = [f"{a} … {b}" if a != b else str(a) for a, b in report.gaps[:_RANGES_SHOWN]]
    more = len(report.gaps) - _RANGES_SHOWN
    text = ", ".join(shown) + (f" and {counted(more, 'more range')}" if more > 0 else "")
    total = counted(size_of(report.gaps), "deal")
    return f"{total} of the sample (places {text})" if report.sample is not None else f"{total} ({text})"


def verdict(report: Report) -> str:
    """One line for people: what was covered, what conformed, and where it first did not."""
    scope = f"{report.implementation} against {report.against} ({report.dialect})"
    if report.ranges or report.sample is not None:
        scope += f" on {coverage(report)}"
    where = "" if report.shard == "1/1" else f" in shard {report.shard}"
    f = report.first_failure
    if f is None and report.gaps:
        checked = counted(report.checked, "deal")
        line = f"PARTIAL: {scope}: {checked} checked, all identical; not checked: {_gaps(report)}"
        return printable(line, one_line=True)
    if f is None and report.interrupted:
        checked = counted(report.checked, "deal")
        line = f"INTERRUPTED: {scope}: {checked} checked{where}, all identical so far (not all checked)"
        return printable(line, one_line=True)
    if f is None:
        checked = counted(report.checked, "deal")
        return printable(f"CONFORMS: {scope}: {checked} checked{where}, all identical", one_line=True)
    clean_prefix = ""
    whole_run = report.shard == "1/1" and not report.interrupted and not report.gaps
    if whole_run and report.ranges and report.ranges[0][0] <= f.deal <= report.ranges[0][1]:
        first = report.ranges[0][0]
        clean_prefix = f"conforms on {first} … {f.deal - 1}, " if f.deal > first else "no deal conforms before it, "
    stopped = " (interrupted: an earlier deal may fail too)" if report.interrupted else ""
    if report.gaps:
        stopped = f" (not checked before it: {_gaps(report)}: an earlier deal may fail too)"
    line = f"DIVERGES: {scope}: {clean_prefix}first {f.kind} at deal {f.deal}{where}: {f.explanation}{stopped}"
    return printable(line, one_line=True)


def diagnosis_line(failure: Failure) -> str:
    """`diagnosis (cause): message` and a newline, or nothing when there is no diagnosis."""
    d = failure.diagnosis
    return f"diagnosis ({d.cause}): {d.message}\n" if d else ""
