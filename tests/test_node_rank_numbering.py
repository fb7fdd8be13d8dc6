"""Numeric ranks of `node:` card objects are read with the numbering the board itself uses (0 … 12,
1 … 13, 2 … 14 ace high, or face values beside letters), and a board whose numbers fit none of
them is invalid, never fitted to the expected board."""

from __future__ import annotations

from pathlib import Path

import pytest

import reference
from harness.adapters import DealerOptions, open_dealer
from harness.failures import Failure

SHAPES = Path(__file__).with_name("js") / "shapes"
DEALS = [1, 2, 3]

# Each: the rank field of card c (c.rank: 0 … 12 for A … K, c.suit: 0 … 3 for C D H S), and what
# the board reads as: None (the right board) or a part of the invalid board's message.
RANKS: dict[str, tuple[str, str | None]] = {
    "zero-based": ("c.rank", None),
    "one-based": ("c.rank + 1", None),
    "ace-high": ("c.rank === 0 ? 14 : c.rank + 1", None),
    "digit-texts-beside-letters": ("c.rank === 9 ? '10' : 'A23456789TJQK'[c.rank]", None),
    "face-values-beside-letters": ("c.rank >= 1 && c.rank <= 9 ? c.rank + 1 : 'A23456789TJQK'[c.rank]", None),
    "ace-as-one-beside-letters": ("c.rank <= 9 ? c.rank + 1 : 'JQK'[c.rank - 10]", None),
    "texts-one-based": ("String(c.rank + 1)", None),
    "zero-beside-letters": ("c.rank <= 9 ? c.rank : 'JQK'[c.rank - 10]", "ranks mix letters with the numbers 0, 1"),
    "fourteen-values": ("c.rank === 12 && c.suit === 0 ? 0 : c.rank + 1", "expected 13 values"),
    "ace-high-and-one": ("c.rank === 0 ? (c.suit === 0 ? 1 : 14) : c.rank + 1", "expected 13 values"),
    "letters-beside-eleven": ("c.rank === 10 ? 11 : 'A23456789TJQK'[c.rank]", "ranks mix letters with the numbers"),
}


@pytest.mark.parametrize("case", sorted(RANKS))
def test_numeric_ranks_are_read_as_the_board_numbers_them(node: str, tmp_path: Path, case: str) -> None:
    rank, needle = RANKS[case]
    path = tmp_path / "objects.js"
    path.write_text(
        "const { deal } = require('./deal');\n"
        "function dealFreeCell(n) {\n"
        f"  return deal(n).map((c) => ({{ rank: {rank}, suit: 'CDHS'[c.suit] }}));\n"
        "}\nmodule.exports = { dealFreeCell };\n",
        encoding="utf-8",
    )
    (tmp_path / "deal.js").write_text((SHAPES / "deal.js").read_text(encoding="utf-8"), encoding="utf-8")
    with open_dealer(f"node:{path}", DealerOptions()) as dealer:
        answers = dealer.lines(DEALS)
        digest = dealer.block_digest(DEALS)
    if needle is None:
        assert answers == [reference.canonical_lines([n]) for n in DEALS]
        assert digest == reference.block_digest(DEALS)
        return
    for deal, failure in zip(DEALS, answers, strict=True):
        assert isinstance(failure, Failure) and (failure.deal, failure.kind) == (deal, "invalid-output"), failure
        assert needle in failure.message, failure.message
