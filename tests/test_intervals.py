from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.errors import RequestError
from harness.intervals import (
    Block,
    Interval,
    Shard,
    as_interval,
    deal_count,
    in_domain,
    merge_intervals,
    parse_range,
    range_blocks,
    sample_blocks,
    sample_boundaries,
    sample_deals,
    shard_blocks,
)


@pytest.mark.parametrize(
    ("first", "last", "size", "keys"),
    [
        (1, 10, 10, ["1-10"]),
        (1, 25, 10, ["1-10", "11-20", "21-25"]),
        (5, 25, 10, ["5-10", "11-20", "21-25"]),
        (10, 11, 10, ["10-10", "11-11"]),
        (-2, 3, 10, ["-2-0", "1-3"]),  # the grid is the same on both sides of zero
        (7, 7, 10_000, ["7-7"]),
    ],
)
def test_range_blocks_lie_on_the_grid(first: int, last: int, size: int, keys: list[str]) -> None:
    assert [b.key for b in range_blocks(first, last, size)] == keys


@settings(deadline=None)  # a wall-clock deadline made this flaky on a busy machine; it tests no speed
@given(
    first=st.integers(1, 10**6),
    length=st.integers(1, 5000),
    size=st.integers(1, 700),
    count=st.integers(1, 9),
)
def test_shards_are_disjoint_and_cover_the_range(first: int, length: int, size: int, count: int) -> None:
    last = first + length - 1
    seen: list[int] = []
    for k in range(1, count + 1):
        for block in shard_blocks(range_blocks(first, last, size), Shard(k, count)):
            seen.extend(block.deals)
    assert sorted(seen) == list(range(first, last + 1))
    assert len(seen) == len(set(seen))


@pytest.mark.parametrize(
    ("dialect", "must_include"),
    [
        ("classic", {1, 32000, 32001, 1_000_000, 1_000_001, 2**31 - 1}),
        ("fcpro", {1, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**33 - 1, 32000, 1_000_001}),
        ("xp", {-2, 32000, 32001, 1_000_000}),
    ],
)
def test_samples_always_hold_the_boundaries(dialect: str, must_include: set[int]) -> None:
    sample = list(sample_deals(dialect, 50, seed=3))
    assert must_include <= set(sample) == set(sample_boundaries(dialect)) | set(sample)
    assert len(sample) == 50 == len(set(sample)) and sample == sorted(sample)
    assert sample == list(sample_deals(dialect, 50, seed=3))  # deterministic for a seed: shards agree
    assert sample != list(sample_deals(dialect, 50, seed=4))
    assert 1_000_001 not in sample_deals("xp", 50, seed=3) and 0 not in sample_deals("xp", 500, seed=3)


@pytest.mark.parametrize(("dialect", "size"), [("classic", 3), ("xp", 2_000_000)])
def test_impossible_samples_are_refused(dialect: str, size: int) -> None:
    with pytest.raises(RequestError, match="--sample"):
        list(sample_deals(dialect, size, seed=0))


@pytest.mark.parametrize("text", ["0/2", "3/2", "a/b", "1", "1/0", "-1/2"])
def test_bad_shards_are_refused(text: str) -> None:
    with pytest.raises(RequestError, match="--shard"):
        Shard.parse(text)


@pytest.mark.parametrize(
    ("dialect", "first", "last", "size", "keys"),
    [
        ("xp", -2, 100, 10_000, ["-2--1", "1-100"]),  # SPEC: 0 is not an xp deal: skipped, not refused
        ("xp", -1, 1, 10_000, ["-1--1", "1-1"]),
        ("xp", -2, 25, 10, ["-2--1", "1-10", "11-20", "21-25"]),
        ("classic", 1, 25, 10, ["1-10", "11-20", "21-25"]),
        ("fcpro", 2**33 - 3, 2**33 - 1, 10_000, [f"{2**33 - 3}-{2**33 - 1}"]),
    ],
)
def test_blocks_of_a_dialect_hold_only_its_deals(
    dialect: str, first: int, last: int, size: int, keys: list[str]
) -> None:
    blocks = list(range_blocks(first, last, size, dialect=dialect))
    assert [b.key for b in blocks] == keys
    assert all(b.interval is not None and list(b.deals) == list(b.interval.deals) for b in blocks)
    assert sum(len(b) for b in blocks) == deal_count([(first, last)], dialect)


@pytest.mark.parametrize(
    ("text", "dialect", "expected"),
    [("-2-100", "xp", (-2, 100)), ("-2--1", "xp", (-2, -1)), (" 5 .. 9 ", "classic", (5, 9))],
)
def test_ranges_parse_with_both_ends_in_the_domain(text: str, dialect: str, expected: tuple[int, int]) -> None:
    assert parse_range(text, dialect) == expected
    assert in_domain(parse_range(text, dialect), dialect)[0].first == expected[0]


@pytest.mark.parametrize(
    ("text", "dialect", "says"),
    [("0-5", "xp", "outside the xp domain"), ("5-1", "classic", "reversed"), ("1-2-3", "classic", "A-B")],
)
def test_bad_ranges_are_refused_naming_them(text: str, dialect: str, says: str) -> None:
    with pytest.raises(RequestError, match=says):
        parse_range(text, dialect)


@pytest.mark.parametrize(
    ("deals", "expected"),
    [
        (range(5, 9), Interval(5, 8)),
        (range(5, 9, 2), None),
        ((3, 4, 5), Interval(3, 5)),
        ((3, 5, 6), None),
        ((-1, 0, 1), Interval(-1, 1)),
        ((7,), Interval(7, 7)),
        ((), None),
        ([2, 1], None),
    ],
)
def test_as_interval_tells_a_contiguous_block_from_a_list(deals: tuple[int, ...], expected: Interval | None) -> None:
    assert as_interval(deals) == expected


def test_a_block_says_whether_it_is_an_interval() -> None:
    spanning = Block.spanning(Interval(11, 20))
    listing = next(sample_blocks(iter([3, 4, 5]), 10))
    assert (spanning.key, spanning.interval, spanning.first, len(spanning)) == ("11-20", (11, 20), 11, 10)
    assert (listing.key, listing.interval, listing.deals) == ("sample0", None, (3, 4, 5))


@pytest.mark.parametrize(
    ("pieces", "merged"),
    [([(5, 9), (1, 3)], [(1, 3), (5, 9)]), ([(1, 3), (4, 9)], [(1, 9)]), ([(1, 9), (2, 3)], [(1, 9)])],
)
def test_merge_intervals(pieces: list[tuple[int, int]], merged: list[tuple[int, int]]) -> None:
    assert merge_intervals(pieces) == merged


def test_a_sample_of_a_hundred_million_is_drawn_lazily_in_flat_memory() -> None:
    import tracemalloc
    from itertools import islice

    tracemalloc.start()
    try:
        deals = sample_deals("classic", 100_000_000, seed=5)
        head = list(islice(deals, 30_000))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert head == sorted(set(head)) and head[0] == 1 and all(1 <= n <= 2**31 - 1 for n in head)
    assert peak < 64 * 2**20, f"{peak} bytes: the sample is not drawn lazily"  # a list of 1e8 ints is ~4 GB


@pytest.mark.parametrize(("dialect", "size"), [("xp", 1_000_002), ("xp", 999_990), ("classic", 20)])
def test_a_sample_is_distinct_sorted_and_in_the_domain(dialect: str, size: int) -> None:
    sample = list(sample_deals(dialect, size, seed=1))
    assert len(sample) == size and all(a < b for a, b in itertools.pairwise(sample))
    assert all(deal_count([(n, n)], dialect) == 1 for n in sample[:: max(1, size // 1000)])
    assert set(sample_boundaries(dialect)) <= set(sample)
