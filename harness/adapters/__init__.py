"""Every IMPL of SPEC.md behind one interface: `open_dealer("node:solution.js", options)`."""

from __future__ import annotations

from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.adapters.registry import (
    IMPL_KINDS,
    ImplSpec,
    check_impl,
    dealer_version,
    open_dealer,
    open_pair,
    parse_impl,
)

__all__ = [
    "IMPL_KINDS",
    "Answer",
    "Dealer",
    "DealerOptions",
    "ImplSpec",
    "check_impl",
    "dealer_version",
    "open_dealer",
    "open_pair",
    "parse_impl",
]
