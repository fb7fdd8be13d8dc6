"""A `node:` dealer whose board has a card repeated (and so another missing), in every shape the Node
reader takes: an `invalid-output` that keeps the board it gave, for the reports to show it with the
repeated and missing cards marked (issue 31, item 5).  The dealers are tests/js/repeated/: a game
whose hand-typed deck has the king of diamonds typed as the king of spades."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

import reference
from harness.adapters import DealerOptions, open_dealer
from harness.cli import main
from harness.failures import Failure

GAMES = Path(__file__).with_name("js") / "repeated" / "games.js"
REPEATED, MISSING = "KS", "KD"  # the mistyped card, and the one typed as it


def impl(name: str) -> str:
    return f"node:{os.path.relpath(GAMES)}#{name}"


def given(deal: int) -> str:
    """The board the mistyped deck deals: the reference's, the missing card in the repeated one's name."""
    return " ".join(REPEATED if c == MISSING else c for c in reference.canonical_lines([deal]).decode().split())


# Every shape the reader takes a board of card objects in (and names, numbers, text forms, board
# text), with the request options it needs.
SHAPES = {
    "columns-of-card-objects": ("columns", {}),
    "rows-of-value-and-suit-words": ("rowsOfValues", {}),
    "52-card-objects": ("dealt", {}),
    "fields-of-other-names": ("numberKind", {}),
    "game-state-with-tableau-piles": ("Game", {}),
    "card-numbers-stated": ("cardNumbers", {"cards": "rank-major", "suits": "CDHS"}),
    "rows-of-names": ("names", {}),
    "cards-known-by-text-form": ("shownCards", {}),
    "generator-of-card-objects": ("dealing", {}),
    "board-text": ("printed", {}),
}


@pytest.mark.parametrize("case", sorted(SHAPES))
def test_a_board_with_a_repeated_card_is_invalid_output_keeping_the_board_given(node: str, case: str) -> None:
    name, encoding = SHAPES[case]
    deals = [1, 2, 617]
    with open_dealer(impl(name), DealerOptions(**encoding)) as dealer:  # type: ignore[arg-type]
        answers = dealer.lines(deals)
        assert dealer.block_digest(deals) is None
    for deal, answer in zip(deals, answers, strict=True):
        assert isinstance(answer, Failure) and (answer.deal, answer.kind) == (deal, "invalid-output"), answer
        assert re.search(rf"repeated: {REPEATED}\b.*missing: {MISSING}\b", answer.message), answer.message
        assert answer.actual == given(deal)


def test_a_repeated_card_after_boards_read_right_keeps_the_board_given(node: str) -> None:
    """The reader has learnt the game's layout from deals 1 … 3: its learnt reading keeps the board too."""
    with open_dealer(impl("columnsFromDeal4"), DealerOptions()) as dealer:
        answers = dealer.lines(range(1, 8))
    assert answers[:3] == [reference.canonical_lines([n]) for n in range(1, 4)]
    for deal, answer in zip(range(4, 8), answers[3:], strict=True):
        assert isinstance(answer, Failure) and (answer.deal, answer.kind) == (deal, "invalid-output"), answer
        assert answer.actual == given(deal)


@pytest.mark.parametrize("name", ["columns", "columnsFromDeal4"])
def test_verify_shows_the_board_given_with_the_repeated_and_missing_cards_marked(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    report, page = tmp_path / "r.json", tmp_path / "r.html"
    argv = ["verify", impl(name), "--range", "1-20", "--jobs", "1", "-q", "--report", str(report), "--html", str(page)]
    assert main(argv) == 1
    out = capsys.readouterr().out
    failure = json.loads(report.read_text(encoding="utf-8"))["first_failure"]
    deal = 1 if name == "columns" else 4
    assert (failure["deal"], failure["kind"]) == (deal, "invalid-output")
    assert failure["actual"] == given(deal)
    assert failure["expected"] == reference.canonical_lines([deal]).decode().rstrip("\n")
    # Text: the board given, the repeated card marked ! where it lies, the missing one ? where due.
    assert "(no board from the implementation)" not in out
    assert f"(not a board: repeated, marked !: {REPEATED}; missing, marked ? where due: {MISSING})" in out
    due = failure["expected"].split()
    assert out.count(f"{REPEATED}!") == given(deal).split().count(REPEATED) == 2
    assert out.count(f"{MISSING}?") == due.count(MISSING) == 1
    # HTML: the same board drawn, the repeated cards and the missing one outlined.
    html = page.read_text(encoding="utf-8")
    assert re.findall(r'class="card[^"]*\brepeated" title="(\w+)"', html) == [REPEATED, REPEATED]
    assert re.findall(r'class="card[^"]*\bmissing" title="(\w+)"', html) == [MISSING]
    assert "no board from the implementation" not in html
