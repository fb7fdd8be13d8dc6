"""Why a dealer is wrong, and what it implements: `identify`, the catalogue of known mistakes,
`diagnose` and `profile` (SPEC.md, "Diagnosis", "identify", "profile")."""

from harness.diagnosis.catalogue import CATALOGUE, Mistake
from harness.diagnosis.diagnose import NONDETERMINISTIC, diagnose, diagnosed
from harness.diagnosis.identify import Match, identify

__all__ = ["CATALOGUE", "NONDETERMINISTIC", "Match", "Mistake", "diagnose", "diagnosed", "identify"]
