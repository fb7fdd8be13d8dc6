"""The engine finds exactly the planted divergence, whatever the jobs, shards and order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.engine import Outcome, Request, run
from harness.errors import RequestError
from harness.failures import Failure
from harness.intervals import Shard
from harness.resume import ResumeLog

pytestmark = pytest.mark.usefixtures("test_dealers")


def sharded_outcome(request: Request, count: int) -> tuple[int, Failure | None]:
    """Run every shard of `request`, as N machines would, and merge as `report merge` does."""
    outcomes: list[Outcome] = [run(_with(request, shard=Shard(k, count))) for k in range(1, count + 1)]
    failures = [o.first_failure for o in outcomes if o.first_failure]
    return sum(o.checked for o in outcomes), min(failures, key=lambda f: f.deal) if failures else None


def _with(request: Request, **changes: object) -> Request:
    from dataclasses import replace

    return replace(request, **changes)  # type: ignore[arg-type]


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    planted=st.integers(101, 9000),
    also_later=st.integers(0, 3000),
    jobs=st.sampled_from([1, 2]),
    shards=st.sampled_from([1, 3]),
    function=st.sampled_from(["deal", "rows"]),
)
def test_a_planted_divergence_is_found_at_exactly_its_deal(
    monkeypatch: pytest.MonkeyPatch, planted: int, also_later: int, jobs: int, shards: int, function: str
) -> None:
    monkeypatch.setenv("PLANTED_DEAL", str(planted))
    monkeypatch.delenv("PLANTED_ERROR", raising=False)  # left by an earlier example
    if also_later:
        monkeypatch.setenv("PLANTED_ERROR", str(planted + also_later))  # a later failure must not win
    else:  # the monkeypatch outlives one Hypothesis example: forget the last example's error
        monkeypatch.delenv("PLANTED_ERROR", raising=False)
    request = Request(impl=f"py:planted:{function}", ranges=((101, 9500),), jobs=jobs, block_size=700)
    checked, failure = sharded_outcome(request, shards)
    assert failure is not None
    assert (failure.deal, failure.kind, failure.message) == (planted, "mismatch", "cards 11 and 12 differ")
    assert failure.expected and failure.actual and failure.expected != failure.actual
    assert checked >= planted - 101 + 1  # every deal before it was checked


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_conforming_dealer_conforms_and_every_deal_is_counted(jobs: int) -> None:
    outcome = run(Request(impl="py:planted:deal", ranges=((1, 2500), (40000, 40499)), jobs=jobs, block_size=300))
    assert outcome.conformant and outcome.checked == 3000


@pytest.mark.parametrize("jobs", [1, 2])
def test_ranges_given_out_of_deal_order_still_find_the_smallest_failure(
    monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    """The first range fails early; blocks after that failure are moot, but the second range lies before it."""
    monkeypatch.setenv("PLANTED_DEAL", "12345")
    monkeypatch.setenv("PLANTED_ERROR", "10500")
    outcome = run(Request(impl="py:planted:deal", ranges=((12001, 20000), (10001, 11000)), jobs=jobs, block_size=500))
    assert outcome.first_failure is not None and outcome.first_failure.deal == 10500
    assert outcome.checked == 500  # 10001 … 10500: the deals of the first range all lie after the failure


def test_the_error_kind_and_message_of_the_function_are_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLANTED_ERROR", "2024")
    failure = run(Request(impl="py:planted:deal", ranges=((2000, 2100),))).first_failure
    assert failure is not None
    assert failure == Failure(
        2024, "error", "deal(2024) raised RuntimeError: planted error at 2024", failure.expected, None
    )


def test_a_sample_checks_the_boundaries_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLANTED_DEAL", str(2**31 - 1))
    outcome = run(Request(impl="py:planted:deal", sample=40, seed=1, block_size=16))
    assert outcome.first_failure is not None and outcome.first_failure.deal == 2**31 - 1
    assert outcome.checked == 40


def test_a_resumed_run_checks_each_block_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dealt = tmp_path / "dealt.txt"
    monkeypatch.setenv("DEALT_LOG", str(dealt))
    log_path = tmp_path / "run.resume"
    request = Request(impl="py:planted:deal", ranges=((1, 1000),), block_size=100)
    log = ResumeLog(log_path)
    first = run(request, resume=log)
    log.close()
    # Interrupt it: keep the header and 4 finished blocks, and a line torn in the middle.
    lines = log_path.read_text().splitlines()
    log_path.write_text("\n".join(lines[:5]) + "\n" + lines[5][:17])
    dealt.write_text("")
    log = ResumeLog(log_path)
    second = run(request, resume=log)
    log.close()
    redealt = [int(n) for n in dealt.read_text().split()]
    assert redealt == list(range(401, 1001))  # blocks 1-400 were not dealt again
    assert second.checked == first.checked == 1000 and second.conformant


def test_a_resume_log_of_another_run_is_refused(tmp_path: Path) -> None:
    from harness.errors import RequestError

    log_path = tmp_path / "run.resume"
    log = ResumeLog(log_path)
    run(Request(impl="reference", ranges=((1, 10),)), resume=log)
    log.close()
    with pytest.raises(RequestError, match="another run"):
        run(Request(impl="reference", ranges=((1, 20),)), resume=ResumeLog(log_path))


@pytest.mark.parametrize(
    ("environment", "refused", "failure_at"),
    [
        ({"REFUSED_FROM": "1"}, "deal(1)", None),  # every block refused: the first one's refusal
        ({"REFUSED_FROM": "401", "PLANTED_DEAL": "3"}, None, 3),  # a mismatch before the first refusal
        ({"REFUSED_FROM": "250"}, "deal(250)", None),  # the refusal inside the first block
    ],
    ids=["refused everywhere", "wrong before refused", "refused within the first block"],
)
def test_what_is_met_first_in_deal_order_decides_however_the_workers_answers_interleave(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], refused: str | None, failure_at: int | None
) -> None:
    monkeypatch.setenv("SLOW_DEAL", "1")  # the first block's worker answers last
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    request = Request(impl="py:refusing:deal", ranges=((1, 1200),), jobs=2, block_size=400)
    if refused is None:
        failure = run(request).first_failure
        assert failure is not None and failure.deal == failure_at and failure.kind == "mismatch"
    else:
        with pytest.raises(RequestError, match=rf"^py:refusing:deal: {re.escape(refused)} returned"):
            run(request)
