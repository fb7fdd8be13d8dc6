"""Why a dealer is wrong: `identify`, the catalogue of known mistakes and `diagnose` (SPEC.md,
"Diagnosis", "identify").  `harness.profile`, which runs whole checks, builds on it."""

from harness.diagnosis.catalogue import CATALOGUE, Mistake
from harness.diagnosis.diagnose import NONDETERMINISTIC, diagnose, diagnosed
from harness.diagnosis.identify import Match, identify, identify_json, identify_text, read_boards

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
