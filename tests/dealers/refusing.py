"""A dealer whose suits are bare numbers from deal REFUSED_FROM on (a request only --suits can serve),
slow at deal SLOW_DEAL (so another worker's answers come first) and wrong at deal PLANTED_DEAL."""

from __future__ import annotations

import os
import time

from shapes.microsoft import RANK_LETTERS, SUIT_LETTERS, dealt


def deal(n: int) -> list[dict[str, object]]:
    if n == int(os.environ.get("SLOW_DEAL", "0")):
        time.sleep(0.5)
    bare = n >= int(os.environ.get("REFUSED_FROM", "1"))
    cards: list[dict[str, object]] = [
        {"rank": RANK_LETTERS[r], "suit": s if bare else SUIT_LETTERS[s]} for r, s in dealt(n)
    ]
    if n == int(os.environ.get("PLANTED_DEAL", "0")):
        cards[0], cards[1] = cards[1], cards[0]
    return cards
