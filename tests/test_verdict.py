"""The one verdict: merging parts in any order and grouping gives the same deals checked and the
same (smallest) failure; the engine's running verdict keeps the smaller failure whatever the order."""

from __future__ import annotations

import itertools
from functools import reduce

import pytest

from harness.compare import BlockResult
from harness.engine import Outcome
from harness.errors import HarnessBug
from harness.failures import Failure
from harness.verdict import Verdict, merge_verdicts, smaller_failure


def failure(deal: int, kind: str = "mismatch") -> Failure:
    return Failure(deal, kind, f"{kind} at {deal}")  # type: ignore[arg-type]


PARTS = {
    "clean": Verdict(100, None),
    "fails-at-7": Verdict(7, failure(7)),
    "fails-at-500": Verdict(50, failure(500)),
    "crash-at-7": Verdict(7, failure(7, "crash")),  # a tie on the deal: broken by a fixed order, not by arrival
    "empty": Verdict(),
}


@pytest.mark.parametrize(
    ("names", "checked", "first"),
    [
        (["clean"], 100, None),
        (["clean", "empty"], 100, None),
        (["clean", "fails-at-500"], 150, failure(500)),
        (["fails-at-500", "fails-at-7"], 57, failure(7)),
        (["clean", "fails-at-7", "fails-at-500"], 157, failure(7)),
        (["fails-at-7", "crash-at-7", "clean"], 114, failure(7, "crash")),
        (list(PARTS), 164, failure(7, "crash")),
    ],
)
def test_merging_in_every_order_and_grouping_gives_one_verdict(
    names: list[str], checked: int, first: Failure | None
) -> None:
    for order in itertools.permutations(names):
        parts = [PARTS[n] for n in order]
        left = reduce(Verdict.merge, parts, Verdict())
        right = reduce(lambda acc, part: part.merge(acc), parts, Verdict())
        assert left == right == merge_verdicts(parts) == Verdict(checked, first), order


@pytest.mark.parametrize(
    ("a", "b", "smaller"),
    [(None, None, None), (failure(3), None, 3), (None, failure(3), 3), (failure(9), failure(3), 3)],
)
def test_the_smaller_failure_wins(a: Failure | None, b: Failure | None, smaller: int | None) -> None:
    for x, y in ((a, b), (b, a)):
        got = smaller_failure(x, y)
        assert (got.deal if got else None) == smaller


def test_a_verdict_of_negative_deals_is_a_bug_of_ours() -> None:
    with pytest.raises(HarnessBug):
        Verdict(-1)


@pytest.mark.parametrize("order", list(itertools.permutations([(1, 100), (101, 200), (201, 300)])))
def test_outcome_keeps_the_smaller_failure_whatever_order_blocks_finish_in(order: tuple[tuple[int, int], ...]) -> None:
    """Kills the mutant "keep the larger failure in Outcome.add" without relying on timing: blocks
    finish in every order, and two of them fail."""
    fails = {1: 40, 201: 250}  # block first deal → its failing deal
    outcome = Outcome()
    for first, last in order:
        f = failure(fails[first]) if first in fails else None
        checked = (f.deal - first + 1) if f else last - first + 1
        outcome.add(BlockResult(f"{first}-{last}", checked, f, first), first)
    assert outcome.first_failure == failure(40)
    assert outcome.checked == 40  # only the deals up to the first failure: later blocks are taken back


def test_outcome_skips_blocks_after_a_known_failure() -> None:
    outcome = Outcome()
    outcome.add(BlockResult("1-100", 10, failure(10), 1), 1)
    outcome.add(BlockResult("101-200", 100, None, 101), 101)
    assert (outcome.checked, outcome.first_failure) == (10, failure(10))
