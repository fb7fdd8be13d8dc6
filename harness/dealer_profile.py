"""`profile IMPL`: what a dealer implements, in one run (SPEC.md, "profile IMPL").

Each dialect's domain is cut into its parts (xp's fixed layouts apart from its numbered deals,
fcpro's three rules apart), and each part is checked on windows around every boundary plus a
uniform sample, so that one part failing early does not hide what the others do.  Between the last
conforming number checked and the first failing one, the dealer is probed by bisection, so that the
failure named is at the exact boundary where the dealer stops conforming, not at the sample past it.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness.diagnosis.catalogue import power_words
from harness.failures import Failure
from harness.limits import DEFAULT_LIMITS, DEFAULT_STARTUP_TIMEOUT, Limits
from reference.dialects import DIALECTS, INTEGER_LIMITS

if TYPE_CHECKING:
    from harness.request import Request

# Every dialect's seams, and each integer limit with the deal after it (where a wrap shows).
BOUNDARIES = tuple(sorted({*(n for d in DIALECTS.values() for n in d.seams), *INTEGER_LIMITS,
                           *(n + 1 for n in INTEGER_LIMITS)}))  # fmt: skip
WINDOW = 8  # deals checked on each side of a boundary
SAMPLE = 60  # deals drawn uniformly from each part
CHECKED = f"{WINDOW} on each side of every boundary and {SAMPLE} drawn from each part"
# Widest first: the summary names the widest dialect matched.
ORDER = tuple(sorted(DIALECTS, key=lambda name: -DIALECTS[name].size))
XP_LAST = DIALECTS["xp"].last  # its numbered deals end here
_WRAPS = {2**31: "2³¹−1", 2**32: "2³²−1", 2**16: "65535"}  # in the catalogue's order


Span = tuple[int, int]  # deals first … last


@dataclass(frozen=True, slots=True)
class DialectProfile:
    conformant: bool
    checked: int
    first_failure: Failure | None
    parts: tuple[tuple[int, int, Failure | None], ...]  # each part of the domain, and its first failure

    def spans(self, seed: int = 0) -> tuple[list[Span], list[Span]]:
        """What was found where, the one truth that the text and the HTML bar both tell: the deals checked
        and conforming (each part's windows and sample, up to its first failure), and the failing deals
        (each part's first failure; what lies after it in its part was not checked)."""
        checked: list[Span] = []
        failing: list[Span] = []
        for first, last, failure in self.parts:
            until = last if failure is None else failure.deal - 1
            checked += [(a, min(b, until)) for a, b in deals_to_check(first, last, seed) if a <= until]
            if failure is not None:
                failing.append((failure.deal, failure.deal))
        return checked, failing

    def status(self) -> str:
        """Its line of `profile`'s text: what conformed on what was checked, or where and why it first fails."""
        f = self.first_failure
        if f is not None:
            return f"first {f.kind} at deal {f.deal}: {f.explanation}"
        return f"conforms on the {self.checked:,} deals checked ({CHECKED}), not every deal of its domain"

    def to_json(self) -> dict[str, object]:
        return {
            "conformant": self.conformant,
            "checked": self.checked,
            "first_failure": self.first_failure.to_json() if self.first_failure else None,
        }


@dataclass(frozen=True, slots=True)
class Profile:
    implementation: str
    dialects: dict[str, DialectProfile]

    @property
    def matches(self) -> list[str]:
        return [name for name in DIALECTS if self.dialects[name].conformant]

    @property
    def summary(self) -> str:
        return summarize(self.dialects)

    def text(self) -> str:
        """The summary, then one line per dialect: conforms, or where and why not."""
        lines = [f"{self.implementation}: {self.summary}"]
        lines += [f"  {name}: {result.status()}" for name, result in self.dialects.items()]
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        return {
            "implementation": self.implementation,
            "matches": self.matches,
            "dialects": {name: p.to_json() for name, p in self.dialects.items()},
            "summary": self.summary,
        }


def parts(dialect: str) -> list[tuple[int, int]]:
    """The dialect's domain cut where its rule changes: fixed layouts, then each LCG rule."""
    d = DIALECTS[dialect]
    fixed = sorted(d.fixed_layouts)
    return ([(fixed[0], fixed[-1])] if fixed else []) + [(r.first, r.last) for r in d.rules]


def deals_to_check(first: int, last: int, seed: int = 0) -> list[tuple[int, int]]:
    """Windows around each boundary inside first … last, and a uniform sample, as disjoint ranges."""
    wanted: set[int] = set()
    for b in (*BOUNDARIES, first, last):
        wanted.update(n for n in range(b - WINDOW, b + WINDOW + 1) if first <= n <= last and n != 0)
    rng = random.Random(f"{seed}:{first}")
    wanted.update(rng.randint(first, last) for _ in range(SAMPLE) if last - first > 2 * WINDOW)
    if first < 0:
        wanted.discard(0)
    ranges: list[tuple[int, int]] = []
    for n in sorted(wanted):
        if ranges and ranges[-1][1] + 1 == n:
            ranges[-1] = (ranges[-1][0], n)
        else:
            ranges.append((n, n))
    return ranges


def profile(
    impl: str,
    *,
    timeout: float = 10.0,
    seed: int = 0,
    limits: Limits = DEFAULT_LIMITS,
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
    cards: str | None = None,
    suits: str | None = None,
) -> Profile:
    """Check `impl` on every part of every dialect, its bare numbers read as `cards` and `suits` say
    (`--cards`, `--suits`); RequestError when it cannot be opened or read."""
    from harness import engine

    results: dict[str, DialectProfile] = {}
    for name in DIALECTS:
        checked, found = 0, []
        for first, last in parts(name):
            request = engine.Request(
                impl=impl,
                dialect=name,
                ranges=tuple(deals_to_check(first, last, seed)),
                jobs=1,
                timeout=timeout,
                startup_timeout=startup_timeout,
                limits=limits,
                cards=cards,
                suits=suits,
            )
            outcome = engine.run(request)
            failure, probed = outcome.first_failure, 0
            if failure is not None:
                failure, probed = _bisect(request, failure)
            checked += outcome.checked + probed
            found.append((first, last, failure))
        failures = [f for _, _, f in found if f is not None]
        first_failure = min(failures, key=lambda f: f.deal) if failures else None
        results[name] = DialectProfile(first_failure is None, checked, first_failure, tuple(found))
    return Profile(impl, {name: results[name] for name in DIALECTS})


def _bisect(request: Request, failure: Failure) -> tuple[Failure, int]:
    """The failure at the boundary: between the last conforming deal checked below `failure` and it,
    the smallest failing deal that follows a conforming one, found by probing deals one at a time by
    digest; and how many deals were probed.  Only the boundary's deal is then compared in full
    (narrowed, dealt alone, diagnosed); should it agree there after all, the failure first found stands."""
    from harness.adapters import open_pair
    from harness.compare import BlockComparer
    from harness.intervals import Block

    below = [n for first, last in request.ranges for n in (min(last, failure.deal - 1),) if first <= n]
    if not below or failure.deal - max(below) <= 1:
        return failure, 0
    good, bad = max(below), failure.deal
    probed = 0
    with contextlib.closing(
        BlockComparer(*open_pair(request.impl, request.against, request.options), dialect=request.dialect)
    ) as comparer:
        while bad - good > 1:
            middle = (good + bad) // 2
            if middle not in DIALECTS[request.dialect]:
                break
            probed += 1
            if comparer.agrees([middle]):
                good = middle
            else:
                bad = middle
        if bad != failure.deal:
            found = comparer.compare(Block.listing(str(bad), [bad])).failure
            failure = found if found is not None else failure
    return failure, probed


def describe(failure: Failure) -> str:
    """A few words for what a dealer does from a failing deal on, naming that deal (where the fault begins)."""
    from harness.diagnosis.diagnose import NONDETERMINISTIC

    d = failure.diagnosis
    n = failure.deal
    if d is None:
        why = failure.message if len(failure.message) <= 80 else failure.message[:77] + "..."
        return f"refuses deal {n} ({failure.kind}: {why})"
    if d.message.startswith(NONDETERMINISTIC):
        return "a different random deal each time" if d.cause == "other-deal" else "a different board each time"
    if d.cause == "wraps" and d.same_as is not None:
        for modulus, text in _WRAPS.items():
            if n == modulus and n % modulus == d.same_as.deal:
                return f"wraps above {text}"
    if d.cause == "clamped" and d.same_as is not None:
        return f"deal {d.same_as.deal}'s board for every deal from {n} on"
    return f"from deal {n}, {d.message}"


def _fault(result: DialectProfile) -> str | None:
    """What a dialect's first failure says the dealer does, and, where a later part of the domain
    conforms on what was checked, where the fault ends: the text tells what the bar draws."""
    f = result.first_failure
    if f is None:
        return None
    later = [(first, last) for first, last, failure in result.parts if failure is None and first > f.deal]
    if not later:
        return describe(f)
    part_last = next(last for first, last, _ in result.parts if first <= f.deal <= last)
    conforming = ", ".join(f"{_number(a)} … {_number(b)}" for a, b in later)
    verb = "conforms" if len(later) == 1 else "conform"
    return f"{describe(f)}, up to {_number(part_last)} only ({conforming} {verb} on the deals checked)"


def _number(n: int) -> str:
    """A deal number as the summary writes it: 2³¹−1, 2³², 32000."""
    return power_words(n) if n > 2**20 else str(n)


def summarize(dialects: dict[str, DialectProfile]) -> str:
    """`classic; wraps above 2³¹−1`, `fcpro`, `classic 1 … 32000, then …`, `xp without the −1/−2 layouts`."""
    matched = [name for name in ORDER if dialects[name].conformant]
    if matched:
        best = matched[0]
        wider = ORDER[: ORDER.index(best)]
        clauses = [fault for name in wider if (fault := _fault(dialects[name])) is not None]
        return "; ".join([best, *clauses[:1]])
    xp = dialects["xp"]
    f = dialects["classic"].first_failure
    assert f is not None
    if all(f is None for first, _, f in xp.parts if first > 0) and f.deal <= XP_LAST + 1:
        return "xp without the −1/−2 layouts"
    fault = _fault(dialects["classic"])
    if f.deal > 1:
        return f"classic 1 … {f.deal - 1}, then {fault}"
    return f"no dialect: {fault}"
