"""Every IMPL of SPEC.md behind one interface: `open_dealer("node:solution.js", options)`."""

from __future__ import annotations

from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.adapters.registry import (
    DEALERS,
    ImplSpec,
    check_impl,
    dealer_class,
    dealer_version,
    impl_forms,
    open_dealer,
    open_pair,
    parse_impl,
)

__all__ = [
    "DEALERS",
    "Answer",
    "Dealer",
    "DealerOptions",
    "ImplSpec",
    "check_impl",
    "dealer_class",
    "dealer_version",
    "impl_forms",
    "open_dealer",
    "open_pair",
    "parse_impl",
]
