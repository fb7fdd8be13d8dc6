"""Microsoft FreeCell deals (classic dialect) as a Python function: `py:freecell:deal` run from
this directory, or `python freecell.py N` to print deal N as 7 rows.  Written from the algorithm
alone; it imports nothing from freecell-harness."""

import sys

RANKS, SUITS = "A23456789TJQK", "CDHS"


def deal(n: int) -> list[list[str]]:
    """Deal n as 7 rows of card names ("JD"), the first six of 8 cards, the last of 4."""
    deck = [RANKS[i // 4] + SUITS[i % 4] for i in range(52)]
    state, dealt = n, []
    for left in range(52, 0, -1):
        state = (214013 * state + 2531011) % 2**31
        k = (state >> 16) % left
        deck[k], deck[left - 1] = deck[left - 1], deck[k]
        dealt.append(deck.pop())
    return [dealt[row : row + 8] for row in range(0, 52, 8)]


if __name__ == "__main__":
    for row in deal(int(sys.argv[1])):
        print(" ".join(row))
