"""The comparer stops at the first difference, narrows it by digests from a fresh process, and
names a dealer whose boards depend on history or chance instead of blaming a deal that was right."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

from harness.engine import Request, run

TESTS = Path(__file__).parent
pytestmark = pytest.mark.usefixtures("test_dealers")


def _stateful_js(directory: Path) -> str:
    good = (TESTS / "js" / "good.js").read_text().replace("function dealFreeCell(n)", "function correct(n)")
    path = directory / "stateful.js"
    path.write_text((TESTS / "js" / "stateful.js").read_text() + good)
    return f"node:{path}"


def test_a_stateful_dealer_is_blamed_at_the_deal_where_it_went_wrong_and_called_stateful(
    node: str, tmp_path: Path
) -> None:
    failure = run(Request(impl=_stateful_js(tmp_path), ranges=((1, 10000),))).first_failure
    assert failure is not None
    assert (failure.deal, failure.kind) == (5000, "mismatch")
    assert "deal 5000 is right" in failure.message and "stateful" in failure.message


@pytest.mark.parametrize("kind", ["py", "stream"])
def test_a_dealer_wrong_by_chance_is_called_non_deterministic(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLAKY_ODDS", "500")
    program = TESTS / "dealers" / "flaky.py"
    impl = "py:flaky:sometimes" if kind == "py" else f"stream:{shlex.join([sys.executable, str(program)])}"
    failure = run(Request(impl=impl, ranges=((1, 20000),))).first_failure
    assert failure is not None  # one board in 500 is wrong: 40 expected; none at all has odds e^-40
    assert "non-deterministic" in failure.message
    assert failure.kind in ("mismatch", "error")


@pytest.mark.parametrize(
    ("calls", "stateful"),
    [("2-", True), ("2,3", True), ("2", False), ("2,4-", False)],
    ids=["wrong-from-then-on", "wrong-twice-again", "wrong-again-once", "wrong-again-then-right"],
)
def test_a_dealer_is_said_to_keep_state_only_when_twice_again_it_deals_that_deal_wrong(
    monkeypatch: pytest.MonkeyPatch, calls: str, stateful: bool
) -> None:
    """Deal 2 is a process's 2nd call: wrong; alone, from a fresh process (call 1), right; then asked
    twice again (calls 2 and 3).  Once wrong again (by chance, one deal in k, odds 1/k) is not enough."""
    monkeypatch.setenv("FLAKY_CALLS", calls)
    failure = run(Request(impl="py:flaky:on_calls", ranges=((1, 100),))).first_failure
    assert failure is not None and (failure.deal, failure.kind) == (2, "mismatch"), failure
    assert failure.stateful == stateful, failure.message
    assert ("keeps state" in failure.explanation) == stateful, failure.explanation
    assert ("stateful or non-deterministic" in failure.message) == (not stateful), failure.message


def test_digests_that_differ_while_every_line_agrees_name_the_deals_not_the_first_of_the_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FLAKY_SEEN", str(tmp_path))  # wrong only the first time in any process: a fresh one is right
    failure = run(Request(impl="py:flaky:first_time", ranges=((1, 10000),))).first_failure
    assert failure is not None and failure.kind == "error"
    named = re.search(r"non-deterministic or stateful: deals (\d+)-(\d+) ", failure.message)
    assert named, failure.message
    first, last = int(named[1]), int(named[2])
    assert first <= 7 <= last and last - first < 64 and failure.deal == first


@pytest.mark.parametrize(("tired", "deal"), [(20, 20), (50, 50), (5, 5)])
def test_a_dealer_that_fails_of_what_it_dealt_before_is_blamed_where_it_failed_in_order(
    monkeypatch: pytest.MonkeyPatch, tired: int, deal: int
) -> None:
    """A failure that narrowing from a fresh process shows at a deal right alone (here the 20th
    deal of each process raises) is looked for again after the deals first dealt before it."""
    monkeypatch.setenv("FLAKY_TIRED", str(tired))
    failure = run(Request(impl="py:flaky:tired", ranges=((1, 1000),), jobs=1)).first_failure
    assert failure is not None
    assert (failure.deal, failure.kind) == (deal, "error"), failure
    assert f"tired after {tired} deals" in failure.message


@pytest.mark.parametrize(("jobs", "planted"), [(1, 1), (2, 1), (1, 5), (2, 2500)])
def test_a_failure_stops_the_work_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int, planted: int
) -> None:
    dealt = tmp_path / "dealt.txt"
    monkeypatch.setenv("DEALT_LOG", str(dealt))
    monkeypatch.setenv("PLANTED_DEAL", str(planted))
    outcome = run(Request(impl="py:planted:deal", ranges=((1, 200_000),), jobs=jobs, block_size=10_000))
    assert outcome.first_failure is not None and outcome.first_failure.deal == planted
    count = len(dealt.read_text().split())
    # One worker: the failing block up to the failure, with narrowing and diagnosis, and nothing after it.
    # Two: the other worker goes on while the failure is narrowed (each narrowing step starts a fresh
    # py: process), as far as its speed against the narrowing's takes it (some 7 blocks with both cores
    # kept busy): the run still stops well before the 200,000 deals.
    bound = planted + 10_000 if jobs == 1 else 150_000
    assert count < bound, f"{count} deals dealt for a failure at deal {planted}"


@pytest.mark.parametrize("jobs", [1, 2])
def test_blocks_the_fixtures_hold_only_as_digests_are_compared_whole(jobs: int) -> None:
    """The fixtures answer a digest only for a whole block of the grid beyond deal 32000: the
    comparer must not cut such a block into chunks (the conformance env's main job does this)."""
    outcome = run(Request(impl="reference", against="fixtures", ranges=((30001, 70000),), jobs=jobs))
    assert outcome.first_failure is None and outcome.checked == 40000
