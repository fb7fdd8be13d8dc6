"""The freecell-harness reference dealer: Microsoft FreeCell deals, exact, for every dialect.

Every name below is public; the modules behind them are the reference's own.  Names load when
first used (PEP 562): the cards, dialects and single deals need no NumPy; `reference.bulk` (ranges of
deals, in arrays) does, and is imported only when one of its names is.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

from reference.cards import (
    CARD_INDEX,
    CARD_NAMES,
    COLUMN_ORDER,
    COLUMN_SHAPE,
    COLUMNS,
    DECK_SIZE,
    FORMATS,
    LINE_BYTES,
    LINE_SHAPE,
    RANKS,
    ROW_SHAPE,
    ROWS,
    SHAPES,
    SUITS,
    as_columns,
    as_rows,
    canonical_line,
    cards_from_text,
    dealing_order,
    format_board,
    parse_canonical_line,
)
from reference.deal import Deal, deal
from reference.dialects import DEFAULT_DIALECT, DIALECTS, Dialect, get_dialect, random_numbers

if TYPE_CHECKING:
    from reference.bulk import (
        block_digest,
        canonical_lines,
        cards_array,
        deal_range,
        iter_lines,
        lines_array,
        render_lines,
    )

_HOMES: Final = {  # the names of reference.bulk, loaded on first use
    "block_digest": "reference.bulk",
    "canonical_lines": "reference.bulk",
    "cards_array": "reference.bulk",
    "deal_range": "reference.bulk",
    "iter_lines": "reference.bulk",
    "lines_array": "reference.bulk",
    "render_lines": "reference.bulk",
}

__all__ = [
    "CARD_INDEX",
    "CARD_NAMES",
    "COLUMNS",
    "COLUMN_ORDER",
    "COLUMN_SHAPE",
    "DECK_SIZE",
    "DEFAULT_DIALECT",
    "DIALECTS",
    "FORMATS",
    "LINE_BYTES",
    "LINE_SHAPE",
    "RANKS",
    "ROWS",
    "ROW_SHAPE",
    "SHAPES",
    "SUITS",
    "Deal",
    "Dialect",
    "as_columns",
    "as_rows",
    "block_digest",
    "canonical_line",
    "canonical_lines",
    "cards_array",
    "cards_from_text",
    "deal",
    "deal_range",
    "dealing_order",
    "format_board",
    "get_dialect",
    "iter_lines",
    "lines_array",
    "parse_canonical_line",
    "random_numbers",
    "render_lines",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'reference' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
