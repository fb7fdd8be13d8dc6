"""The reference adapter deals a window of deals at once for the short runs a slow dealer is compared in, and
cuts each run from it: every cut is the run's own lines and digest, across the window's edges, the domain's
gaps and ends, and wherever the run leaves the domain (an error, as without the window)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import pytest

import reference
from harness.adapters import DealerOptions
from harness.adapters.reference import WINDOW, ReferenceDealer

LAST = 2_147_483_647
CASES = {
    # dialect, the runs asked for one after another (one dealer: its window carries over)
    "runs in order, past the window's end": ("classic", [range(1, 17), range(17, 33), range(WINDOW - 8, WINDOW + 8)]),
    "a run back before the window": ("classic", [range(100, 116), range(50, 66)]),
    "one deal": ("classic", [[7], [8]]),
    "at the domain's end": ("classic", [range(LAST - 20, LAST - 4), range(LAST - 3, LAST + 1)]),
    "not a run": ("classic", [[5, 3, 9], [1, 1, 2]]),
    "fcpro across its rules' seam": ("fcpro", [range(LAST - 5, LAST + 11), range(LAST + 11, LAST + 27)]),
    "fcpro near its domain's end": ("fcpro", [range(8_589_934_580, 8_589_934_592)]),
    "the longest run still cut": ("classic", [range(1000, 1000 + WINDOW - 1)]),
    "a run as long as the window": ("classic", [range(1, WINDOW + 1)]),
}


@pytest.mark.parametrize(("dialect", "runs"), CASES.values(), ids=CASES.keys())
def test_each_run_is_its_own_lines_and_digest(dialect: str, runs: list[Sequence[int]]) -> None:
    dealer = ReferenceDealer(DealerOptions(dialect=dialect))
    for deals in runs:
        expected = reference.canonical_lines(list(deals), dialect)
        assert b"".join(dealer.lines(deals)) == expected, deals  # type: ignore[arg-type]
        assert dealer.block_digest(deals) == hashlib.sha256(expected).hexdigest(), deals


@pytest.mark.parametrize(
    ("dialect", "deals"),
    [("classic", range(LAST - 2, LAST + 2)), ("classic", [0, 1]), ("fcpro", range(8_589_934_590, 8_589_934_594))],
    ids=["past-the-end", "deal-0", "fcpro-past-the-end"],
)
def test_a_run_that_leaves_the_domain_is_refused_as_without_the_window(dialect: str, deals: Sequence[int]) -> None:
    dealer = ReferenceDealer(DealerOptions(dialect=dialect))
    dealer.lines(range(1, 3))  # a window in place
    with pytest.raises(ValueError) as direct:
        reference.canonical_lines(list(deals), dialect)
    with pytest.raises(ValueError) as windowed:
        dealer.lines(deals)
    assert str(windowed.value) == str(direct.value)
