"""Where the freeCodeCamp challenge documents are: `../shared/seeds/` beside the checkout."""

from __future__ import annotations

import os
from pathlib import Path

SEED_ENV = "FREECELL_SEED"
DEFAULT_SEED_NAME = "000_8985819e1f56d382.txt"
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def seeds_dir() -> Path:
    """`../shared/seeds` relative to the checkout (or, installed elsewhere, to the working directory)."""
    for base in (PROJECT_ROOT, Path.cwd()):
        candidate = base.parent / "shared" / "seeds"
        if candidate.is_dir():
            return candidate
    return PROJECT_ROOT.parent / "shared" / "seeds"


def default_seed_document() -> Path:
    """The document holding the original solution: $FREECELL_SEED, else the first seed document."""
    override = os.environ.get(SEED_ENV)
    return Path(override) if override else seeds_dir() / DEFAULT_SEED_NAME
