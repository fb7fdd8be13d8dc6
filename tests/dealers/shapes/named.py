"""Dealers reached through the names Python code has: static and class methods, nested
attributes, a callable instance, an instance method of a class made without arguments.  The
module prints when imported, and the dealer prints as it deals."""

from __future__ import annotations

import sys
from types import SimpleNamespace

from shapes.microsoft import names

print("named.py: loading the deck")  # a module that prints when imported
sys.stdout.write("no newline at the end")


class Dealer:
    @staticmethod
    def deal(seed: int) -> list[str]:
        print(f"dealing {seed}")  # a dealer's own print
        return names(seed)

    @classmethod
    def shuffle(cls, seed: int) -> list[str]:
        print("AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S")
        return names(seed)

    def __call__(self, seed: int) -> list[str]:
        return names(seed)

    def rows(self, seed: int) -> list[list[str]]:
        cards = names(seed)
        return [cards[i : i + 8] for i in range(0, 52, 8)]

    def greeting(self) -> str:
        return "hello"


class Game:
    Dealer = Dealer


dealer = Dealer()
games = SimpleNamespace(microsoft=SimpleNamespace(freecell=Dealer.deal))


def reads_stdin(seed: int) -> list[str]:
    """A dealer that reads its standard input (a game asking for input) must not eat the harness's requests."""
    sys.stdin.read()
    return names(seed)


class Strict:
    @staticmethod
    def deal(seed: int) -> list[str]:
        if seed == 3:
            raise ValueError("no such game")
        return names(seed)


class Card:
    def __init__(self, rank: str, suit: str) -> None:
        self.rank, self.suit = rank, suit


def misread(seed: int) -> list[Card]:
    cards = [Card(c[0], c[1]) for c in names(seed)]
    if seed == 3:
        cards[5].rank = "Z"
    return cards


def prints(seed: int) -> None:
    """A script's function that prints the board and returns nothing."""
    cards = names(seed)
    for i in range(0, 52, 8):
        print(" ".join(cards[i : i + 8]))
