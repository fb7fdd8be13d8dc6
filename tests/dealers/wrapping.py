"""A test dealer that takes the deal number modulo 2³¹, as classic-only dealers silently do."""

from __future__ import annotations

import reference


def deal(n: int) -> str:
    return reference.deal(n % 2**31 or 1).line
