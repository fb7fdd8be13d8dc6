"""Properties of the reference dealer that hold for every deal, checked on Hypothesis-drawn deals."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference

ALL_CARDS = {r + s for r in "A23456789TJQK" for s in "CDHS"}
DIALECT_NAMES = ("classic", "fcpro", "xp")
# Each dialect's domain, written down from SPEC.md (not read from the code under test).
DOMAINS = {
    "classic": [(1, 2**31 - 1)],
    "fcpro": [(1, 2**31 - 1), (2**31, 2**32 - 1), (2**32, 2**33 - 1)],
    "xp": [(-2, -1), (1, 1_000_000)],
}
# The first random numbers of the Microsoft C library's rand() after srand(1): a published fact.
MSVC_RAND_AFTER_SRAND_1 = [41, 18467, 6334, 26500, 19169, 15724, 11478, 29358, 26962, 24464]


@st.composite
def deal_numbers(draw: st.DrawFn, dialect: str) -> int:
    first, last = draw(st.sampled_from(DOMAINS[dialect]))
    edge = st.sampled_from(sorted({n for n in (first, first + 1, last - 1, last) if first <= n <= last}))
    number: int = draw(st.one_of(edge, st.integers(first, last)))
    return number


@st.composite
def dialect_and_number(draw: st.DrawFn) -> tuple[str, int]:
    dialect = draw(st.sampled_from(DIALECT_NAMES))
    return dialect, draw(deal_numbers(dialect))


@st.composite
def dialect_and_range(draw: st.DrawFn, max_len: int = 300) -> tuple[str, int, int]:
    dialect = draw(st.sampled_from(DIALECT_NAMES))
    first, last = draw(st.sampled_from(DOMAINS[dialect]))
    if dialect == "fcpro" and draw(st.booleans()):
        first, last = 1, 2**33 - 1  # fcpro's sub-ranges join: runs may cross them
    a = draw(st.one_of(st.integers(first, last), st.sampled_from([first, 2**31 - 3, 2**32 - 3, last])))
    a = min(max(a, first), last)
    b = min(a + draw(st.integers(0, max_len - 1)), last)
    return dialect, a, b


def one_deal_lines(numbers: list[int] | range, dialect: str) -> bytes:
    return b"".join(reference.deal(n, dialect).line.encode() for n in numbers)


@settings(max_examples=300, deadline=None)
@given(dialect_and_number())
def test_every_deal_is_a_permutation_of_the_52_cards(case: tuple[str, int]) -> None:
    dialect, number = case
    names = reference.deal(number, dialect).line.split()
    assert len(names) == 52
    assert set(names) == ALL_CARDS
    assert sorted(reference.cards_array([number], dialect)[0].tolist()) == list(range(52))


@settings(max_examples=200, deadline=None)
@given(dialect_and_number())
def test_rows_columns_and_line_agree(case: tuple[str, int]) -> None:
    dialect, number = case
    d = reference.deal(number, dialect)
    line = d.line
    assert line.endswith("\n") and "\n" not in line[:-1] and "  " not in line
    assert len(line.encode()) == 156
    dealt = line.split()
    assert [len(r) for r in d.rows] == [8, 8, 8, 8, 8, 8, 4]
    assert [len(c) for c in d.columns] == [7, 7, 7, 7, 6, 6, 6, 6]
    for p, card in enumerate(dealt):
        assert d.rows[p // 8][p % 8] == card
        assert d.columns[p % 8][p // 8] == card
    assert d.format("rows").splitlines() == [" ".join(r) for r in d.rows]
    assert d.format("columns").splitlines() == [" ".join(c) for c in d.columns]
    assert json.loads(d.format("json")) == [list(r) for r in d.rows]


@settings(max_examples=200, deadline=None)
@given(dialect_and_number(), st.sampled_from(reference.FORMATS))
def test_each_format_reads_back_to_the_same_deal(case: tuple[str, int], fmt: str) -> None:
    dialect, number = case
    d = reference.deal(number, dialect)
    text = d.format(fmt)
    assert text.endswith("\n")
    assert reference.cards_from_text(text, fmt) == d.cards
    assert reference.Deal(number, dialect, reference.cards_from_text(text, fmt)) == d


@settings(max_examples=80, deadline=None)
@given(dialect_and_range(), st.one_of(st.integers(1, 70), st.sampled_from([1, 7, 64, 65536])), st.booleans())
def test_bulk_range_equals_one_deal_path(case: tuple[str, int, int], batch: int, ahead: bool) -> None:
    dialect, a, b = case
    chunks = list(reference.iter_lines(a, b, dialect, batch=batch, ahead=ahead))
    expected_sizes = [156 * min(batch, b + 1 - lo) for lo in range(a, b + 1, batch)]
    assert [len(c) for c in chunks] == expected_sizes
    assert b"".join(chunks) == one_deal_lines(range(a, b + 1), dialect)
    assert list(reference.deal_range(a, b, dialect)) == [reference.deal(n, dialect) for n in range(a, b + 1)]
    # a range is read as a whole (not number by number), whatever its step
    assert reference.canonical_lines(range(a, b + 1), dialect) == one_deal_lines(range(a, b + 1), dialect)
    backwards = range(b, a - 1, -batch)
    assert reference.lines_array(backwards, dialect).tobytes() == one_deal_lines(backwards, dialect)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_bulk_lists_equal_one_deal_path(data: st.DataObject) -> None:
    """Any order, repeats, and (fcpro) several rules or (xp) fixed layouts in one call."""
    dialect = data.draw(st.sampled_from(DIALECT_NAMES), label="dialect")
    numbers = data.draw(st.lists(deal_numbers(dialect), min_size=0, max_size=60), label="numbers")
    lines = reference.lines_array(numbers, dialect)
    assert lines.shape == (len(numbers), 156)
    assert lines.tobytes() == one_deal_lines(numbers, dialect)
    assert reference.canonical_lines(numbers, dialect) == one_deal_lines(numbers, dialect)


@pytest.mark.parametrize(
    ("dialect", "numbers"),
    [
        ("fcpro", [2**33 - 1, 1, 2**31, 2**32, 2**31 - 1, 2**32 - 1, 1, 2**33 - 1]),
        ("xp", [-1, 1, -2, 1_000_000, -1, 617, -2]),
        ("xp", [-2, -1]),
        ("classic", [617] * 3),
    ],
)
def test_bulk_mixed_lists_equal_one_deal_path(dialect: str, numbers: list[int]) -> None:
    assert reference.lines_array(numbers, dialect).tobytes() == one_deal_lines(numbers, dialect)


@pytest.mark.parametrize("batch", [1, 3, 52, 999, 65536])
def test_bulk_range_across_every_fcpro_rule(batch: int) -> None:
    for a in (2**31 - 5, 2**32 - 5):
        b = a + 9
        assert b"".join(reference.iter_lines(a, b, "fcpro", batch=batch)) == one_deal_lines(range(a, b + 1), "fcpro")


@settings(max_examples=60, deadline=None)
@given(dialect_and_range(max_len=200))
def test_block_digest_is_sha256_of_the_one_deal_lines(case: tuple[str, int, int]) -> None:
    dialect, a, b = case
    expected = hashlib.sha256(one_deal_lines(range(a, b + 1), dialect)).hexdigest()
    assert reference.block_digest(range(a, b + 1), dialect) == expected
    assert reference.block_digest(list(range(a, b + 1)), dialect) == expected


def test_block_digest_of_nothing_is_sha256_of_nothing() -> None:
    assert reference.block_digest(range(5, 5)) == hashlib.sha256(b"").hexdigest()
    assert reference.block_digest([]) == hashlib.sha256(b"").hexdigest()


def test_random_numbers_of_deal_1_are_msvc_rand_after_srand_1() -> None:
    assert reference.random_numbers(1)[:10] == MSVC_RAND_AFTER_SRAND_1
    assert reference.random_numbers(1, "fcpro")[:10] == MSVC_RAND_AFTER_SRAND_1


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 2**31 - 1))
def test_random_numbers_classic(number: int) -> None:
    r = reference.random_numbers(number)
    assert len(r) == 52
    assert all(0 <= x <= 32767 for x in r)
    assert reference.random_numbers(number, "fcpro") == r
    if number <= 1_000_000:
        assert reference.random_numbers(number, "xp") == r


@settings(max_examples=200, deadline=None)
@given(st.integers(2**31 + 1, 2**32 - 1))
def test_random_numbers_fcpro_second_rule(number: int) -> None:
    r = reference.random_numbers(number, "fcpro")
    assert all(0x8000 <= x <= 0xFFFF for x in r)
    # The LCG's low 31 bits ignore bit 31 of the seed: below the forced top bit, classic's numbers.
    assert [x & 0x7FFF for x in r] == reference.random_numbers(number - 2**31)


@settings(max_examples=200, deadline=None)
@given(st.integers(2**32 + 1, 2**33 - 1))
def test_random_numbers_fcpro_third_rule(number: int) -> None:
    r = reference.random_numbers(number, "fcpro")
    assert all(1 <= x <= 65536 for x in r)
    m = number - 2**32
    classic = reference.random_numbers(m) if m < 2**31 else reference.random_numbers(m, "fcpro")
    assert [(x - 1) & 0x7FFF for x in r] == [x & 0x7FFF for x in classic]


def test_random_numbers_reach_both_ends_of_each_rule() -> None:
    seen: dict[str, set[int]] = {"ms": set(), "ms31": set(), "ms32": set()}
    for k in range(1, 3000):
        seen["ms"].update(reference.random_numbers(k, "fcpro"))
        seen["ms31"].update(reference.random_numbers(2**31 + k, "fcpro"))
        seen["ms32"].update(reference.random_numbers(2**32 + k, "fcpro"))
    assert (min(seen["ms"]), max(seen["ms"])) == (0, 32767)
    assert (min(seen["ms31"]), max(seen["ms31"])) == (0x8000, 0xFFFF)
    assert (min(seen["ms32"]), max(seen["ms32"])) == (1, 65536)


@pytest.mark.parametrize("number", [-1, -2])
def test_xp_fixed_layouts_have_no_random_numbers(number: int) -> None:
    with pytest.raises(ValueError, match="fixed layout"):
        reference.random_numbers(number, "xp")


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 1_000_000))
def test_xp_shuffles_are_classic(number: int) -> None:
    assert reference.deal(number, "xp").cards == reference.deal(number).cards
