"""Game objects that keep their board under names of their own, beside the whole deck in its
unshuffled order, and cards whose rank and suit fields have other names (`value`, `kind`)."""

from __future__ import annotations

from dataclasses import dataclass

from shapes.microsoft import RANK_LETTERS, SUIT_LETTERS, dealt


class Card:
    def __init__(self, rank: int, suit: int) -> None:
        self.rank = RANK_LETTERS[rank]
        self.suit = SUIT_LETTERS[suit]


class Game:
    """allCards first (suit by suit), the deal in tableauPiles (8 columns)."""

    def __init__(self, n: int) -> None:
        self.allCards = [Card(r, s) for s in range(4) for r in range(13)]
        self.tableauPiles: list[list[Card]] = [[] for _ in range(8)]
        for p, (r, s) in enumerate(dealt(n)):
            self.tableauPiles[p % 8].append(Card(r, s))
        self.freeCellSlots: list[Card | None] = [None] * 4
        self.moves = 0


class FlatGame:
    """Only 52-card fields: the unshuffled deck (rank by rank), then the dealing order."""

    def __init__(self, n: int) -> None:
        self.sorted_deck = [RANK_LETTERS[r] + SUIT_LETTERS[s] for r in range(13) for s in range(4)]
        self.deal_order = [RANK_LETTERS[r] + SUIT_LETTERS[s] for r, s in dealt(n)]
        self.seed = n


def game_dict(n: int) -> dict[str, object]:
    game = Game(n)
    return {"allCards": game.allCards, "tableauPiles": game.tableauPiles, "freeCellSlots": game.freeCellSlots}


@dataclass
class ValueKind:
    value: int  # 1 … 13
    kind: int  # 0 … 3: clubs, diamonds, hearts, spades


@dataclass
class ValueKindLetters:
    kind: str
    value: int


def value_kind(n: int) -> list[list[ValueKind]]:
    cards = [ValueKind(r + 1, s) for r, s in dealt(n)]
    return [cards[i : i + 8] for i in range(0, 52, 8)]


def value_kind_letters(n: int) -> list[ValueKindLetters]:
    return [ValueKindLetters(SUIT_LETTERS[s], r + 1) for r, s in dealt(n)]


def value_first(n: int) -> list[list[str]]:
    """Card names as some C and Java games print them, value first: ' 1s' (the ace), '11d' (the jack)."""
    names = [f"{r + 1:>2}{SUIT_LETTERS[s].lower()}" for r, s in dealt(n)]
    return [names[i : i + 8] for i in range(0, 52, 8)]
