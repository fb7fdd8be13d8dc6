"""Every IMPL of SPEC.md behind one interface: `open_dealer("node:solution.js", options)`.

The names below are imported when first used, so that importing one adapter module (the `py:`
runner is `harness.adapters.py_runner`) does not import every adapter, the engine and NumPy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness.lazy import lazy_names

if TYPE_CHECKING:
    from harness.adapters.base import Answer, Dealer, DealerOptions
    from harness.adapters.build import dealer_build, dealer_identity
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
    "dealer_build",
    "dealer_class",
    "dealer_identity",
    "dealer_version",
    "impl_forms",
    "open_dealer",
    "open_pair",
    "parse_impl",
]


_BASE = ("Answer", "Dealer", "DealerOptions")
_BUILD = ("dealer_build", "dealer_identity")
_HOMES = {name: "harness.adapters.registry" for name in __all__}
_HOMES.update({name: "harness.adapters.base" for name in _BASE} | {name: "harness.adapters.build" for name in _BUILD})
__getattr__, __dir__ = lazy_names(__name__, _HOMES, __all__)
