"""A test dealer: the reference's boards, except at the deal named by $PLANTED_DEAL (two cards
swapped) and $PLANTED_ERROR (raises).  Every deal it deals is appended to $DEALT_LOG, if set."""

from __future__ import annotations

import os

import reference

_CHUNK = 4096
_cache: dict[int, list[str]] = {}


def _line(n: int) -> str:
    base = (n - 1) // _CHUNK * _CHUNK + 1
    if base not in _cache:
        last = min(base + _CHUNK - 1, 2**31 - 1)
        _cache[base] = reference.canonical_lines(range(base, last + 1)).decode().splitlines()
    return _cache[base][n - base]


def deal(n: int) -> str:
    log = os.environ.get("DEALT_LOG")
    if log:
        with open(log, "a") as f:
            f.write(f"{n}\n")
    if str(n) == os.environ.get("PLANTED_ERROR"):
        raise RuntimeError(f"planted error at {n}")
    cards = _line(n).split()
    if str(n) == os.environ.get("PLANTED_DEAL"):
        cards[10], cards[11] = cards[11], cards[10]
    return " ".join(cards)


def rows(n: int) -> list[list[str]]:
    cards = deal(n).split()
    return [cards[i : i + 8] for i in range(0, 52, 8)]


def xp(n: int) -> str:
    """An xp dealer (deals −2, −1, 1 … 1000000), with the same planted divergence."""
    cards = reference.deal(n, "xp").line.split()
    if str(n) == os.environ.get("PLANTED_DEAL"):
        cards[10], cards[11] = cards[11], cards[10]
    return " ".join(cards)
