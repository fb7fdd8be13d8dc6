"""Why a dealer is wrong, and what it implements: `identify`, the catalogue of known mistakes,
`diagnose` and `profile` (SPEC.md, "Diagnosis", "identify", "profile")."""

from harness.diagnosis.catalogue import CATALOGUE, Mistake
from harness.diagnosis.diagnose import NONDETERMINISTIC, diagnose, diagnosed
from harness.diagnosis.identify import Match, identify, identify_json, identify_text, read_boards
from harness.diagnosis.profile import Profile, profile

__all__ = [
    "CATALOGUE",
    "NONDETERMINISTIC",
    "Match",
    "Mistake",
    "Profile",
    "diagnose",
    "diagnosed",
    "identify",
    "identify_json",
    "identify_text",
    "profile",
    "read_boards",
]
