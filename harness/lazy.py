"""Names of a package that load when first used (PEP 562): the one loader behind `harness`,
`harness.adapters` and `harness.process`, whose light imports must not pay for the rest.  It imports
nothing else of ours (`reference`, which may not import the harness, keeps a loader of its own)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping


def lazy_names(
    package: str, homes: Mapping[str, str], public: Iterable[str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The package's `__getattr__` and `__dir__`: each name of `homes` from the module it names, kept
    in the package once loaded; any other name is no attribute (a submodule is then the import
    system's to find)."""
    namespace = sys.modules[package].__dict__
    listed = frozenset(public)

    def __getattr__(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *listed})

    return __getattr__, __dir__
