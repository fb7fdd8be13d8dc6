"""Cards as dicts with numeric ranks (0-based, or ace high 2 … 14) and word suits, yielded one by
one; and the ambiguous kinds: suits as bare numbers, cards as bare numbers."""

from __future__ import annotations

from collections.abc import Iterator

from shapes.microsoft import SUIT_WORDS, dealt


def zero_based(seed: int) -> Iterator[dict[str, object]]:
    for r, s in dealt(seed):
        yield {"rank": r, "suit": SUIT_WORDS[s].lower()}


def ace_high(seed: int) -> list[tuple[int, str]]:
    return [(14 if r == 0 else r + 1, "CDHS"[s]) for r, s in dealt(seed)]


def one_based_strings(seed: int) -> list[list[dict[str, str]]]:
    cards = [{"value": str(r + 1), "suit": "♣♦♥♠"[s]} for r, s in dealt(seed)]
    return [cards[i : i + 8] for i in range(0, 52, 8)]


SPADES_FIRST = (3, 2, 1, 0)  # this game numbers its suits spades 0, hearts 1, diamonds 2, clubs 3


def numbered_suits(seed: int) -> list[dict[str, int]]:
    return [{"rank": r + 1, "suit": SPADES_FIRST[s]} for r, s in dealt(seed)]


def card_numbers(seed: int) -> list[int]:
    """suit-major, spades first: card = suit × 13 + rank."""
    return [SPADES_FIRST[s] * 13 + r for r, s in dealt(seed)]


def rank_major_numbers(seed: int) -> list[int]:
    """rank-major, clubs first: card = rank × 4 + suit, as the Microsoft deck numbers them."""
    return [r * 4 + s for r, s in dealt(seed)]
