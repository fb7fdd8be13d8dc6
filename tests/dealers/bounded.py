"""Test dealers right up to a limit of their own, far from any dialect boundary: `py:bounded:NAME`.

`range_checked` refuses deals above 9,999,999 (a range check); `clamped` deals 12,345,678's board
for every deal above it; `fallback` deals 11982's board above 2³¹−1; `wrong_at_77777` is wrong at that
deal only; `fcpro_but_classic_below_2_32` deals 2³¹ … 2³²−1 by the classic rule."""

from __future__ import annotations

import reference


def range_checked(n: int) -> str:
    if n > 9_999_999:
        raise ValueError(f"deal {n} is out of range")
    return reference.deal(n).format("line")


def clamped(n: int) -> str:
    return reference.deal(min(n, 12_345_678)).format("line")


def fallback(n: int) -> str:
    """Rosetta Code's C dealer: a number its parsing cannot hold (above 2³¹−1) leaves the default deal, 11982."""
    return reference.deal(n if n <= 2**31 - 1 else 11982).format("line")


def wrong_at_77777(n: int) -> str:
    """Right everywhere but at one deal no window or sample reaches."""
    cards = reference.deal(n, "fcpro").format("line").split()
    if n == 77777:
        cards[0], cards[1] = cards[1], cards[0]
    return " ".join(cards)


def fcpro_but_classic_below_2_32(n: int) -> str:
    """FreeCell Pro's deals, but 2³¹ … 2³²−1 dealt by the classic rule (its 2³² … 2³³−1 rule right)."""
    if not 2**31 <= n < 2**32:
        return reference.deal(n, "fcpro").format("line")
    deck, dealt, state = [r + s for r in "A23456789TJQK" for s in "CDHS"], [], n
    for left in range(52, 0, -1):
        state = (214013 * state + 2531011) & 0x7FFFFFFF
        k = (state >> 16) % left
        dealt.append(deck[k])
        deck[k] = deck[left - 1]
        deck.pop()
    return " ".join(dealt)
