from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.errors import RequestError
from harness.plan import Shard, range_blocks, sample_boundaries, sample_deals, shard_blocks


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
    sample = sample_deals(dialect, 50, seed=3)
    assert must_include <= set(sample) == set(sample_boundaries(dialect)) | set(sample)
    assert len(sample) == 50 == len(set(sample))
    assert sample == sample_deals(dialect, 50, seed=3)  # deterministic for a seed: shards agree
    assert sample != sample_deals(dialect, 50, seed=4)
    assert 1_000_001 not in sample_deals("xp", 50, seed=3) and 0 not in sample_deals("xp", 500, seed=3)


@pytest.mark.parametrize(("dialect", "size"), [("classic", 3), ("xp", 2_000_000)])
def test_impossible_samples_are_refused(dialect: str, size: int) -> None:
    with pytest.raises(RequestError, match="--sample"):
        sample_deals(dialect, size, seed=0)


@pytest.mark.parametrize("text", ["0/2", "3/2", "a/b", "1", "1/0", "-1/2"])
def test_bad_shards_are_refused(text: str) -> None:
    with pytest.raises(RequestError, match="--shard"):
        Shard.parse(text)
