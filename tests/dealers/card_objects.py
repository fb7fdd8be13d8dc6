"""Boards of card objects, in the shapes real games return them: right boards, but for deal $ODD_AT
(default 40), where one card is dealt twice (the 4th card again as the 6th): `py:card_objects:FUNCTION`."""

from __future__ import annotations

import enum
import os
from collections import namedtuple
from collections.abc import Iterator
from dataclasses import dataclass, field

import reference

RANKS = "A23456789TJQK"
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")


def _dealt(n: int) -> list[int]:
    """The deal's cards (rank × 4 + suit), the 4th dealt twice at deal $ODD_AT."""
    cards = list(reference.deal(n).cards)
    if n == int(os.environ.get("ODD_AT", "40")):
        cards[5] = cards[3]
    return cards


def _columns(cards: list[object]) -> list[list[object]]:
    return [cards[i::8] for i in range(8)]


def _rows(cards: list[object]) -> list[list[object]]:
    return [cards[i : i + 8] for i in range(0, 52, 8)]


@dataclass(frozen=True)
class Frozen:
    rank: str
    suit: str


FROZEN_DECK = [Frozen(RANKS[c >> 2], "CDHS"[c & 3]) for c in range(52)]


def frozen_columns(n: int) -> list[list[object]]:
    """A deck made once, dealt by index: the same card object twice."""
    return _columns([FROZEN_DECK[c] for c in _dealt(n)])


def frozen_columns_remade(n: int) -> list[list[object]]:
    """A card made anew each deal: an equal card, another object."""
    return _columns([Frozen(RANKS[c >> 2], "CDHS"[c & 3]) for c in _dealt(n)])


def frozen_generator(n: int) -> Iterator[Frozen]:
    for c in _dealt(n):
        yield FROZEN_DECK[c]


class Suit(enum.Enum):
    CLUBS = "♣"
    DIAMONDS = "♦"
    HEARTS = "♥"
    SPADES = "♠"


Rank = enum.IntEnum("Rank", "ACE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN JACK QUEEN KING")
EnumCard = namedtuple("EnumCard", "rank suit")
ENUM_DECK = [EnumCard(list(Rank)[c >> 2], list(Suit)[c & 3]) for c in range(52)]


def enum_cards(n: int) -> list[EnumCard]:
    return [ENUM_DECK[c] for c in _dealt(n)]


def one_based_dicts(n: int) -> list[dict[str, object]]:
    """Numbers decided from the deck itself (1 … 13), suits as words."""
    return [{"rank": (c >> 2) + 1, "suit": SUIT_WORDS[c & 3]} for c in _dealt(n)]


@dataclass
class Letters:
    rank: str
    suit: str
    face_up: bool = True


def letter_rows(n: int) -> list[list[object]]:
    return _rows([Letters(RANKS[c >> 2], "CDHS"[c & 3]) for c in _dealt(n)])


class Printed:
    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def __str__(self) -> str:
        return RANKS[self.index >> 2] + "♣♦♥♠"[self.index & 3]


def printed_rows(n: int) -> list[list[object]]:
    return _rows([Printed(c) for c in _dealt(n)])


@dataclass
class GameState:
    cascades: list[list[object]]
    freecells: list[object] = field(default_factory=lambda: [None] * 4)
    foundations: list[list[object]] = field(default_factory=lambda: [[], [], [], []])


def game_state(n: int) -> GameState:
    return GameState(frozen_columns(n))
