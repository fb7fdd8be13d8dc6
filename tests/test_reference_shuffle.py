"""The reference's shuffle in C (`reference._shuffle`, built at install where a C compiler is: in CI it must
be, elsewhere its cases skip loudly without it) deals exactly what the NumPy loop of `reference/bulk.py` and
the one-deal path deal: every rule's ends and seams, drawn deals, both kinds of deck (card indices and the
canonical lines' letters), lists in any order; and it refuses buffers of another shape instead of dealing."""

from __future__ import annotations

import importlib.util
import random

import numpy as np
import pytest
from conftest import IN_CI

import reference
from reference import bulk


@pytest.fixture(autouse=True)
def compiled() -> None:
    if importlib.util.find_spec("reference._shuffle") is None or vars(bulk)["_shuffle"] is None:
        message = "reference._shuffle is not built (install the package where a C compiler is)"
        if IN_CI:
            pytest.fail(f"required in CI: {message}")
        pytest.skip(f"COMPILED SHUFFLE MISSING, test not run: {message}")


def numpy_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bulk, "_shuffle", None)


def _numbers(dialect: str) -> list[int]:
    """Each rule's ends and their neighbours, its seams, and deals drawn with a fixed seed."""
    draw = random.Random(f"shuffle-{dialect}")
    numbers: list[int] = []
    for rule in reference.get_dialect(dialect).rules:
        numbers += [rule.first, rule.first + 1, rule.last - 1, rule.last]
        numbers += [draw.randint(rule.first, rule.last) for _ in range(500)]
    for lo, hi in reference.get_dialect(dialect).intervals():
        numbers += [lo, hi]
    return numbers


@pytest.mark.parametrize("dialect", ["classic", "fcpro", "xp"])
def test_the_c_shuffle_deals_what_the_numpy_loop_and_the_one_deal_path_deal(
    dialect: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    numbers = _numbers(dialect)
    fast_lines, fast_cards = bulk.lines_array(numbers, dialect), bulk.cards_array(numbers, dialect)
    numpy_loop(monkeypatch)
    assert fast_lines.tobytes() == bulk.lines_array(numbers, dialect).tobytes()
    assert (fast_cards == bulk.cards_array(numbers, dialect)).all()
    assert fast_lines.tobytes() == b"".join(reference.deal(n, dialect).line.encode() for n in numbers)


@pytest.mark.parametrize(
    ("dialect", "first", "last"),
    [("classic", 1, 20_000), ("classic", 2**31 - 20_000, 2**31 - 1), ("fcpro", 2**31 - 3000, 2**31 + 3000),
     ("fcpro", 2**32 - 3000, 2**32 + 3000), ("fcpro", 2**33 - 5000, 2**33 - 1), ("xp", -2, 1000)],
)  # fmt: skip
def test_ranges_across_seams_are_dealt_alike(
    dialect: str, first: int, last: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    deals = [n for n in range(first, last + 1) if n != 0 or dialect != "xp"]
    fast = bulk.lines_array(deals, dialect).tobytes()
    numpy_loop(monkeypatch)
    assert fast == bulk.lines_array(deals, dialect).tobytes()


@pytest.mark.parametrize(
    "arguments",
    [
        (np.zeros(3, np.uint64), 0x7FFF, 0, 0, np.arange(52, dtype=np.uint8), np.zeros((3, 52), np.uint8)),
        (np.zeros(3, np.uint32), 0x7FFF, 0, 0, np.arange(51, dtype=np.uint8), np.zeros((3, 52), np.uint8)),
        (np.zeros(3, np.uint32), 0x7FFF, 0, 0, np.arange(52, dtype=np.uint8), np.zeros((3, 51), np.uint8)),
        (np.zeros(3, np.uint32), 0x7FFF, 0, 0, np.arange(52, dtype=np.uint8), np.zeros((2, 52), np.uint8)),
        (np.zeros(3, np.uint32), 0x7FFF, 0, 0, np.arange(52, dtype=np.uint8), np.zeros((3, 52), np.uint16)),
        (np.zeros(3, np.uint32), 0x7FFF, 0, 0, np.arange(52, dtype=np.uint32), np.zeros((3, 52), np.uint32)),
        (np.zeros(3, np.uint32), 0x1FFFF, 0, 0, np.arange(52, dtype=np.uint8), np.zeros((3, 52), np.uint8)),
    ],
    ids=["seeds-64-bit", "short-deck", "short-rows", "fewer-rows", "other-size", "4-byte-cards", "r-too-big"],
)
def test_buffers_of_another_shape_are_refused(arguments: tuple[object, int, int, int, object, object]) -> None:
    from reference import _shuffle

    with pytest.raises(ValueError, match="shuffle_into"):
        _shuffle.shuffle_into(*arguments)
