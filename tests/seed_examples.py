"""The example boards of the seed documents, read from the documents themselves at test time.

Each document prints Game #1 and Game #617 as 7 rows of quoted card names, e.g. in its hint data
(`const game617 = [` followed by one `['7D', 'AD', …],` line per row) and, in some renderings,
under a `Game #617` heading.  Nothing of the boards is copied into the project: they are read here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from harness.seeds import seeds_dir

Rows = list[list[str]]

# Documents whose hint data is intact (the others are damaged copies: tags stripped, lines lost).
CLEAN_DOCUMENTS = ("000", "001", "003")
GAMES = (1, 617)

_ROW = re.compile(r"\s*\[\s*('[^']*'(?:\s*,\s*'[^']*')*)\s*\]\s*,?\s*")


def document(prefix: str, directory: Path | None = None) -> Path:
    """The seed document whose name starts with `prefix` (its name carries a content hash)."""
    matches = sorted((directory or seeds_dir()).glob(f"{prefix}_*.txt"))
    if len(matches) != 1:
        raise FileNotFoundError(f"expected one seed document {prefix}_*.txt, found {len(matches)}")
    return matches[0]


def _rows_after(lines: list[str], start: int) -> Rows:
    rows: Rows = []
    for line in lines[start:]:
        m = _ROW.fullmatch(line)
        if m is None:
            if rows or line.strip() not in ("", "[", "```js"):
                break
            continue
        rows.append(json.loads("[" + m[1].replace("'", '"') + "]"))
    return rows


def hint_board(text: str, game: int) -> Rows:
    """The rows of `const game<N> = [` in a document's test data; [] if absent."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.fullmatch(rf"\s*const game{game} = \[\s*", line):
            return _rows_after(lines, i + 1)
    return []


def heading_board(text: str, game: int) -> Rows:
    """The rows printed under a `Game #<N>` heading line (the English description); [] if absent."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.fullmatch(rf"\s*Game #{game}\s*", line):
            return _rows_after(lines, i + 1)
    return []


def seed_board(game: int) -> Rows:
    """Game #`game` as the first clean seed document's hint data gives it."""
    return hint_board(document(CLEAN_DOCUMENTS[0]).read_text(encoding="utf-8"), game)
