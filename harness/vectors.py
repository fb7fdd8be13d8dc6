"""Published boards (`../shared/vectors/published.json`): facts from public sources, as canonical lines."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from harness.adapters.base import Answer, Dealer
from harness.errors import RequestError
from harness.failures import Failure
from harness.files import FileRefused, read_regular
from harness.seeds import seeds_dir
from reference.cards import canonical_line, cards_from_text


def published_vectors_path() -> Path:
    return seeds_dir().parent / "vectors" / "published.json"


def load_published(path: Path | None = None) -> dict[tuple[str, int], bytes]:
    """(dialect, deal) → canonical line of every published board; RequestError if unreadable."""
    path = path or published_vectors_path()
    try:
        vectors = json.loads(read_regular(path, 16 << 20, "published vectors").decode("utf-8"))["vectors"]
        out: dict[tuple[str, int], bytes] = {}
        for v in vectors:
            out[(str(v["dialect"]), int(v["deal"]))] = canonical_line(cards_from_text(v["board"], v["layout"]))
    except (FileRefused, OSError, ValueError, KeyError, TypeError) as exc:
        raise RequestError(
            f"cannot read the published vectors {path}: {exc} (they are found beside the seed documents: "
            "set $FREECELL_SEED to the seed document in seeds/, next to vectors/)"
        ) from None
    return out


class PublishedDealer(Dealer):
    """The published boards of one dialect; any other deal is an `error` answer."""

    def __init__(self, dialect: str, path: Path | None = None) -> None:
        self.impl = "published-vectors"
        self.boards = {n: line for (d, n), line in load_published(path).items() if d == dialect}

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        return [self.boards.get(n) or Failure(n, "error", "no published board") for n in deals]
