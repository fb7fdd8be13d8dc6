"""freeCodeCamp challenge documents: their layouts (`layouts`: solutions, hints, hooks), the
JavaScript names their hints rely on (`names`), the language of their prose (`language`), and the
`challenge` command's judgement of them (`command`, which opens Node: imported on its own).

Nothing here prints or picks an exit status: `harness.cli` does.
"""

from harness.challenge.language import detect_language
from harness.challenge.layouts import (
    DEFAULT_SEED_NAMES,
    FORMATS,
    HOOKS,
    MAX_DOCUMENT_BYTES,
    ChallengeDocument,
    Code,
    Hint,
    parse_challenge,
    read_challenge,
)
from harness.challenge.names import declared_names, undefined_names

__all__ = [
    "DEFAULT_SEED_NAMES",
    "FORMATS",
    "HOOKS",
    "MAX_DOCUMENT_BYTES",
    "ChallengeDocument",
    "Code",
    "Hint",
    "declared_names",
    "detect_language",
    "parse_challenge",
    "read_challenge",
    "undefined_names",
]
