"""A dealer that shuffles with NumPy returns NumPy integers: a whole array of card numbers, or ranks and
suits of dicts."""

from __future__ import annotations

from typing import Any

import numpy as np
from shapes.microsoft import dealt


def card_numbers(seed: int) -> np.ndarray[Any, np.dtype[np.int64]]:
    """rank-major card numbers, clubs first (card = rank × 4 + suit): needs --cards and --suits."""
    return np.array([r * 4 + s for r, s in dealt(seed)], dtype=np.int64)


def dicts(seed: int) -> list[dict[str, object]]:
    """Ranks 1 … 13 as NumPy integers, suits as letters."""
    cards = card_numbers(seed)
    return [{"rank": r, "suit": "CDHS"[s]} for r, s in zip(cards // 4 + 1, cards % 4, strict=True)]
