"""pysol-cards (PyPI) as an independent oracle: a different code base that deals fcpro deals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

import reference

_RENDERER = CardRenderer(True)

FCPRO_BOUNDARIES = [
    1,
    2,
    32000,
    32001,
    1_000_000,
    2**31 - 1,
    2**31,
    2**31 + 1,
    2**32 - 1,
    2**32,
    2**32 + 1,
    2**33 - 2,
    2**33 - 1,
]
FCPRO_SUBRANGES = {"ms": (1, 2**31 - 1), "ms31": (2**31, 2**32 - 1), "ms32": (2**32, 2**33 - 1)}


def pysol_columns(number: int) -> str:
    """pysol-cards' board: 8 columns, top card first, one per line."""
    return str(Game("freecell", number, RandomBase.DEALS_MS).calc_layout_string(_RENDERER))


def pysol_line(number: int) -> bytes:
    columns = [line.split() for line in pysol_columns(number).splitlines() if line.strip()]
    assert [len(c) for c in columns] == [7, 7, 7, 7, 6, 6, 6, 6], f"pysol-cards deal {number}: {columns}"
    return (" ".join(columns[p % 8][p // 8] for p in range(52)) + "\n").encode()


def _first_difference(expected: list[bytes], got: bytes, first: int) -> str:
    lines = got.splitlines(keepends=True)
    for i, (want, have) in enumerate(zip(expected, lines, strict=False)):
        if want != have:
            return f"deal {first + i}: pysol-cards {want!r}, reference {have!r}"
    return f"{len(expected)} lines expected, {len(lines)} produced"


def test_every_classic_deal_1_to_32000() -> None:
    expected = [pysol_line(n) for n in range(1, 32001)]
    got = reference.lines_array(range(1, 32001)).tobytes()
    assert got == b"".join(expected), _first_difference(expected, got, 1)


@pytest.mark.parametrize("number", FCPRO_BOUNDARIES)
def test_fcpro_boundaries(number: int) -> None:
    assert reference.deal(number, "fcpro").format("columns").split() == pysol_columns(number).split()
    assert reference.canonical_lines([number], "fcpro") == pysol_line(number)


@pytest.mark.parametrize("number", [n for n in FCPRO_BOUNDARIES if n < 2**31])
def test_classic_boundaries(number: int) -> None:
    assert reference.deal(number).line.encode() == pysol_line(number)


def test_fcpro_boundaries_through_the_bulk_path_in_one_call() -> None:
    got = reference.lines_array(FCPRO_BOUNDARIES, "fcpro").tobytes()
    assert got == b"".join(pysol_line(n) for n in FCPRO_BOUNDARIES)


@pytest.mark.parametrize("subrange", FCPRO_SUBRANGES, ids=str)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_fcpro_samples_in_each_subrange(subrange: str, data: st.DataObject) -> None:
    number = data.draw(st.integers(*FCPRO_SUBRANGES[subrange]), label="deal")
    assert reference.deal(number, "fcpro").line.encode() == pysol_line(number)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 2**33 - 1), min_size=1, max_size=40))
def test_fcpro_random_lists_through_the_bulk_path(numbers: list[int]) -> None:
    assert reference.lines_array(numbers, "fcpro").tobytes() == b"".join(pysol_line(n) for n in numbers)


@pytest.mark.parametrize("first", [2**31 - 200, 2**32 - 200, 2**33 - 400])
def test_fcpro_runs_across_and_up_to_the_boundaries(first: int) -> None:
    last = min(first + 399, 2**33 - 1)
    got = b"".join(reference.iter_lines(first, last, "fcpro"))
    assert got == b"".join(pysol_line(n) for n in range(first, last + 1))


@pytest.mark.parametrize("number", [0, 2**33])
def test_both_refuse_what_is_outside_fcpro(number: int) -> None:
    with pytest.raises(ValueError):
        pysol_columns(number)
    with pytest.raises(ValueError, match="fcpro"):
        reference.deal(number, "fcpro")
