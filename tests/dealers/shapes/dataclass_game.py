"""A solitaire game written with dataclasses: cards with a word suit and a rank letter, a game
state holding the cascades, free cells and foundations."""

from __future__ import annotations

from dataclasses import dataclass, field

from shapes.microsoft import RANK_LETTERS, SUIT_WORDS, columns, dealt


@dataclass
class Card:
    rank: str
    suit: str
    face_up: bool = True


@dataclass
class GameState:
    cascades: list[list[Card]]
    freecells: list[Card | None] = field(default_factory=lambda: [None] * 4)
    foundations: dict[str, list[Card]] = field(default_factory=lambda: {s: [] for s in SUIT_WORDS})


def new_game(seed: int) -> GameState:
    cards = [Card("10" if r == 9 else RANK_LETTERS[r], SUIT_WORDS[s]) for r, s in dealt(seed)]
    return GameState(columns(cards))


def columns_only(seed: int) -> list[list[Card]]:
    return new_game(seed).cascades


def played(seed: int) -> GameState:
    """A state one move in: a card in a free cell (not a fresh deal)."""
    game = new_game(seed)
    game.freecells[0] = game.cascades[0].pop()
    return game
