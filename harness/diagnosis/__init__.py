"""Why a dealer is wrong: `identify`, the catalogue of known mistakes and `diagnose` (SPEC.md,
"Diagnosis", "identify").  `harness.profile`, which runs whole checks, builds on it.

The catalogue and `diagnose` load when first used (PEP 562): `identify` alone needs neither them nor
a dealer.  (`identify` is imported at once: it is also the name of its module.)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

from harness.diagnosis.identify import Match, identify, identify_json, identify_text, read_boards

if TYPE_CHECKING:
    from harness.diagnosis.catalogue import CATALOGUE, Mistake
    from harness.diagnosis.diagnose import NONDETERMINISTIC, diagnose, diagnosed

_HOMES: Final = {
    "CATALOGUE": "harness.diagnosis.catalogue",
    "Mistake": "harness.diagnosis.catalogue",
    "NONDETERMINISTIC": "harness.diagnosis.diagnose",
    "diagnose": "harness.diagnosis.diagnose",
    "diagnosed": "harness.diagnosis.diagnose",
}

__all__ = [
    "CATALOGUE",
    "NONDETERMINISTIC",
    "Match",
    "Mistake",
    "diagnose",
    "diagnosed",
    "identify",
    "identify_json",
    "identify_text",
    "read_boards",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'harness.diagnosis' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
