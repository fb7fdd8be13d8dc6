"""Where the freeCodeCamp challenge documents are: `../shared/seeds/` beside the checkout."""

from __future__ import annotations

import os
from pathlib import Path

from harness.errors import RequestError

SEED_ENV = "FREECELL_SEED"
DEFAULT_SEED_NAME = "000_8985819e1f56d382.txt"
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def seeds_dir() -> Path:
    """The directory of $FREECELL_SEED's document, else `../shared/seeds` relative to the checkout
    (or, installed elsewhere, to the working directory)."""
    override = os.environ.get(SEED_ENV)
    if override:
        return Path(override).parent
    for base in (PROJECT_ROOT, Path.cwd()):
        candidate = base.parent / "shared" / "seeds"
        if candidate.is_dir():
            return candidate
    return PROJECT_ROOT.parent / "shared" / "seeds"


def default_seed_document() -> Path:
    """The document holding the original solution: $FREECELL_SEED, else the first seed document."""
    override = os.environ.get(SEED_ENV)
    return Path(override) if override else seeds_dir() / DEFAULT_SEED_NAME


def require_seed_document() -> Path:
    """The seed document, which must exist; RequestError (exit 2) saying how to point at it if not."""
    path = default_seed_document()
    if not path.is_file():
        how = f"${SEED_ENV} names a missing file" if os.environ.get(SEED_ENV) else f"set ${SEED_ENV}"
        raise RequestError(
            f"the freeCodeCamp seed document {path} was not found: {how} to the document holding "
            "the original solution (e.g. export FREECELL_SEED=/path/to/seeds/000_8985819e1f56d382.txt)"
        )
    return path
