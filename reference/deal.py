"""One deal: the `Deal` value, its layouts (rows, columns) and its text formats."""

from __future__ import annotations

from dataclasses import dataclass

from reference.cards import CARD_NAMES, DECK_SIZE, as_columns, as_rows, canonical_line, cards_from_text, format_board
from reference.dialects import DEFAULT_DIALECT, Dialect, get_dialect


def shuffle(random_numbers: list[int]) -> tuple[int, ...]:
    """Deal order of the 52 cards for these random numbers (SPEC.md, 'Dealing')."""
    deck = list(range(DECK_SIZE))
    dealt = []
    for left, r in zip(range(DECK_SIZE, 0, -1), random_numbers, strict=True):
        k = r % left
        dealt.append(deck[k])
        deck[k] = deck[left - 1]
    return tuple(dealt)


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal `number` of `dialect`: its 52 cards (indices into CARD_NAMES) in dealing order."""

    number: int
    dialect: str
    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        if sorted(self.cards) != list(range(DECK_SIZE)):
            raise ValueError(f"deal {self.number}: cards are not a permutation of the 52 cards")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(CARD_NAMES[c] for c in self.cards)

    @property
    def rows(self) -> tuple[tuple[str, ...], ...]:
        """7 rows of 8 cards (the last of 4): the seed's layout."""
        return as_rows(self.names)

    @property
    def columns(self) -> tuple[tuple[str, ...], ...]:
        """8 columns, top card first: four of 7 cards, four of 6."""
        return as_columns(self.names)

    @property
    def line(self) -> str:
        """The canonical line: 52 cards, single spaces, one LF (156 bytes)."""
        return canonical_line(self.cards).decode("ascii")

    def format(self, fmt: str = "rows") -> str:
        """The deal as text in one of FORMATS, ending with a newline."""
        return format_board(self.cards, fmt)


def deal(number: int, dialect: str | Dialect = DEFAULT_DIALECT) -> Deal:
    """Deal `number` of `dialect` (default classic); ValueError/TypeError outside its domain."""
    d = get_dialect(dialect)
    d.check(number)
    fixed = d.fixed_layouts.get(number)
    if fixed is not None:
        return Deal(number, d.name, cards_from_text("".join(c + "\n" for c in fixed), "columns"))
    rule = d.rule_for(number)
    assert rule is not None  # check() guarantees a rule or a fixed layout
    return Deal(number, d.name, shuffle(rule.random_numbers(number)))
