"""Reading boards that other programs print, leniently (SPEC.md, "Implementations").

A board is 52 distinct cards laid out as rows (8 8 8 8 8 8 4), columns (7 7 7 7 6 6 6 6) or one
line of 52, grouped by lines or, for JSON and similar, by brackets.  A card is rank-first or
suit-first (`JD`, `DJ`, `10d`, `t♦`, `♦J`) or one Unicode playing-card character (U+1F0A1 …).
Headers, line prefixes, brackets, quotes, commas and ANSI colour codes are ignored; anything else
is a `BoardError` saying how many cards were found, which repeat or are missing, and which line
was odd.

Many boards in one output are framed by `harness.framing`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from harness.errors import BoardError as BoardError  # defined there: the py: runner reads boards without NumPy
from reference.cards import (
    CARD_INDEX,
    CARD_NAMES,
    DECK_SIZE,
    SHAPES,
    dealing_order,
)
from reference.cards import canonical_line as canonical_line  # importable from here, as adapters do

SUIT_SYMBOLS: Final = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
# Unicode playing cards: U+1F0A1 + 16·suit + rank, suits ♠ ♥ ♦ ♣, ranks A 2 … 10 J (knight) Q K.
_UNICODE_SUITS: Final = "SHDC"
_UNICODE_RANKS: Final = {1: "A", **{v: str(v) for v in range(2, 10)}, 10: "T", 11: "J", 13: "Q", 14: "K"}
UNICODE_CARDS: Final[dict[str, int]] = {
    chr(0x1F0A1 + 16 * s + (v - 1)): CARD_INDEX[rank + suit]
    for s, suit in enumerate(_UNICODE_SUITS)
    for v, rank in _UNICODE_RANKS.items()
}

ANSI_CODE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
_RANK = r"10|[A2-9TJQK]"
# Rank first, a rank may also be its value 1 … 13 ("11d", " 1s": ace 1, jack 11, queen 12, king 13).
_RANK_FIRST = r"1[0-3]|[A1-9TJQK]"
_VALUE_RANKS: Final = {"1": "A", "10": "T", "11": "J", "12": "Q", "13": "K"}
_SYMBOL = r"[♣♦♥♠♧♢♡♤]"
_SUIT = rf"(?:[CDHS]|{_SYMBOL})"
# A rank-first card ending in a suit symbol needs no space before the next card ("J♦Q♠").
CARD_TOKEN = re.compile(
    rf"(?<![^\W_])(?:(?P<rank>{_RANK_FIRST})(?P<suit>{_SUIT})(?:(?<={_SYMBOL})|(?![^\W_]))"
    rf"|(?P<suit2>{_SUIT})(?P<rank2>{_RANK})(?![^\W_]))"
    rf"|(?P<uni>[\U0001F0A1-\U0001F0DE])"
    rf"|(?P<word>[^\W_]+)",
    re.IGNORECASE,
)
_BRACKETS = re.compile(r"[\[\]]")


class RunawayOutput(BoardError):
    """Too much output without a board: the program's output can no longer be framed."""


def token_card(m: re.Match[str]) -> int | None:
    """The card a token match names, or None for a word that is not a card."""
    if m["uni"]:
        return UNICODE_CARDS.get(m["uni"])
    rank, suit = (m["rank"], m["suit"]) if m["rank"] else (m["rank2"], m["suit2"])
    if rank is None:
        return None
    rank = _VALUE_RANKS.get(rank, rank).upper()
    return CARD_INDEX[rank + SUIT_SYMBOLS.get(suit, suit).upper()]


@dataclass(slots=True)
class Line:
    """One line of output: its cards, and the words in it that are neither cards nor a prefix."""

    number: int  # 1-based, within what was read
    text: str
    cards: list[int] = field(default_factory=list)
    stray: list[str] = field(default_factory=list)  # words after the first card
    words: int = 0  # words that are neither cards nor stray (a prefix, or a header's words)
    label: int | None = None  # a number alone before the first card: "1:", "[1,]", "[16]", "1"
    bare: bool = False  # the label has no punctuation ("1 JD 2D …"): a row number only if every row has one

    @property
    def odd(self) -> bool:
        """Words among the cards (not a header: a header has more words than cards)."""
        return bool(self.stray) and len(self.cards) > len(self.stray)


_PREFIX_END = re.compile(r"[:.)|>#,?\]-][\s\[\]\"'(]*$")
# Empty cells of a table printed by R, pandas and the like ("NA", "<NA>", "None", "NaN").
_FILLERS: Final = frozenset({"NA", "NaN", "None", "null"})


def read_line(text: str, number: int) -> Line:
    """A line's cards.  Words before the first card are a prefix if it ends like one ("Row 1:")."""
    text = ANSI_CODE.sub("", text)
    line = Line(number, text)
    prefix: list[str] = []
    first = 0
    for m in CARD_TOKEN.finditer(text):
        card = token_card(m)
        if card is not None:
            if not line.cards:
                first = m.start()
            line.cards.append(card)
        elif line.cards:
            if m[0] not in _FILLERS:
                line.stray.append(m[0])
        else:
            prefix.append(m[0])
    line.words = len(prefix)
    if line.cards and len(prefix) == 1 and prefix[0].isdigit() and prefix[0].isascii():
        line.label = int(prefix[0])
        line.bare = not _PREFIX_END.search(text[:first])
    elif line.cards and prefix and not _PREFIX_END.search(text[:first]):
        line.stray[:0] = prefix
    if line.stray and not line.odd:
        line.words += len(line.cards) + len(line.stray)
        line.cards.clear()  # a header that happens to contain a card-like word ("Game 7 as dealt")
        line.stray.clear()
    if "\ufffd" in text and line.cards:
        line.stray.append("\ufffd")
    return line


def _names(cards: Sequence[int]) -> str:
    return " ".join(CARD_NAMES[c] for c in cards)


def _shape_text(shape: Iterable[int]) -> str:
    return " ".join(map(str, shape))


def _bracket_groups(text: str) -> list[list[int]]:
    groups = []
    for segment in _BRACKETS.split(text):
        cards = [c for i, raw in enumerate(segment.splitlines()) for c in read_line(raw, i + 1).cards]
        if cards:
            groups.append(cards)
    return groups


def describe_cards(cards: Sequence[int]) -> str:
    """How many cards, and which repeat or are missing."""
    seen: dict[int, int] = {}
    for c in cards:
        seen[c] = seen.get(c, 0) + 1
    parts = [f"found {len(cards)} cards"]
    repeated = sorted(c for c, k in seen.items() if k > 1)
    missing = [c for c in range(DECK_SIZE) if c not in seen]
    if repeated:
        parts.append(f"repeated: {_names(repeated)}")
    if missing:
        parts.append(f"missing: {_names(missing)}" if len(missing) <= 8 else f"{len(missing)} missing")
    return ", ".join(parts)


def _numbering(card_lines: Sequence[Line]) -> str | None:
    """How every card line is numbered: "rows" (1, 2, 3 … or 0, 1, 2 …), "index" (the position of
    its first card: R's `[1] … [16] …`), or None (not every line, or no sequence)."""
    labels = [ln.label for ln in card_lines]
    if not labels or None in labels:
        return None
    first = labels[0]
    if first in (0, 1) and labels == list(range(first, first + len(labels))):
        return "rows"
    starts = [0]
    for ln in card_lines[:-1]:
        starts.append(starts[-1] + len(ln.cards))
    if first in (0, 1) and labels == [first + s for s in starts]:
        return "index"
    return None


def _unlabelled(line: Line) -> Line:
    """The line with its bare label read as a word among the cards (not every row has one)."""
    return replace(line, stray=[str(line.label), *line.stray], label=None, bare=False)


def board_from_lines(lines: Sequence[Line], where: str = "") -> tuple[int, ...]:
    """The 52 cards, in dealing order, of a board's lines; BoardError saying why not."""
    card_lines = [ln for ln in lines if ln.cards]
    numbering = _numbering(card_lines)
    if numbering is None and any(ln.bare for ln in card_lines):
        lines = [_unlabelled(ln) if ln.bare else ln for ln in lines]
        card_lines = [ln for ln in lines if ln.cards]
    cards = [c for ln in card_lines for c in ln.cards]
    odd = next((ln for ln in lines if ln.odd or "\ufffd" in ln.stray), None)
    if odd is not None:
        why = "bytes that are not text" if "\ufffd" in odd.stray else f"not cards: {' '.join(odd.stray[:3])}"
        raise BoardError(f"{where}line {odd.number} is odd ({why}): {odd.text.strip()[:80]!r}; {describe_cards(cards)}")
    ordered = None
    if numbering == "index":
        ordered = dealing_order([cards])
    elif any("[" in ln.text for ln in card_lines):
        groups = _bracket_groups("\n".join(ln.text for ln in card_lines))
        ordered = dealing_order(groups) if len(groups) > 1 else None
    if ordered is None:
        ordered = dealing_order([ln.cards for ln in card_lines])
    if ordered is not None and len(set(ordered)) == DECK_SIZE:
        return ordered
    if ordered is not None or len(cards) != DECK_SIZE or len(set(cards)) != DECK_SIZE:
        raise BoardError(f"{where}{describe_cards(cards)}{_odd_line(card_lines)}", ordered)
    shape = [len(ln.cards) for ln in card_lines]
    raise BoardError(
        f"{where}52 cards, but not rows (8 8 8 8 8 8 4), columns (7 7 7 7 6 6 6 6) or one line:"
        f" lines hold {_shape_text(shape)}{_odd_line(card_lines)}"
    )


def _odd_line(card_lines: Sequence[Line]) -> str:
    """Which line breaks the layout that the first line promises (rows, columns or one line)."""
    if not card_lines or tuple(len(ln.cards) for ln in card_lines) in SHAPES:
        return ""
    first = len(card_lines[0].cards)
    expected = next((s for s in SHAPES if s[0] == first), None)
    if expected is None:
        return f"; line {card_lines[0].number} holds {first} cards"
    for i, ln in enumerate(card_lines):
        want = expected[i] if i < len(expected) else 0
        if len(ln.cards) != want:
            return f"; line {ln.number} holds {len(ln.cards)} cards where {SHAPES[expected]} need {want}"
    return f"; {SHAPES[expected]} need {len(expected)} lines, found {len(card_lines)}"


def read_board(text: str) -> tuple[int, ...]:
    """The 52 cards, in dealing order, of one board's text."""
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            value = json.loads(stripped)
        except ValueError:
            pass
        else:
            return board_from_value(value)
    return board_from_lines([read_line(raw, i + 1) for i, raw in enumerate(text.splitlines())])


def _value_card(value: object) -> int:
    if isinstance(value, str):
        line = read_line(value, 1)
        if len(line.cards) == 1 and not line.stray:
            return line.cards[0]
    raise BoardError(f"not a card: {value!r}")


def board_from_value(value: object) -> tuple[int, ...]:
    """The 52 cards of card names in JSON's shapes (rows, columns, 52 names) or of board text: what
    `read_board` finds in JSON text.  Any value a dealer returns is `harness.shapes.read_value`'s."""
    if isinstance(value, str):
        return read_board(value)
    if isinstance(value, Sequence) and value and all(isinstance(v, str) for v in value):
        groups: list[list[int]] = [[_value_card(v) for v in value]]
    elif isinstance(value, Sequence) and all(isinstance(g, Sequence) and not isinstance(g, str) for g in value):
        groups = [[_value_card(v) for v in g] for g in value]
    else:
        raise BoardError(f"not a board: {type(value).__name__}")
    return deck_of_groups(groups)


def deck_of_groups(groups: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The cards of rows, columns or one group of 52, in dealing order; BoardError saying why not."""
    ordered = dealing_order(groups)
    cards = [c for g in groups for c in g]
    if ordered is None:
        raise BoardError(
            f"{describe_cards(cards)}: groups of {_shape_text(len(g) for g in groups)}, expected rows or columns"
        )
    if len(set(ordered)) != DECK_SIZE:
        raise BoardError(describe_cards(cards), ordered)
    return ordered


def board_given(error: BoardError) -> str | None:
    """The cards a board that is not one holds (a card repeated, another missing), as a line of card
    names in dealing order, for a failure's `actual`; None when it is not laid out as 52 cards."""
    cards = error.cards
    return None if cards is None or len(cards) != DECK_SIZE else " ".join(CARD_NAMES[c] for c in cards)
