"""Cards and boards known by their text: a Card whose __str__ names it, a card-name field beside
a misleading blackjack value, and a Board whose str() prints the tableau."""

from __future__ import annotations

from shapes.microsoft import RANK_LETTERS, SUIT_SYMBOLS, SUIT_WORDS, dealt, rows

RANK_WORDS = ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King")


class Card:
    def __init__(self, rank: int, suit: int) -> None:
        self._rank, self._suit = rank, suit

    def __str__(self) -> str:
        return ("10" if self._rank == 9 else RANK_LETTERS[self._rank]) + SUIT_SYMBOLS[self._suit]


class LongCard(Card):
    def __str__(self) -> str:
        return f"{RANK_WORDS[self._rank]} of {SUIT_WORDS[self._suit]}"


class BlackjackCard:
    """`value` is what the card scores (10 for every face card): the `code` says which card it is."""

    def __init__(self, rank: int, suit: int) -> None:
        self.code = RANK_LETTERS[rank] + "CDHS"[suit]
        self.value = min(rank + 1, 10)
        self.suit = SUIT_WORDS[suit]


def symbols(seed: int) -> list[list[Card]]:
    return rows([Card(r, s) for r, s in dealt(seed)])


def words(seed: int) -> tuple[LongCard, ...]:
    return tuple(LongCard(r, s) for r, s in dealt(seed))


def blackjack(seed: int) -> list[BlackjackCard]:
    return [BlackjackCard(r, s) for r, s in dealt(seed)]


class Board:
    """`Board(seed)` deals; its str() prints the tableau as rows."""

    def __init__(self, seed: int) -> None:
        self._grid = rows([RANK_LETTERS[r] + SUIT_SYMBOLS[s] for r, s in dealt(seed)])

    def __str__(self) -> str:
        return "\n".join("  ".join(row) for row in self._grid) + "\n"
