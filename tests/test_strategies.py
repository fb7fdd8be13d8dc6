from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.intervals import sample_boundaries
from harness.strategies import deal_numbers
from reference import DIALECTS


@pytest.mark.parametrize("dialect", list(DIALECTS))
def test_deal_numbers_stay_in_the_domain_and_reach_the_boundaries(dialect: str) -> None:
    seen: set[int] = set()

    @settings(max_examples=400, database=None)
    @given(deal_numbers(dialect))
    def collect(n: int) -> None:
        assert n in DIALECTS[dialect]
        seen.add(n)

    collect()
    assert len(seen & set(sample_boundaries(dialect))) >= 3  # weighted to the edges
    assert any(n not in sample_boundaries(dialect) for n in seen)


@given(st.data())
def test_deal_numbers_compose_like_any_strategy(data: st.DataObject) -> None:
    pair = data.draw(st.tuples(deal_numbers("fcpro"), deal_numbers("fcpro")))
    assert all(1 <= n <= 2**33 - 1 for n in pair)
