"""Why a dealer's board at deal n is not the expected one: the catalogue first, then `identify`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from harness.diagnosis.catalogue import CATALOGUE, CLAMP_LIMITS, Cards, Mistake, NumberMap, Transform, build
from harness.errors import RequestError
from harness.failures import KEEPS_STATE, Diagnosis, Failure, SameAs, kept_state
from reference.cards import CARD_INDEX
from reference.dialects import DIALECTS

if TYPE_CHECKING:
    from harness.adapters.base import Dealer

# Asks the dealer again for one deal: its board (52 cards in dealing order), or None if it gave none.
Redeal = Callable[[int], Cards | None]

NONDETERMINISTIC = "non-deterministic"


def cards_of(line: str) -> Cards | None:
    names = line.split()
    if len(names) != 52 or any(n not in CARD_INDEX for n in names):
        return None
    return tuple(CARD_INDEX[n] for n in names)


def _message(mistake: Mistake, n: int, m: int, dialect: str) -> str:
    if isinstance(mistake.source, NumberMap):
        note = " (a classic dealer asked for fcpro)" if mistake.key == "mod 2^31" and dialect == "fcpro" else ""
        # 0 and negative numbers are no deal of any dialect, but a dealer that wraps or cuts one seeds with it.
        board = f"deal {m}'s board" if any(m in d for d in DIALECTS.values()) else f"the board of seed {m}"
        return f"it is {board} — {mistake.explanation}{note}"
    if isinstance(mistake.source, Transform):
        return f"it is deal {n}'s board, rearranged — {mistake.explanation}"
    return f"it is deal {n} {mistake.explanation}"


def _from_catalogue(n: int, dialect: str, expected: Cards, actual: Cards) -> tuple[Mistake, int] | None:
    for mistake in CATALOGUE:
        built = build(mistake, n, dialect, expected)
        if built is not None and built[0] == actual:
            return mistake, built[1]
    return None


def _clamped(n: int, m: int, dialect: str, actual: Cards, redeal: Redeal | None, *, guess: bool = True) -> bool:
    """Whether deal m's board at n is a clamp: the dealer deals it above n too (asked again), or,
    with nobody to ask and `guess`, m is a usual limit."""
    if m >= n:
        return False
    probes = [p for p in (n + 1, n + 1009) if p in DIALECTS[dialect]]
    if redeal is not None and probes:
        return all(redeal(p) == actual for p in probes)
    return guess and m in CLAMP_LIMITS


def _explain(n: int, dialect: str, expected: Cards, actual: Cards, message: str, redeal: Redeal | None) -> Diagnosis:
    found = _from_catalogue(n, dialect, expected, actual)
    if found is not None:
        mistake, m = found
        # A wrap or cut number explains the board exactly; only asking again can show it is a clamp.
        guess = mistake.cause == "off-by-one"
        if isinstance(mistake.source, NumberMap) and _clamped(n, m, dialect, actual, redeal, guess=guess):
            return _clamp(n, m, dialect)
        transform = None if isinstance(mistake.source, NumberMap) else mistake.key
        same = SameAs(mistake.same_dialect or dialect, m, transform)
        return Diagnosis(mistake.cause, _message(mistake, n, m, dialect), same)
    from harness.diagnosis.identification import identify  # NumPy's: imported only when a board is no known mistake

    matches = identify(actual)
    if matches:
        match = next((x for x in matches if dialect in x.dialects), matches[0])
        if _clamped(n, match.deal, dialect, actual, redeal):
            return _clamp(n, match.deal, dialect)
        where = dialect if dialect in match.dialects else match.dialects[-1]
        return Diagnosis(
            "other-deal",
            f"it is deal {match.deal}'s board ({' '.join(match.dialects)}), none of the known mistakes",
            SameAs(where, match.deal),
        )
    return Diagnosis("unknown", f"{message}: no known mistake, and no deal of any dialect deals this board")


def _clamp(n: int, m: int, dialect: str) -> Diagnosis:
    """Deal m's board at n and above it: from n on, which is where the fault begins (m + 1 for a dealer
    that clamps at m; far above m for one that falls back to a default deal m)."""
    return Diagnosis(
        "clamped",
        f"it is deal {m}'s board — the number is clamped: deal {m}'s board for every deal from {n} on",
        SameAs(dialect, m),
    )


def diagnose(failure: Failure, dialect: str, redeal: Redeal | None = None) -> Diagnosis | None:
    """Why a mismatch is what it is; None for other failures.  `redeal` (asking the dealer again)
    tells a non-deterministic dealer and confirms a clamp."""
    if failure.kind != "mismatch" or failure.expected is None or failure.actual is None:
        return None
    expected, actual = cards_of(failure.expected), cards_of(failure.actual)
    if expected is None or actual is None:
        return None
    n = failure.deal
    if failure.stateful:  # asked again it deals another board because of what it kept, not by chance
        first = _explain(n, dialect, expected, actual, failure.message, None)
        return Diagnosis(
            first.cause,
            f"{KEEPS_STATE}: {kept_state(n)}; as dealt here, {first.message}",
            first.same_as,
        )
    if redeal is not None:
        again = redeal(n)
        if again is not None and again != actual:
            first = _explain(n, dialect, expected, actual, failure.message, None)
            return Diagnosis(
                first.cause,
                f"{NONDETERMINISTIC}: asked again for deal {n}, it dealt another board; the first time {first.message}",
                first.same_as,
            )
    return _explain(n, dialect, expected, actual, failure.message, redeal)


def redeal_with(dealer: Dealer) -> Redeal:
    """Asking `dealer` again for one deal."""

    def redeal(n: int) -> Cards | None:
        try:
            answer = dealer.lines([n])[0]
        except RequestError:
            return None
        return None if isinstance(answer, Failure) else cards_of(answer.decode("ascii", "replace"))

    return redeal


def diagnosed(failure: Failure, dialect: str, dealer: Dealer | None = None) -> Failure:
    """The failure with its diagnosis when it is a mismatch; `dealer` (the one that dealt it) is asked again."""
    if failure.kind != "mismatch" or failure.diagnosis is not None:
        return failure
    return failure.diagnosed(diagnose(failure, dialect, redeal_with(dealer) if dealer else None))
