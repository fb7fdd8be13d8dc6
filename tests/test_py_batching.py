"""The `py:` runner writes its frames many at a time (`harness.adapters.python.BATCH`); what is
reported is what one frame per deal would report: a crash, hang or forged frame is pinned to the
deal it happened at (tests/test_hostile.py has those of one deal), also when it comes of what the
process dealt before, and a slow deal's frame is never held long enough to be taken for a hang."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import engine
from harness.adapters import DealerOptions, open_dealer, python
from harness.cli import main
from harness.engine import Request
from harness.failures import Failure

HERE = Path(__file__).parent


@pytest.fixture(autouse=True)
def importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(HERE / "hostile"))
    monkeypatch.syspath_prepend(str(HERE / "dealers"))


STATEFUL = {
    # Deals 1-16 are the block's first request, 17-80 its second: the 40th call is deal 40 only if
    # the process's history is dealt again before the held deals are dealt one per write.
    "exits at its 40th call": ("quitter:worn_out", "crash", ()),
    # The same, its answers written one at a time: when they are written changes nothing reported.
    "exits at its 40th call, dealing slowly": ("quitter:worn_out_slowly", "crash", ()),
    "hangs at its 40th call": ("quitter:worn_out_hangs", "timeout", ("--timeout", "0.5")),
}
FORGED = {
    # From deal 40 on, every frame the runner writes is rewritten: the first of them holds deals
    # before 40 when frames are written many at a time.
    "a line with a card twice, among many frames": ("py_hostile:repeated_card_line_late", 40),
}


@pytest.mark.parametrize(("impl", "kind", "options"), STATEFUL.values(), ids=STATEFUL.keys())
def test_a_failure_that_comes_of_the_process_s_history_is_pinned_to_its_deal(
    impl: str, kind: str, options: tuple[str, ...], tmp_path: Path
) -> None:
    report = tmp_path / "report.json"
    status = main(
        ["verify", f"py:{impl}", "--range", "1-100", "--jobs", "1", "--quiet", "--report", str(report), *options]
    )
    failure = json.loads(report.read_text())["first_failure"]
    assert status == 1 and (failure["deal"], failure["kind"]) == (40, kind), failure
    assert "keeps state" in failure["message"], failure


def test_slow_deals_well_within_the_timeout_are_no_timeout(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # A block's first request is 16 deals: of 100 ms each, held to the end of the request they would
    # leave 1.6 s without a frame, past --timeout 1.
    monkeypatch.setenv("SLOW_S", "0.1")
    status = main(["verify", "py:slow_dealer:deal", "--range", "1-16", "--jobs", "1", "--timeout", "1", "--quiet"])
    assert status == 0


@pytest.mark.parametrize(("impl", "deal"), FORGED.values(), ids=FORGED.keys())
def test_a_forged_frame_is_pinned_to_the_deal_that_forged_it(impl: str, deal: int) -> None:
    with open_dealer(f"py:{impl}", DealerOptions()) as dealer:
        answers = dealer.lines(range(1, 101))
    failures = [(a.deal, a.kind) for a in answers if isinstance(a, Failure)]
    assert failures[:1] == [(deal, "invalid-output")], failures


def test_when_answers_are_written_changes_nothing_reported(tmp_path: Path) -> None:
    reported = []
    for impl in ("quitter:worn_out", "quitter:worn_out_slowly"):
        report = tmp_path / f"{impl}.json"
        main(["verify", f"py:{impl}", "--range", "1-100", "--jobs", "1", "--quiet", "--report", str(report)])
        reported.append(json.loads(report.read_text())["first_failure"])
    assert reported[0] == reported[1]


def _right(deals: range) -> list[bytes]:
    with open_dealer("reference", DealerOptions()) as dealer:
        return [a for a in dealer.lines(deals) if isinstance(a, bytes)]


@pytest.mark.parametrize(
    ("then", "crash_at"),
    [
        # Asked ahead, then asked for: the same process deals them; its 40th call is deal 40.
        (range(17, 81), 40),
        # Asked ahead, then not asked for: a fresh process deals what is asked (its 11 calls are right).
        (range(100, 111), None),
    ],
    ids=["the deals asked ahead", "other deals"],
)
def test_deals_asked_ahead_are_dealt_in_the_same_process_only_if_they_are_asked_for(
    then: range, crash_at: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORN_OUT_AT", "40")
    with open_dealer("py:quitter:worn_out", DealerOptions()) as dealer:
        first = dealer.lines_then(range(1, 17), range(17, 81))  # type: ignore[attr-defined]
        answers = dealer.lines(then)
    assert first == _right(range(1, 17))
    failures = [(a.deal, a.kind) for a in answers if isinstance(a, Failure)]
    if crash_at is None:
        assert answers == _right(then)
    else:
        assert failures[:1] == [(crash_at, "crash")], failures
        assert answers[: crash_at - then[0]] == _right(range(then[0], crash_at))


@pytest.mark.parametrize(
    ("calls", "crash_at"),
    [
        # Three chunks asked ahead (as the comparer asks for the next block's first chunks), then asked
        # for one by one: the same process deals them; its 40th call is deal 40.
        ((range(17, 33), range(33, 49), range(49, 97)), 40),
        # Not asked for as they were asked ahead: a fresh process deals what is asked; its 40th call is
        # the 40th deal asked.
        ((range(18, 33), range(33, 49), range(49, 97)), 18 + 39),
        ((range(33, 49), range(49, 97)), 33 + 39),
        ((range(17, 49), range(49, 97)), 17 + 39),
    ],
    ids=["as asked ahead", "all but the first deal", "from the second chunk on", "two chunks in one call"],
)
def test_deals_asked_ahead_for_many_calls_are_dealt_in_the_same_process_only_if_asked_for_so(
    calls: tuple[range, ...], crash_at: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORN_OUT_AT", "40")
    with open_dealer("py:quitter:worn_out", DealerOptions()) as dealer:
        first = dealer.lines_then(range(1, 17), range(17, 33), range(33, 49), range(49, 97))  # type: ignore[attr-defined]
        answers = [a for deals in calls for a in dealer.lines(deals)]
    asked = [n for deals in calls for n in deals]
    assert first == _right(range(1, 17))
    failures = [(a.deal, a.kind) for a in answers if isinstance(a, Failure)]
    assert failures[:1] == [(crash_at, "crash")], failures
    assert answers[: asked.index(crash_at)] == _right(range(asked[0], crash_at))


def test_a_failure_that_comes_of_the_process_s_history_is_pinned_across_blocks() -> None:
    # Blocks of 30 deals: the 40th call, deal 40, is dealt ahead of its block, while block 1-30 is judged.
    outcome = engine.run(Request(impl="py:quitter:worn_out", ranges=((1, 100),), jobs=1, block_size=30))
    failure = outcome.first_failure
    assert failure is not None and (failure.deal, failure.kind) == (40, "crash"), failure
    assert "keeps state" in failure.message, failure


NAMED_ROWS = {
    # Rows, columns or 52 canonical names are sent as they are, their cards checked by the parent: a card twice
    # is the reader's own failure at its deal, as when each board was read by `canonical_line_of`.
    "a card twice": ("named_rows:card_twice", "found 52 cards, repeated: "),
    "a card twice, in tuples": ("named_rows:card_twice_in_tuples", "found 52 cards, repeated: "),
    "a card twice, in columns": ("named_rows:card_twice_in_columns", "found 52 cards, repeated: "),
    "a card twice, in 52 names": ("named_rows:card_twice_in_52", "found 52 cards, repeated: "),
    "a card twice, in text": ("named_rows:card_twice_in_text", "found 52 cards, repeated: "),
    "a card twice, in lines of text": ("named_rows:card_twice_in_lines", "found 52 cards, repeated: "),
    # Boards that are right, written otherwise than in canonical names.
    "lower-case names": ("named_rows:lower_case", None),
    "text in lower case": ("named_rows:text_in_lower_case", None),
    "10 for ten": ("named_rows:ten_as_10", None),
    "columns of names, among rows": ("named_rows:columns", None),
}


@pytest.mark.parametrize(("impl", "said"), NAMED_ROWS.values(), ids=NAMED_ROWS.keys())
def test_boards_of_names_among_many_are_judged_as_one_by_one(impl: str, said: str | None, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    status = main(["verify", f"py:{impl}", "--range", "1-100", "--jobs", "1", "--quiet", "--report", str(report)])
    failure = json.loads(report.read_text())["first_failure"]
    if said is None:
        assert (status, failure) == (0, None), failure
    else:
        assert status == 1 and (failure["deal"], failure["kind"]) == (40, "invalid-output"), failure
        assert said in failure["message"] and "channel" not in failure["message"], failure


def test_a_card_twice_that_does_not_recur_is_said_as_such_not_as_a_channel_written_into(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ONCE_MARK", str(tmp_path / "dealt"))
    report = tmp_path / "report.json"
    argv = ["verify", "py:named_rows:card_twice_once", "--range", "1-100", "--jobs", "1", "--quiet", "--report"]
    status = main([*argv, str(report)])
    failure = json.loads(report.read_text())["first_failure"]
    assert status == 1 and (failure["deal"], failure["kind"]) == (40, "invalid-output"), failure
    assert "repeat" in failure["message"] and failure["message"].count("did not recur") == 1, failure
    assert "channel" not in failure["message"], failure


CARD_TWICE = {
    # Boards of card objects, each with a card twice at deal 40, read the quick way (their kind learnt
    # from the boards before): the runner leaves that check to the parent, which has the board dealt
    # again one per write and read in full there.  Reported as one frame per deal reports it.
    "frozen dataclasses in columns, one object twice": "card_objects:frozen_columns",
    "frozen dataclasses in columns, an equal card remade": "card_objects:frozen_columns_remade",
    "frozen dataclasses yielded": "card_objects:frozen_generator",
    "namedtuples of enums": "card_objects:enum_cards",
    "dicts of numbers decided from the deck": "card_objects:one_based_dicts",
    "dataclasses of letters in rows": "card_objects:letter_rows",
    "str() cards in rows": "card_objects:printed_rows",
    "a game state's cascades": "card_objects:game_state",
}


def _first_failure(impl: str, report: Path) -> dict[str, object]:
    main(["verify", f"py:{impl}", "--range", "1-100", "--jobs", "1", "--quiet", "--report", str(report)])
    failure: dict[str, object] = json.loads(report.read_text())["first_failure"]
    return failure


@pytest.mark.parametrize("impl", CARD_TWICE.values(), ids=CARD_TWICE.keys())
def test_card_objects_dealt_twice_are_reported_as_one_frame_per_deal_reports_them(
    impl: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    batched = _first_failure(impl, tmp_path / "batched.json")
    monkeypatch.setattr(python, "BATCH", 1)  # one frame per write: every board read in full by the runner
    alone = _first_failure(impl, tmp_path / "alone.json")
    assert (batched["deal"], batched["kind"]) == (40, "invalid-output"), batched
    assert "repeated" in str(batched["message"]), batched
    assert batched == alone
