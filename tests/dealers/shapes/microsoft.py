"""The Microsoft deal, as Python games write it: a list of (rank, suit) in dealing order, rank
0 (ace) … 12 (king), suit 0 … 3 in the order clubs, diamonds, hearts, spades."""

from typing import TypeVar


def dealt(n: int) -> list[tuple[int, int]]:
    deck = [(rank, suit) for rank in range(13) for suit in range(4)]
    state = n
    out: list[tuple[int, int]] = []
    for left in range(52, 0, -1):
        state = (state * 214013 + 2531011) & 0x7FFFFFFF
        k = (state >> 16) % left
        deck[k], deck[left - 1] = deck[left - 1], deck[k]
        out.append(deck.pop())
    return out


RANK_LETTERS = "A23456789TJQK"
SUIT_LETTERS = "CDHS"
SUIT_WORDS = ("Clubs", "Diamonds", "Hearts", "Spades")
SUIT_SYMBOLS = "♣♦♥♠"


def names(n: int) -> list[str]:
    return [RANK_LETTERS[r] + SUIT_LETTERS[s] for r, s in dealt(n)]


T = TypeVar("T")


def rows(cards: list[T]) -> list[list[T]]:
    return [cards[i : i + 8] for i in range(0, 52, 8)]


def columns(cards: list[T]) -> list[list[T]]:
    return [cards[c::8] for c in range(8)]
