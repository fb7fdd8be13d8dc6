"""Where the freeCodeCamp challenge document holding the original solution is: `$FREECELL_SEED`,
else `../shared/seeds/` beside the checkout (this repository's development layout), else the copy
`freecell-harness setup challenge` downloaded into the user cache.

The download is pinned: freeCodeCamp's curriculum file at one commit, whose SHA-256 is checked
before anything is kept (a copy of other bytes, from a mirror or a tampered server, is refused).
The pinned file is the curriculum's Spanish translation of the challenge as of that commit: its
solution is the original one (the same JavaScript as the English file's); it is byte for byte the
development layout's seed document 004, which is how its SHA-256 was taken.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Final

from harness.errors import RequestError
from harness.files import write_atomically

SEED_ENV: Final = "FREECELL_SEED"
DEFAULT_SEED_NAME: Final = "000_8985819e1f56d382.txt"
PROJECT_ROOT: Final = Path(__file__).resolve().parent.parent

CHALLENGE_REPOSITORY: Final = "freeCodeCamp/freeCodeCamp"
CHALLENGE_COMMIT: Final = "fcced4a6c3a9d797badd2dadeabd7c23e0ad967c"
CHALLENGE_PATH: Final = (
    "curriculum/challenges/spanish/08-coding-interview-prep/rosetta-code/deal-cards-for-freecell.spanish.md"
)
CHALLENGE_URL: Final = f"https://raw.githubusercontent.com/{CHALLENGE_REPOSITORY}/{CHALLENGE_COMMIT}/{CHALLENGE_PATH}"
CHALLENGE_SHA256: Final = "96aefa44a421368def122dc77fc54a673518acb2ec56ef27f6d5e3e2e870fea8"
CHALLENGE_URL_ENV: Final = "FREECELL_CHALLENGE_URL"  # another place to fetch the same bytes from (a mirror)
SETUP_CHALLENGE: Final = "freecell-harness setup challenge"
MAX_CHALLENGE_BYTES: Final = 1 << 20
DOWNLOAD_TIMEOUT_S: Final = 60.0


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


def cached_challenge() -> Path:
    """Where `setup challenge` keeps the file: $XDG_CACHE_HOME or ~/.cache, freecell-harness/challenge."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "freecell-harness" / "challenge" / Path(CHALLENGE_PATH).name


def development_seed_document() -> Path | None:
    """$FREECELL_SEED, else the development layout's first seed document, if it is there."""
    override = os.environ.get(SEED_ENV)
    if override:
        return Path(override)
    path = seeds_dir() / DEFAULT_SEED_NAME
    return path if path.is_file() else None


def default_seed_document() -> Path:
    """The document holding the original solution: $FREECELL_SEED, else the development layout's
    first seed document, else the downloaded challenge file (where it would be, if it is not)."""
    found = development_seed_document()
    if found is not None:
        return found
    cached = cached_challenge()
    return cached if cached.is_file() else seeds_dir() / DEFAULT_SEED_NAME


def require_seed_document() -> Path:
    """The seed document, which must exist; RequestError (exit 2) saying the one command that fetches it."""
    path = default_seed_document()
    if not path.is_file():
        if os.environ.get(SEED_ENV):
            raise RequestError(
                f"${SEED_ENV} names {path}, which is not a file: point it at a copy of the freeCodeCamp "
                f"challenge document, or unset it and run `{SETUP_CHALLENGE}`"
            )
        raise RequestError(
            f"the original solution (freeCodeCamp's challenge document) was not found: run `{SETUP_CHALLENGE}` "
            f"(it downloads it into {cached_challenge().parent}), or set ${SEED_ENV} to a copy"
        )
    return path


def missing_seed_hint(path: str) -> str:
    """For a document path of the development layout that is not there (a fresh clone, the README's
    examples): the one command that brings the original solution, and its path then; else ""."""
    if Path(path).is_file() or not (Path(path).name == DEFAULT_SEED_NAME or "shared/seeds/" in path):
        return ""
    return (
        f"the development layout's seed documents (../shared/seeds/) are not here: run `{SETUP_CHALLENGE}` "
        f"once, then give node:{cached_challenge()} (or set ${SEED_ENV} to a copy)"
    )


def download_challenge(url: str | None = None) -> Path:
    """Fetch the pinned challenge file (from `url`, $FREECELL_CHALLENGE_URL or CHALLENGE_URL), check its
    SHA-256 and keep it in the user cache, written atomically; the path kept.  RequestError (exit 2,
    one line) when it cannot be fetched or its bytes are not the pinned file's: nothing is kept then."""
    import urllib.error  # only here: every other use of this module is a look-up of paths
    import urllib.request

    source = url or os.environ.get(CHALLENGE_URL_ENV) or CHALLENGE_URL
    if not source.startswith(("https://", "http://")):
        raise RequestError(f"{source!r}: the challenge file is fetched over https:// (or http:// from a mirror)")
    try:
        with urllib.request.urlopen(source, timeout=DOWNLOAD_TIMEOUT_S) as response:
            data = response.read(MAX_CHALLENGE_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise RequestError(f"cannot download {source}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        raise RequestError(f"cannot download {source}: {reason}") from None
    if len(data) > MAX_CHALLENGE_BYTES:
        raise RequestError(f"{source}: more than {MAX_CHALLENGE_BYTES:,} bytes, not the challenge file: refused")
    digest = hashlib.sha256(data).hexdigest()
    if digest != CHALLENGE_SHA256:
        raise RequestError(
            f"{source}: SHA-256 {digest}, not the pinned {CHALLENGE_SHA256} "
            f"({CHALLENGE_REPOSITORY} at {CHALLENGE_COMMIT[:12]}): refused, nothing kept"
        )
    path = cached_challenge()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, data)
    return path
