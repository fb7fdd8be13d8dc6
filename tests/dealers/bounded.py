"""Test dealers right up to a limit of their own, far from any dialect boundary: `py:bounded:NAME`.

`range_checked` refuses deals above 9,999,999 (a range check); `clamped` deals 12,345,678's board
for every deal above it."""

from __future__ import annotations

import reference


def range_checked(n: int) -> str:
    if n > 9_999_999:
        raise ValueError(f"deal {n} is out of range")
    return reference.deal(n).format("line")


def clamped(n: int) -> str:
    return reference.deal(min(n, 12_345_678)).format("line")
