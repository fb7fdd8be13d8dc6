"""`identify`: the deal numbers of a board, over the whole fcpro domain and xp's fixed layouts."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings

import reference
from harness import identify
from harness.cards import BoardError
from harness.cli import main
from harness.strategies import deal_numbers
from harness.vectors import load_published

BOUNDARIES = [1, 32000, 32767, 32768, 65535, 65536, 1_000_000, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**33 - 1]
NEAR_BOUNDARIES = sorted({n + d for n in BOUNDARIES for d in (-1, 0, 1) if 1 <= n + d <= 2**33 - 1})
REGIONS = [(1, 2**31 - 1), (2**31, 2**32 - 1), (2**32, 2**33 - 1)]
RANDOM_DEALS = [random.Random(f"identify{lo}").randint(lo, hi) for lo, hi in REGIONS for _ in range(3)]


def fcpro_board(n: int) -> tuple[int, ...]:
    return reference.deal(n, "fcpro").cards


@pytest.mark.parametrize(("dialect", "deal"), sorted(load_published()))
def test_every_published_board_is_identified(dialect: str, deal: int) -> None:
    line = load_published()[(dialect, deal)].decode()
    assert [(m.deal, dialect in m.dialects) for m in identify(line)] == [(deal, True)]


@pytest.mark.parametrize("n", BOUNDARIES + RANDOM_DEALS[::3])
def test_deals_at_every_boundary_and_in_every_region_are_identified(n: int) -> None:
    assert n in [m.deal for m in identify(fcpro_board(n))]


@pytest.mark.slow
@pytest.mark.parametrize("n", sorted(set(NEAR_BOUNDARIES + RANDOM_DEALS) - set(BOUNDARIES + RANDOM_DEALS[::3])))
def test_deals_next_to_every_boundary_and_more_in_every_region_are_identified(n: int) -> None:
    assert n in [m.deal for m in identify(fcpro_board(n))]


def _finds_every_deal(n: int) -> None:
    matches = identify(fcpro_board(n))
    assert n in [m.deal for m in matches]
    assert all(fcpro_board(m.deal) == fcpro_board(n) for m in matches)


@settings(max_examples=8, deadline=None)
@given(n=deal_numbers("fcpro"))
def test_identify_finds_every_deal_of_the_fcpro_domain(n: int) -> None:
    _finds_every_deal(n)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(n=deal_numbers("fcpro"))
def test_identify_finds_every_deal_of_the_fcpro_domain_at_length(n: int) -> None:
    _finds_every_deal(n)


@pytest.mark.parametrize(
    ("n", "dialects"),
    [
        (1, ("classic", "fcpro", "xp")),
        (1_000_000, ("classic", "fcpro", "xp")),
        (1_000_001, ("classic", "fcpro")),
        (2**31 - 1, ("classic", "fcpro")),
        (2**31, ("fcpro",)),
        (2**33 - 1, ("fcpro",)),
        (-1, ("xp",)),
        (-2, ("xp",)),
    ],
)
def test_each_match_names_the_dialects_that_deal_it(n: int, dialects: tuple[str, ...]) -> None:
    board = reference.deal(n, "xp" if n < 0 else "fcpro")
    assert [(m.deal, m.dialects) for m in identify(board.cards)] == [(n, dialects)]


def _swapped(n: int, i: int, j: int) -> tuple[int, ...]:
    cards = list(fcpro_board(n))
    cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


@pytest.mark.parametrize("board", [_swapped(617, 10, 11), _swapped(2**32 + 5, 0, 51), tuple(range(52))])
def test_a_board_no_deal_deals_is_not_identified(board: tuple[int, ...]) -> None:
    assert identify(board) == []


@pytest.mark.parametrize("fmt", reference.FORMATS)
def test_board_text_in_any_layout_is_read(fmt: str) -> None:
    assert [m.deal for m in identify(reference.deal(617).format(fmt))] == [617]


def test_rows_and_card_names_are_read() -> None:
    d = reference.deal(24)
    assert [m.deal for m in identify([list(r) for r in d.rows])] == [24]
    assert [m.deal for m in identify(list(d.names))] == [24]


def test_what_is_not_a_board_is_refused() -> None:
    with pytest.raises(BoardError):
        identify("AS KS QS")


def run_cli(
    argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_several_boards_in_one_stream_in_mixed_layouts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        "Game #617\n" + reference.deal(617).format("columns")
        + reference.deal(-1, "xp").format("line")
        + "\n" + reference.deal(3_000_000_000, "fcpro").format("rows")
        + reference.deal(5).format("json")
    )  # fmt: skip
    status, out, _ = run_cli(["identify"], text, monkeypatch, capsys)
    assert (status, out) == (0, "617  classic fcpro xp\n-1  xp\n3000000000  fcpro\n5  classic fcpro xp\n")


def test_json_and_a_board_that_is_no_deal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    names = list(reference.deal(2).names)
    names[0], names[1] = names[1], names[0]
    text = reference.deal(1_000_001).format("line") + " ".join(names) + "\n"
    status, out, _ = run_cli(["identify", "--json"], text, monkeypatch, capsys)
    assert status == 1
    assert json.loads(out) == [
        {"board": 1, "matches": [{"deal": 1_000_001, "dialects": ["classic", "fcpro"]}]},
        {"board": 2, "matches": []},
    ]
    status, out, _ = run_cli(["identify"], " ".join(names) + "\n", monkeypatch, capsys)
    assert (status, out) == (1, "not a Microsoft deal\n")


def test_boards_from_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(reference.deal(24).format("columns"))
    second.write_text(reference.deal(2**32, "fcpro").format("rows"))
    assert main(["identify", str(first), str(second)]) == 0
    assert capsys.readouterr().out == "24  classic fcpro xp\n4294967296  fcpro\n"


@pytest.mark.parametrize(
    ("argv", "stdin", "message"),
    [
        (["identify"], "AS KS QS\n", "stdin: board 1 is not a board"),
        (["identify"], "", "stdin: no board in it"),
        (["identify"], reference.deal(1).format("rows") + "AS AS\n", "stdin: board 2 is not a board"),
        (["identify", "no-such-board.txt"], "", "cannot read no-such-board.txt"),
    ],
)
def test_input_that_is_not_a_board_exits_2_with_one_line(
    argv: list[str], stdin: str, message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(argv, stdin, monkeypatch, capsys)
    assert status == 2 and out == ""
    assert message in err and err.count("\n") == 1
