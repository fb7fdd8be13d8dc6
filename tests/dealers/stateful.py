"""Dealers that keep state between deals, as real ones do by mistake: a module-level deck that each
call appends to (104 cards at the second call), and a random state seeded only once."""

from __future__ import annotations

RANKS, SUITS = "A23456789TJQK", "CDHS"

deck: list[str] = []


def appending(n: int) -> list[str]:
    """Builds the deck into the module's list, never emptied: the second call deals 104 cards."""
    for rank in RANKS:
        for suit in SUITS:
            deck.append(rank + suit)
    cards = list(deck)
    state, dealt = n, []
    for left in range(len(cards), 0, -1):
        state = (214013 * state + 2531011) % 2**31
        k = (state >> 16) % left
        cards[k], cards[left - 1] = cards[left - 1], cards[k]
        dealt.append(cards.pop())
    return dealt


_state: int | None = None


def seeded_once(n: int) -> list[str]:
    """Seeds the generator at the first call only: every later deal goes on from the last one's state."""
    global _state
    if _state is None:
        _state = n
    cards = [rank + suit for rank in RANKS for suit in SUITS]
    dealt = []
    for left in range(52, 0, -1):
        _state = (214013 * _state + 2531011) % 2**31
        k = (_state >> 16) % left
        cards[k], cards[left - 1] = cards[left - 1], cards[k]
        dealt.append(cards.pop())
    return dealt
