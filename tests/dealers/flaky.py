"""Test dealers whose boards depend on chance or on what they dealt before.

`py:flaky:sometimes` (and `flaky.py` as a stream program) deals one board in $FLAKY_ODDS wrong at
random; `py:flaky:first_time` deals every deal ending in 7 wrong the first time it is dealt: the
first time in this process, or with $FLAKY_SEEN (a directory) the first time in any process;
`py:flaky:tired` raises at every $FLAKY_TIRED-th deal it deals in one process, whatever the deal;
`py:flaky:on_calls` deals wrong at the calls of a process that $FLAKY_CALLS names ("2,4"; "2-" for
the second and every later one): chance, or state, made repeatable."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

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


def _first_time_dealt(n: int) -> bool:
    seen = os.environ.get("FLAKY_SEEN")
    if seen is None:
        fresh = n not in _seen
        _seen.add(n)
        return fresh
    marker = Path(seen) / str(n)
    fresh = not marker.exists()
    marker.touch()
    return fresh


def first_time(n: int) -> str:
    fresh = _first_time_dealt(n) if n % 10 == 7 else False
    return _swapped(n) if fresh and n % 10 == 7 else reference.deal(n).format("line")


_dealt = 0


def tired(n: int) -> str:
    global _dealt
    _dealt += 1
    if _dealt % int(os.environ.get("FLAKY_TIRED", "20")) == 0:
        raise RuntimeError(f"tired after {_dealt} deals")
    return reference.deal(n).format("line")


_calls = 0


def _named(call: int, calls: str) -> bool:
    return any(call >= int(c[:-1]) if c.endswith("-") else call == int(c) for c in calls.split(","))


def on_calls(n: int) -> str:
    global _calls
    _calls += 1
    return _swapped(n) if _named(_calls, os.environ["FLAKY_CALLS"]) else reference.deal(n).format("line")


if __name__ == "__main__":
    for line in sys.stdin:
        sys.stdout.write(sometimes(int(line)) + "\n")
        sys.stdout.flush()
