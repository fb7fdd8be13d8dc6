"""One pure-Python Microsoft dealer returning each shape real games return (for bench_py.py).

Each function deals with the same core (`dealt`); what differs is the shape it builds.  As a
careful game does, cards that are values (strings, frozen dataclasses, namedtuples, objects that
never change) are made once, as a deck of 52, and dealt by index; what a game owns per deal
(its rows, columns, dicts, game state) is made anew each deal."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "CDHS"
NAMES = [r + s for r in RANKS for s in SUITS]


def dealt(n: int) -> list[int]:
    deck = list(range(52))
    state, out = n, []
    for left in range(52, 0, -1):
        state = (state * 214013 + 2531011) & 0x7FFFFFFF
        k = (state >> 16) % left
        deck[k], deck[left - 1] = deck[left - 1], deck[k]
        out.append(deck.pop())
    return out


def rows(n: int) -> list[list[str]]:
    cards = [NAMES[c] for c in dealt(n)]
    return [cards[i : i + 8] for i in range(0, 52, 8)]


def columns(n: int) -> list[list[str]]:
    cards = [NAMES[c] for c in dealt(n)]
    return [cards[i::8] for i in range(8)]


def cards52(n: int) -> list[str]:
    return [NAMES[c] for c in dealt(n)]


def generator(n: int) -> Iterator[str]:
    for c in dealt(n):
        yield NAMES[c]


def text(n: int) -> str:
    cards = [NAMES[c] for c in dealt(n)]
    return "\n".join(" ".join(cards[i : i + 8]) for i in range(0, 52, 8)) + "\n"


@dataclass(frozen=True)
class Card:
    rank: str
    suit: str


DECK = [Card(RANKS[c >> 2], SUITS[c & 3]) for c in range(52)]


def dataclasses(n: int) -> list[list[Card]]:
    cards = [DECK[c] for c in dealt(n)]
    return [cards[i::8] for i in range(8)]


class Suit(Enum):
    CLUBS = "♣"
    DIAMONDS = "♦"
    HEARTS = "♥"
    SPADES = "♠"


Rank = IntEnum("Rank", "ACE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN JACK QUEEN KING")
EnumCard = namedtuple("EnumCard", "rank suit")
ENUM_DECK = [EnumCard(list(Rank)[c >> 2], list(Suit)[c & 3]) for c in range(52)]


def enums(n: int) -> list[EnumCard]:
    return [ENUM_DECK[c] for c in dealt(n)]


def dicts(n: int) -> list[dict[str, object]]:
    return [{"rank": c >> 2, "suit": ("clubs", "diamonds", "hearts", "spades")[c & 3]} for c in dealt(n)]


class StrCard:
    __slots__ = ("c",)

    def __init__(self, c: int) -> None:
        self.c = c

    def __str__(self) -> str:
        return NAMES[self.c]


STR_DECK = [StrCard(c) for c in range(52)]


def str_cards(n: int) -> list[list[StrCard]]:
    cards = [STR_DECK[c] for c in dealt(n)]
    return [cards[i : i + 8] for i in range(0, 52, 8)]


@dataclass
class GameState:
    cascades: list[list[Card]]
    freecells: list[Card | None] = field(default_factory=lambda: [None] * 4)
    foundations: list[list[Card]] = field(default_factory=lambda: [[], [], [], []])


def game_state(n: int) -> GameState:
    return GameState(dataclasses(n))


# -- the floor: for each shape, the fastest exact reader of its boards one can write in plain Python
# knowing their layout in advance (which cards, which fields, what order), as a line "JD 4C …\n".
# What the harness adds beyond this (bench_py.py, "÷ floor") is what it costs to read any board
# without knowing it; this much is the cost of reading 52 Python objects at all.

NAME_BYTES = [name.encode() for name in NAMES]
_COLUMN_STARTS = [sum(len(range(c, 52, 8)) for c in range(column)) for column in range(8)]
# the flat cards of columns (column by column), taken row by row
_ROW_ORDER = itemgetter(*[_COLUMN_STARTS[k % 8] + k // 8 for k in range(52)])
_DECK_NAMED = {id(card): NAME_BYTES[c] for c, card in enumerate(DECK)}
_ENUM_DECK_NAMED = {id(card): NAME_BYTES[c] for c, card in enumerate(ENUM_DECK)}
_DICT_NAMED = {(c >> 2, ("clubs", "diamonds", "hearts", "spades")[c & 3]): NAME_BYTES[c] for c in range(52)}
_RANK_AND_SUIT = itemgetter("rank", "suit")
_INDEX = attrgetter("c")


def line_of_rows(board: list[list[str]]) -> bytes:
    return (" ".join(map(" ".join, board)) + "\n").encode()


def line_of_columns(board: list[list[str]]) -> bytes:
    return (" ".join(_ROW_ORDER([*chain.from_iterable(board)])) + "\n").encode()


def line_of_cards52(board: list[str]) -> bytes:
    return (" ".join(board) + "\n").encode()


def line_of_generator(board: Iterator[str]) -> bytes:
    return (" ".join(board) + "\n").encode()


def line_of_text(board: str) -> bytes:
    return (board[:-1].replace("\n", " ") + "\n").encode()


def line_of_dataclasses(board: list[list[Card]]) -> bytes:
    return b" ".join(_ROW_ORDER([*map(_DECK_NAMED.__getitem__, map(id, chain.from_iterable(board)))])) + b"\n"


def line_of_enums(board: list[EnumCard]) -> bytes:
    return b" ".join(map(_ENUM_DECK_NAMED.__getitem__, map(id, board))) + b"\n"


def line_of_dicts(board: list[dict[str, object]]) -> bytes:
    return b" ".join(map(_DICT_NAMED.__getitem__, map(_RANK_AND_SUIT, board))) + b"\n"


def line_of_str_cards(board: list[list[StrCard]]) -> bytes:
    return b" ".join(map(NAME_BYTES.__getitem__, map(_INDEX, chain.from_iterable(board)))) + b"\n"


def line_of_game_state(board: GameState) -> bytes:
    return line_of_dataclasses(board.cascades)


LINE_OF: dict[str, Callable[[Any], bytes]] = {
    "rows": line_of_rows,
    "columns": line_of_columns,
    "cards52": line_of_cards52,
    "generator": line_of_generator,
    "text": line_of_text,
    "dataclasses": line_of_dataclasses,
    "enums": line_of_enums,
    "dicts": line_of_dicts,
    "str_cards": line_of_str_cards,
    "game_state": line_of_game_state,
}

SHAPES = ("rows", "columns", "cards52", "generator", "text", "dataclasses", "enums", "dicts", "str_cards", "game_state")
