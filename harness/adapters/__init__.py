"""Every IMPL of SPEC.md behind one interface: `open_dealer("node:solution.js", options)`.

The names below are imported when first used, so that importing one adapter module (the `py:`
runner is `harness.adapters.py_runner`) does not import every adapter, the engine and NumPy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
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

_BASE: Final = ("Answer", "Dealer", "DealerOptions")

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


def __getattr__(name: str) -> object:
    if name not in __all__:  # a submodule (`from harness.adapters import registry`) is the import system's
        raise AttributeError(f"module 'harness.adapters' has no attribute {name!r}")
    home = "harness.adapters.base" if name in _BASE else "harness.adapters.registry"
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
