"""reference.cards: the one home of card names, board shapes and the canonical line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import reference
from reference.cards import (
    CARD_NAMES,
    COLUMN_SHAPE,
    DECK_SIZE,
    LINE_SHAPE,
    ROW_SHAPE,
    as_columns,
    as_rows,
    canonical_line,
    dealing_order,
    parse_canonical_line,
)

boards = st.permutations(range(DECK_SIZE)).map(tuple)


def test_card_i_is_rank_i_div_4_and_suit_i_mod_4() -> None:
    assert CARD_NAMES[:5] == ("AC", "AD", "AH", "AS", "2C") and CARD_NAMES[-1] == "KS"
    assert [CARD_NAMES[i] for i in (36, 40, 44, 48)] == ["TC", "JC", "QC", "KC"]


@given(boards)
def test_canonical_line_is_spec_s_line_and_parses_back(cards: tuple[int, ...]) -> None:
    line = canonical_line(cards)
    assert line == (" ".join(CARD_NAMES[c] for c in cards) + "\n").encode()
    assert len(line) == reference.LINE_BYTES and parse_canonical_line(line) == cards


def test_the_vectorised_renderer_is_the_canonical_line_byte_for_byte() -> None:
    numbers = list(range(1, 2001))
    cards = reference.cards_array(numbers)
    rendered = reference.render_lines(cards)
    assert [bytes(row) for row in rendered] == [canonical_line(row) for row in cards.tolist()]


@given(boards)
def test_rows_columns_and_one_line_give_back_the_dealing_order(cards: tuple[int, ...]) -> None:
    rows, columns = as_rows(cards), as_columns(cards)
    assert tuple(map(len, rows)) == ROW_SHAPE and tuple(map(len, columns)) == COLUMN_SHAPE
    assert all(columns[p % 8][p // 8] == rows[p // 8][p % 8] == cards[p] for p in range(DECK_SIZE))
    assert dealing_order(rows) == dealing_order(columns) == dealing_order([cards]) == cards


@pytest.mark.parametrize(
    "shape",
    [(13, 13, 13, 13), (8, 8, 8, 8, 8, 8, 3, 1), (6, 6, 6, 6, 7, 7, 7, 7), (26, 26), (51,)],
    ids=str,
)
def test_other_shapes_are_no_dealing_order(shape: tuple[int, ...]) -> None:
    assert shape not in (ROW_SHAPE, COLUMN_SHAPE, LINE_SHAPE)
    cards, groups, at = list(range(sum(shape))), [], 0
    for size in shape:
        groups.append(cards[at : at + size])
        at += size
    assert dealing_order(groups) is None


LINE = reference.deal(617).line.encode()
NOT_LINES = {
    "no LF": (LINE[:-1], "156 bytes ending in LF"),
    "CRLF": (LINE[:-1] + b"\r\n", "156 bytes ending in LF"),
    "a card twice": (LINE.replace(LINE[:2], LINE[3:5], 1), "repeated"),
    "lower case": (LINE.lower(), "not cards"),
    "ten as 10": (LINE.replace(b"T", b"1", 1), "not cards"),
    "two spaces": (LINE.replace(b" ", b"  ", 1)[:-2] + b"\n", "not cards"),
    "a tab": (LINE.replace(b" ", b"\t", 1), "not cards"),
    "bytes that are not text": (LINE.replace(LINE[:2], b"\xff\xfe", 1), "not cards"),
}


@pytest.mark.parametrize(("line", "says"), NOT_LINES.values(), ids=NOT_LINES.keys())
def test_parse_canonical_line_refuses_what_is_not_one(line: bytes, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        parse_canonical_line(line)
