"""Hypothesis strategies for other projects' tests: `deal_numbers("classic")`.

Weighted to the boundaries where dealers go wrong (32000, 2³¹−1, fcpro's 2³¹ … 2³³−1 seams),
and their neighbours, with the rest drawn from the whole domain.
"""

from __future__ import annotations

from hypothesis import strategies as st

from reference import get_dialect


def deal_numbers(dialect: str = "classic") -> st.SearchStrategy[int]:
    """Deal numbers of `dialect`: about half at or next to a boundary, half anywhere in the domain."""
    d = get_dialect(dialect)
    edges = sorted({n + delta for n in d.boundaries() for delta in (-1, 0, 1) if n + delta in d})
    anywhere = st.one_of(*(st.integers(lo, hi) for lo, hi in d.intervals()))
    return st.one_of(st.sampled_from(edges), anywhere)


__all__ = ["deal_numbers"]
