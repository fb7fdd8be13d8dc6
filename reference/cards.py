"""Cards and boards: card names, board shapes, board text formats and SPEC.md's canonical line.

Card i (0 … 51) is RANKS[i // 4] + SUITS[i % 4]: AC AD AH AS 2C … KS.  A board is the 52 cards in
dealing order; the p-th dealt card lies in row p // 8 and column p % 8, so a board reads as 7 rows
(8 8 8 8 8 8 4), as 8 columns (7 7 7 7 6 6 6 6), each top card first, or as one line.

`canonical_line` is the one renderer of the canonical line; `reference.bulk` renders many at once
from `CARD_TOKENS`, and the tests hold the two byte for byte.  The parsers here are strict: they
read back exactly what the renderers write (lenient reading of other programs' output is
`harness.cards`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Final, Literal, TypeVar, get_args

DECK_SIZE: Final = 52
RANKS: Final = "A23456789TJQK"
SUITS: Final = "CDHS"
CARD_NAMES: Final[tuple[str, ...]] = tuple(r + s for r in RANKS for s in SUITS)
CARD_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(CARD_NAMES)}

COLUMNS: Final = 8
ROWS: Final = 7
ROW_SHAPE: Final = (8, 8, 8, 8, 8, 8, 4)
COLUMN_SHAPE: Final = (7, 7, 7, 7, 6, 6, 6, 6)
LINE_SHAPE: Final = (DECK_SIZE,)
SHAPES: Final[dict[tuple[int, ...], str]] = {ROW_SHAPE: "rows", COLUMN_SHAPE: "columns", LINE_SHAPE: "one line"}
# Dealt card p is card COLUMN_ORDER[p] of a board read column after column.
COLUMN_ORDER: Final = tuple(sum(COLUMN_SHAPE[: p % COLUMNS]) + p // COLUMNS for p in range(DECK_SIZE))

LINE_BYTES: Final = 3 * DECK_SIZE  # 52 two-letter cards, 51 spaces, one LF
_NAME_BYTES: Final = tuple(name.encode("ascii") for name in CARD_NAMES)
_INDEX_OF_BYTES: Final = {name: i for i, name in enumerate(_NAME_BYTES)}
# Each card as the canonical line writes it, with the space that follows it (the last one's is the LF).
CARD_TOKENS: Final[tuple[bytes, ...]] = tuple(name + b" " for name in _NAME_BYTES)

Format = Literal["rows", "columns", "json", "line"]
FORMATS: Final[tuple[str, ...]] = get_args(Format)

T = TypeVar("T")


def as_rows(cards: Sequence[T]) -> tuple[tuple[T, ...], ...]:
    """A board's 7 rows of 8 (the last of 4), in dealing order."""
    return tuple(tuple(cards[i : i + COLUMNS]) for i in range(0, len(cards), COLUMNS))


def as_columns(cards: Sequence[T]) -> tuple[tuple[T, ...], ...]:
    """A board's 8 columns, top card first: four of 7 cards, four of 6."""
    return tuple(tuple(cards[c::COLUMNS]) for c in range(COLUMNS))


def dealing_order(groups: Sequence[Sequence[T]]) -> tuple[T, ...] | None:
    """The items in dealing order, if the groups are rows, columns or one line (by their sizes); else None."""
    shape = tuple(len(g) for g in groups)
    flat = tuple(x for g in groups for x in g)
    if shape in (ROW_SHAPE, LINE_SHAPE):
        return flat
    if shape == COLUMN_SHAPE:
        return tuple(flat[i] for i in COLUMN_ORDER)
    return None


def canonical_line(cards: Iterable[int]) -> bytes:
    """SPEC.md's canonical line of a board: its cards in dealing order, single spaces, one LF (156 bytes)."""
    return b" ".join([_NAME_BYTES[c] for c in cards]) + b"\n"


def parse_canonical_line(line: bytes) -> tuple[int, ...]:
    """The 52 cards of one canonical line, LF included; ValueError saying why it is not one."""
    if len(line) != LINE_BYTES or not line.endswith(b"\n"):
        raise ValueError(f"a canonical line is {LINE_BYTES} bytes ending in LF, not {len(line)} bytes")
    cards = tuple(_INDEX_OF_BYTES.get(name, -1) for name in line[:-1].split(b" "))
    if -1 not in cards and len(set(cards)) == DECK_SIZE:
        return cards
    return _cards_of(line[:-1].decode("ascii", "replace").split(" "))  # raises, saying why


def format_board(cards: Sequence[int], fmt: str = "rows") -> str:
    """A board as text in one of FORMATS, ending with a newline."""
    names = [CARD_NAMES[c] for c in cards]
    if fmt == "rows":
        return "".join(" ".join(row) + "\n" for row in as_rows(names))
    if fmt == "columns":
        return "".join(" ".join(col) + "\n" for col in as_columns(names))
    if fmt == "json":
        return json.dumps([list(row) for row in as_rows(names)], separators=(",", ":")) + "\n"
    if fmt == "line":
        return canonical_line(cards).decode("ascii")
    raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")


def cards_from_text(text: str, fmt: str) -> tuple[int, ...]:
    """Strict inverse of `format_board`: the 52 cards, in dealing order, of text in format `fmt`."""
    if fmt == "json":
        groups = [list(map(str, row)) for row in json.loads(text)]
        fmt = "rows"
    else:
        groups = [line.split(" ") for line in text.splitlines()]
    shape = [len(g) for g in groups]
    if fmt == "line":
        if len(groups) != 1:
            raise ValueError(f"a line holds one deal, not {len(groups)} lines")
    elif fmt == "rows":
        if tuple(shape) != ROW_SHAPE:
            raise ValueError(f"rows must hold 8 8 8 8 8 8 4 cards, not {shape}")
    elif fmt == "columns":
        if tuple(shape) != COLUMN_SHAPE:
            raise ValueError(f"columns must hold 7 7 7 7 6 6 6 6 cards, not {shape}")
    else:
        raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    names = dealing_order(groups) if fmt != "line" else tuple(groups[0])
    assert names is not None  # the shape was checked above
    return _cards_of(names)


def _cards_of(names: Sequence[str]) -> tuple[int, ...]:
    """The cards of exactly 52 distinct card names; ValueError naming what is wrong."""
    unknown = [n for n in names if n not in CARD_INDEX]
    if unknown:
        raise ValueError(f"not cards: {' '.join(unknown[:5])}")
    if len(names) != DECK_SIZE or len(set(names)) != DECK_SIZE:
        repeated = " ".join(sorted({n for n in names if names.count(n) > 1}))
        why = f"{len(names)} cards, {len(set(names))} distinct"
        raise ValueError(why + (f" ({repeated} repeated)" if repeated else ""))
    return tuple(CARD_INDEX[n] for n in names)
