"""A board drawn as cards, in HTML: the one place that does it, for every page that shows boards (the
`--html` pages, the matrix's implementation pages).  `CARD_STYLE` is the style those pages include."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from harness.failures import Failure
from harness.reports.report import repeats
from reference.cards import CARD_NAMES, COLUMNS

_SUITS = {"C": ("♣", False), "D": ("♦", True), "H": ("♥", True), "S": ("♠", False)}

CARD_STYLE = """
.boards { display: flex; gap: 3em; flex-wrap: wrap; }
.board .row { display: flex; gap: 4px; margin-bottom: 4px; }
.card { display: inline-block; width: 2.6em; padding: .5em 0; text-align: center; border: 1px solid #888;
  border-radius: 5px; font-size: 18px; background: #fff; }
.card.red { color: #b22222; }
.card.differs { outline: 4px solid #ff8c00; background: #fff3cd; }
.card.repeated, .card.missing { outline: 4px dashed #8b008b; background: #f3e5f5; }
"""


def boards_html(f: Failure) -> str:
    """The expected and actual boards of a failure, drawn as cards, the differing ones marked; for an
    actual board with a card repeated, the repeated cards and those it misses (where due) marked too."""
    expected = f.expected.split() if f.expected else []
    actual = f.actual.split() if f.actual else []
    repeated, missing = repeats(actual)
    note = ""
    if repeated:
        note = (
            f'<p class="repeats">Not a board: repeated (marked on the actual board): '
            f"{escape(' '.join(c for c in CARD_NAMES if c in repeated))}; "
            f"missing (marked where due): {escape(' '.join(missing))}</p>"
        )
    due = _board(expected, actual, "no expected board", set(missing), "missing")
    given = _board(actual, expected, "no board from the implementation", repeated, "repeated")
    return (
        f'<section class="boards"><div><h3>expected, deal {f.deal}</h3>{due}</div>'
        f"<div><h3>actual</h3>{given}</div></section>{note}"
    )


def _board(cards: Sequence[str], other: Sequence[str], missing: str, flagged: set[str], flag: str) -> str:
    if not cards:
        return f"<p>({escape(missing)})</p>"
    rows = []
    for start in range(0, len(cards), COLUMNS):
        cells = []
        for p in range(start, min(start + COLUMNS, len(cards))):
            differs = bool(other) and (p >= len(other) or other[p] != cards[p])
            cells.append(_card(cards[p], differs, flag if cards[p] in flagged else ""))
        rows.append(f'<div class="row">{"".join(cells)}</div>')
    return f'<div class="board">{"".join(rows)}</div>'


def _card(token: str, differs: bool, flag: str = "") -> str:
    rank, suit = token[:-1], token[-1:]
    symbol, red = _SUITS.get(suit, (suit, False))
    shown = "10" if rank == "T" else rank
    classes = "card" + (" red" if red else "") + (" differs" if differs else "") + (f" {flag}" if flag else "")
    return f'<span class="{classes}" title="{escape(token)}">{escape(shown)}{escape(symbol)}</span>'
