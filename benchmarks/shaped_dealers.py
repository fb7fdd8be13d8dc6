"""One pure-Python Microsoft dealer returning each shape real games return (for bench_py.py).

Each function deals with the same core (`dealt`); what differs is the shape it builds.  As a
careful game does, cards that are values (strings, frozen dataclasses, namedtuples, objects that
never change) are made once, as a deck of 52, and dealt by index; what a game owns per deal
(its rows, columns, dicts, game state) is made anew each deal."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum, IntEnum

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


SHAPES = ("rows", "columns", "cards52", "generator", "text", "dataclasses", "enums", "dicts", "str_cards", "game_state")
