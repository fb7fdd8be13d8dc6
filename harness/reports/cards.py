"""A board drawn as cards, in HTML: the one place that does it, for every page that shows boards (the
`--html` pages, the matrix's implementation pages).  `CARD_STYLE` is the style those pages include."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from harness.failures import Failure
from reference.cards import COLUMNS

_SUITS = {"C": ("♣", False), "D": ("♦", True), "H": ("♥", True), "S": ("♠", False)}

CARD_STYLE = """
.boards { display: flex; gap: 3em; flex-wrap: wrap; }
.board .row { display: flex; gap: 4px; margin-bottom: 4px; }
.card { display: inline-block; width: 2.6em; padding: .5em 0; text-align: center; border: 1px solid #888;
  border-radius: 5px; font-size: 18px; background: #fff; }
.card.red { color: #b22222; }
.card.differs { outline: 4px solid #ff8c00; background: #fff3cd; }
"""


def boards_html(f: Failure) -> str:
    """The expected and actual boards of a failure, drawn as cards, the differing ones marked."""
    expected = f.expected.split() if f.expected else []
    actual = f.actual.split() if f.actual else []
    return (
        f'<section class="boards"><div><h3>expected, deal {f.deal}</h3>{_board(expected, actual, "no expected board")}'
        f"</div><div><h3>actual</h3>{_board(actual, expected, 'no board from the implementation')}</div></section>"
    )


def _board(cards: Sequence[str], other: Sequence[str], missing: str) -> str:
    if not cards:
        return f"<p>({escape(missing)})</p>"
    rows = []
    for start in range(0, len(cards), COLUMNS):
        cells = []
        for p in range(start, min(start + COLUMNS, len(cards))):
            differs = bool(other) and (p >= len(other) or other[p] != cards[p])
            cells.append(_card(cards[p], differs))
        rows.append(f'<div class="row">{"".join(cells)}</div>')
    return f'<div class="board">{"".join(rows)}</div>'


def _card(token: str, differs: bool) -> str:
    rank, suit = token[:-1], token[-1:]
    symbol, red = _SUITS.get(suit, (suit, False))
    shown = "10" if rank == "T" else rank
    classes = "card" + (" red" if red else "") + (" differs" if differs else "")
    return f'<span class="{classes}" title="{escape(token)}">{escape(shown)}{escape(symbol)}</span>'
