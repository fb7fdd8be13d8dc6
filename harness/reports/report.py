"""What a run says: the JSON report of SPEC.md, the verdict line and the board diff (JUnit XML: `junit`)."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import TYPE_CHECKING

from harness.errors import RequestError
from harness.failures import Failure
from harness.files import read_regular, write_atomically
from harness.intervals import Interval, Shard, grid_cell, in_domain
from harness.text import counted, printable
from harness.verdict import Verdict, merge_verdicts
from reference.cards import CARD_NAMES, COLUMNS

if TYPE_CHECKING:
    from harness.request import Request


def harness_version() -> str:
    try:
        return metadata.version("freecell-harness")
    except metadata.PackageNotFoundError:
        return "unknown"


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

    @property
    def verdict(self) -> Verdict:
        return Verdict(self.checked, self.first_failure)

    @property
    def conformant(self) -> bool:
        return self.first_failure is None

    @property
    def incomplete(self) -> bool:
        """Stopped before every deal was checked, with no failure found: neither conformant nor not (null)."""
        return self.interrupted and self.first_failure is None

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
    """One verdict from the reports of the shards of one run."""
    if not reports:
        raise RequestError("report merge: no reports given")
    first_path, first = reports[0]

    seen: dict[Shard, str] = {}
    for path, r in reports:
        for name in _SAME_RUN:
            mine, theirs = getattr(r, name), getattr(first, name)
            if mine != theirs:
                raise RequestError(
                    f"report merge: {path} is of another run than {first_path}: "
                    f"they differ in {name!r} ({_shown(mine)} and {_shown(theirs)})"
                )
        shard = Shard.parse(r.shard, option=f"{path}: shard")
        if shard in seen:
            raise RequestError(f"report merge: shard {shard} appears twice ({seen[shard]}, {path})")
        seen[shard] = path
    counts = {s.count for s in seen}
    if len(counts) != 1:
        raise RequestError(f"report merge: shards of different splits: {', '.join(sorted(map(str, seen)))}")
    total = counts.pop()
    missing = [f"{k}/{total}" for k in range(1, total + 1) if Shard(k, total) not in seen]
    if missing:
        raise RequestError(f"report merge: missing shard(s) {', '.join(missing)}")
    for path, r in reports:
        _check_counts(path, r)
    merged = merge_verdicts(r.verdict for _, r in reports)
    return Report(
        implementation=first.implementation,
        against=first.against,
        dialect=first.dialect,
        checked=merged.checked,
        first_failure=merged.first_failure,
        elapsed_s=max(r.elapsed_s for _, r in reports),  # the shards ran side by side
        shard="1/1",
        ranges=first.ranges,
        sample=first.sample,
        seed=first.seed,
        resumed=sum(r.resumed for _, r in reports),
        harness_version=first.harness_version,
        dealer_version=first.dealer_version,
        dealer_build=first.dealer_build,
        interrupted=any(r.interrupted for _, r in reports),
    )


# What makes shards parts of one run: what was compared with what, over which deals, by which builds.
_SAME_RUN = (
    *("implementation", "against", "dialect", "ranges", "sample", "seed"),
    *("dealer_version", "dealer_build", "harness_version"),
)


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
    holds = _deals_of_shard(shard)
    if r.checked > holds or (r.checked != holds and r.first_failure is None and not r.interrupted):
        finished = "" if r.interrupted or r.first_failure else ", finished without a failure,"
        raise RequestError(
            f"report merge: {path}: 'checked' is {r.checked}, but shard {r.shard} of {_scope(r)}{finished} "
            f"{'holds' if finished else 'holds only'} {holds} deals"
        )
    f = r.first_failure
    if f is not None and r.ranges and not any(a <= f.deal <= b for a, b in r.ranges):
        raise RequestError(f"report merge: {path}: its first failure, deal {f.deal}, lies outside {_scope(r)}")


def _scope(r: Report) -> str:
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


def verdict(report: Report) -> str:
    """One line for people: what was covered, what conformed, and where it first did not."""
    scope = f"{report.implementation} against {report.against} ({report.dialect})"
    if report.ranges or report.sample is not None:
        scope += f" on {coverage(report)}"
    where = "" if report.shard == "1/1" else f" in shard {report.shard}"
    f = report.first_failure
    if f is None and report.interrupted:
        checked = counted(report.checked, "deal")
        line = f"INTERRUPTED: {scope}: {checked} checked{where}, all identical so far (not all checked)"
        return printable(line, one_line=True)
    if f is None:
        checked = counted(report.checked, "deal")
        return printable(f"CONFORMS: {scope}: {checked} checked{where}, all identical", one_line=True)
    clean_prefix = ""
    whole_run = report.shard == "1/1" and not report.interrupted
    if whole_run and report.ranges and report.ranges[0][0] <= f.deal <= report.ranges[0][1]:
        first = report.ranges[0][0]
        clean_prefix = f"conforms on {first} … {f.deal - 1}, " if f.deal > first else "no deal conforms before it, "
    stopped = " (interrupted: an earlier deal may fail too)" if report.interrupted else ""
    line = f"DIVERGES: {scope}: {clean_prefix}first {f.kind} at deal {f.deal}{where}: {f.explanation}{stopped}"
    return printable(line, one_line=True)


def diagnosis_line(failure: Failure) -> str:
    """`diagnosis (cause): message` and a newline, or nothing when there is no diagnosis."""
    d = failure.diagnosis
    return f"diagnosis ({d.cause}): {d.message}\n" if d else ""
