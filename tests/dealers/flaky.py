"""Test dealers whose boards depend on chance or on what they dealt before.

`py:flaky:sometimes` (and `flaky.py` as a stream program) deals one board in $FLAKY_ODDS wrong at
random; `py:flaky:first_time` deals every deal ending in 7 wrong the first time this process deals it."""

from __future__ import annotations

import os
import random
import sys

import reference

_seen: set[int] = set()


def _swapped(n: int) -> str:
    cards = reference.deal(n).format("line").split()
    cards[10], cards[11] = cards[11], cards[10]
    return " ".join(cards)


def sometimes(n: int) -> str:
    if random.random() < 1 / int(os.environ.get("FLAKY_ODDS", "1000")):
        return _swapped(n)
    return reference.deal(n).format("line")


def first_time(n: int) -> str:
    fresh = n not in _seen
    _seen.add(n)
    return _swapped(n) if fresh and n % 10 == 7 else reference.deal(n).format("line")


if __name__ == "__main__":
    for line in sys.stdin:
        sys.stdout.write(sometimes(int(line)) + "\n")
        sys.stdout.flush()
