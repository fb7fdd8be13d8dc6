"""A slow test dealer that goes wrong after its slow part: deals up to $SLOW_UNTIL (default
10000) take $SLOW_S seconds each (default 0.2); deal $SLOW_WRONG (default $SLOW_UNTIL + 1) has
two cards swapped.

`py:slow_dealer:deal`; as a program, `slow_dealer.py N` prints deal N and `slow_dealer.py`
alone reads deal numbers on stdin and prints each board."""

from __future__ import annotations

import os
import sys
import time

import reference


def deal(n: int) -> str:
    until = int(os.environ.get("SLOW_UNTIL", "10000"))
    if n <= until:
        time.sleep(float(os.environ.get("SLOW_S", "0.2")))
    cards = reference.deal(n).format("line").split()
    if n == int(os.environ.get("SLOW_WRONG", until + 1)):
        cards[10], cards[11] = cards[11], cards[10]
    return " ".join(cards)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        print(deal(int(sys.argv[1])))
    else:
        for line in sys.stdin:
            print(deal(int(line)), flush=True)
