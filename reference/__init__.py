"""The freecell-harness reference dealer: Microsoft FreeCell deals, exact, for every dialect."""

from reference.bulk import block_digest, canonical_lines, cards_array, deal_range, iter_lines, lines_array
from reference.deal import CARD_NAMES, FORMATS, Deal, cards_from_text, deal
from reference.dialects import DEFAULT_DIALECT, DIALECTS, Dialect, get_dialect, random_numbers

__all__ = [
    "CARD_NAMES",
    "DEFAULT_DIALECT",
    "DIALECTS",
    "FORMATS",
    "Deal",
    "Dialect",
    "block_digest",
    "canonical_lines",
    "cards_array",
    "cards_from_text",
    "deal",
    "deal_range",
    "get_dialect",
    "iter_lines",
    "lines_array",
    "random_numbers",
]
