"""A test dealer for runs on many workers: the reference's boards, each after $PACE_S seconds
(default 0), except at $PLANTED_DEAL (two cards swapped).  Every deal it deals is appended to
$DEALT_LOG, if set (so a test can tell which worker dealt what)."""

from __future__ import annotations

import os
import time

import reference


def deal(n: int) -> str:
    pace = float(os.environ.get("PACE_S", "0"))
    if pace:
        time.sleep(pace)
    log = os.environ.get("DEALT_LOG")
    if log:
        with open(log, "a") as f:
            f.write(f"{n}\n")
    cards = reference.deal(n).format("line").split()
    if str(n) == os.environ.get("PLANTED_DEAL"):
        cards[10], cards[11] = cards[11], cards[10]
    return " ".join(cards)
