"""Why a dealer is wrong: `identify`, the catalogue of known mistakes and `diagnose` (SPEC.md,
"Diagnosis", "identify").  `harness.profile`, which runs whole checks, builds on it.

The names of `identification` are imported when first used: they need NumPy, which comparing does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harness.diagnosis.catalogue import CATALOGUE, Mistake
from harness.diagnosis.diagnose import NONDETERMINISTIC, diagnose, diagnosed
from harness.lazy import lazy_names

if TYPE_CHECKING:
    from harness.diagnosis.identification import Match, identify, identify_json, identify_text, read_boards

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

_IDENTIFICATION = ("Match", "identify", "identify_json", "identify_text", "read_boards")
__getattr__, __dir__ = lazy_names(__name__, dict.fromkeys(_IDENTIFICATION, "harness.diagnosis.identification"), __all__)
