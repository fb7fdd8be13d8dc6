"""Cards as a namedtuple of enums (IntEnum ranks 1 … 13, suit symbols), dealt into a tableau of
column objects; freecells and foundations empty."""

from __future__ import annotations

from collections import namedtuple
from enum import Enum, IntEnum

from shapes.microsoft import dealt


class Suit(Enum):
    CLUBS = "♣"
    DIAMONDS = "♦"
    HEARTS = "♥"
    SPADES = "♠"


class Rank(IntEnum):
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13


Card = namedtuple("Card", ["rank", "suit"])


class Column:
    def __init__(self) -> None:
        self.cards: list[Card] = []


class Tableau:
    def __init__(self, seed: int) -> None:
        self.columns = [Column() for _ in range(8)]
        self.freecells: list[Card] = []
        self.foundations: list[list[Card]] = [[], [], [], []]
        for i, (r, s) in enumerate(dealt(seed)):
            self.columns[i % 8].cards.append(Card(Rank(r + 1), list(Suit)[s]))


def deal(seed: int) -> Tableau:
    return Tableau(seed)


def flat(seed: int) -> list[Card]:
    return [Card(Rank(r + 1), list(Suit)[s]) for r, s in dealt(seed)]


# An IntEnum of the 52 cards, each member named for its card (Card.JD = 41, rank-major): the name says
# which card it is; the number alone would need --cards.
NamedCard = IntEnum(
    "NamedCard",
    "AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H 5S 6C 6D 6H 6S 7C 7D"
    " 7H 7S 8C 8D 8H 8S 9C 9D 9H 9S TC TD TH TS JC JD JH JS QC QD QH QS KC KD KH KS",
    start=0,
)


def named_members(seed: int) -> list[NamedCard]:
    return [NamedCard(r * 4 + s) for r, s in dealt(seed)]
