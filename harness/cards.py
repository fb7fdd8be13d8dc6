"""Reading boards that other programs produce.  (Minimal for now: the lenient reader of SPEC.md
replaces this module.)"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reference.deal import CARD_INDEX, COLUMNS
from reference.dialects import DECK_SIZE

ROW_SHAPE = (8, 8, 8, 8, 8, 8, 4)
COLUMN_SHAPE = (7, 7, 7, 7, 6, 6, 6, 6)
_TOKEN = re.compile(r"(10|[A2-9TJQK])([CDHS])", re.IGNORECASE)


class BoardError(ValueError):
    """Not a board of 52 distinct cards in a known shape: the message says why."""


def _card(token: str) -> int:
    m = _TOKEN.fullmatch(token.strip())
    if not m:
        raise BoardError(f"not a card: {token!r}")
    rank = "T" if m[1] == "10" else m[1].upper()
    return CARD_INDEX[rank + m[2].upper()]


def _dealing_order(groups: Sequence[Sequence[int]]) -> tuple[int, ...]:
    shape = tuple(len(g) for g in groups)
    if shape == ROW_SHAPE or shape == (DECK_SIZE,):
        cards = tuple(c for g in groups for c in g)
    elif shape == COLUMN_SHAPE:
        cards = tuple(groups[p % COLUMNS][p // COLUMNS] for p in range(DECK_SIZE))
    else:
        raise BoardError(f"not rows (8 8 8 8 8 8 4), columns (7 7 7 7 6 6 6 6) or one line of 52: {shape}")
    if len(set(cards)) != DECK_SIZE:
        raise BoardError("cards repeat")
    return cards


def read_board(text: str) -> tuple[int, ...]:
    """The 52 cards, in dealing order, of board text (rows, columns, or one line)."""
    groups = [[_card(t[0]) for t in _TOKEN.finditer(line)] for line in text.splitlines()]
    return _dealing_order([g for g in groups if g])


def board_from_value(value: object) -> tuple[int, ...]:
    """The 52 cards of what a Python function returned: board text, rows, columns, or 52 cards."""
    if isinstance(value, str):
        return read_board(value)
    if isinstance(value, Sequence) and value and all(isinstance(v, str) for v in value):
        return _dealing_order([[_card(v) for v in value]])
    if isinstance(value, Sequence) and all(isinstance(g, Sequence) and not isinstance(g, str) for g in value):
        return _dealing_order([[_card(str(v)) for v in g] for g in value])
    raise BoardError(f"not a board: {type(value).__name__}")
