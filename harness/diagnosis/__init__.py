"""Why a dealer is wrong, and what it implements: `identify`, the catalogue of known mistakes,
`diagnose` and `profile` (SPEC.md, "Diagnosis", "identify", "profile")."""

from harness.diagnosis.catalogue import CATALOGUE, Mistake
from harness.diagnosis.diagnose import NONDETERMINISTIC, diagnose, diagnosed
from harness.diagnosis.identify import Match, boards_in, identify
from harness.diagnosis.profile import Profile, profile

__all__ = [
    "CATALOGUE",
    "NONDETERMINISTIC",
    "Match",
    "Mistake",
    "Profile",
    "boards_in",
    "diagnose",
    "diagnosed",
    "identify",
    "profile",
]
