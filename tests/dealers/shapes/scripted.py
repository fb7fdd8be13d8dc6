"""A dealer module written as a script: it reads its command line as it is imported, deals with a
class made with the deal number (`Game(seed).deal()`), and has an `async def` dealer."""

from __future__ import annotations

import argparse
import asyncio
import sys

from shapes.microsoft import columns, names, rows

parser = argparse.ArgumentParser(description="FreeCell deals")
parser.add_argument("--game", type=int, default=1)
ARGS = parser.parse_args()  # the runner's own arguments would be "unrecognized": exit 2 at import
FIRST = int(sys.argv[1]) if len(sys.argv) > 1 else 1


class Game:
    """`Game(seed).deal()`: the constructor takes the seed, `deal()` nothing."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def deal(self) -> list[list[str]]:
        return columns(names(self.seed))

    async def deal_later(self) -> list[list[str]]:
        await asyncio.sleep(0)
        return rows(names(self.seed))

    def deal_again(self, seed: int | None = None) -> list[list[str]]:
        """Takes an argument: named on the class, it is called on `Game(…)` made without one, which fails."""
        return columns(names(self.seed if seed is None else seed))


async def deal(seed: int) -> list[str]:
    await asyncio.sleep(0)
    return names(seed)
