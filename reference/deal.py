"""One deal: the `Deal` value, its layouts (rows, columns) and its text formats."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final, Literal, get_args

from reference.dialects import DECK_SIZE, DEFAULT_DIALECT, Dialect, get_dialect

RANKS: Final = "A23456789TJQK"
SUITS: Final = "CDHS"
# Card i is RANKS[i // 4] + SUITS[i % 4]: AC AD AH AS 2C … KS.
CARD_NAMES: Final[tuple[str, ...]] = tuple(r + s for r in RANKS for s in SUITS)
CARD_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(CARD_NAMES)}
COLUMNS: Final = 8
ROWS: Final = 7
LINE_BYTES: Final = 3 * DECK_SIZE  # 52 two-letter cards, 51 spaces, one LF

Format = Literal["rows", "columns", "json", "line"]
FORMATS: Final[tuple[str, ...]] = get_args(Format)


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
        names = self.names
        return tuple(names[i : i + COLUMNS] for i in range(0, DECK_SIZE, COLUMNS))

    @property
    def columns(self) -> tuple[tuple[str, ...], ...]:
        """8 columns, top card first: four of 7 cards, four of 6."""
        names = self.names
        return tuple(names[c::COLUMNS] for c in range(COLUMNS))

    @property
    def line(self) -> str:
        """The canonical line: 52 cards, single spaces, one LF (156 bytes)."""
        return " ".join(self.names) + "\n"

    def format(self, fmt: str = "rows") -> str:
        """The deal as text, ending with a newline."""
        if fmt == "rows":
            return "".join(" ".join(row) + "\n" for row in self.rows)
        if fmt == "columns":
            return "".join(" ".join(col) + "\n" for col in self.columns)
        if fmt == "json":
            return json.dumps([list(row) for row in self.rows], separators=(",", ":")) + "\n"
        if fmt == "line":
            return self.line
        raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")


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


def cards_from_text(text: str, fmt: str) -> tuple[int, ...]:
    """Strict inverse of `Deal.format`: the 52 cards, in dealing order, of text in format `fmt`."""
    if fmt == "json":
        groups = [list(map(str, row)) for row in json.loads(text)]
        fmt = "rows"
    else:
        groups = [line.split(" ") for line in text.splitlines()]
    if fmt == "line":
        if len(groups) != 1:
            raise ValueError(f"a line holds one deal, not {len(groups)} lines")
        names = groups[0]
    elif fmt == "rows":
        names = [name for row in groups for name in row]
        if [len(row) for row in groups] != [8, 8, 8, 8, 8, 8, 4]:
            raise ValueError(f"rows must hold 8 8 8 8 8 8 4 cards, not {[len(r) for r in groups]}")
    elif fmt == "columns":
        if [len(col) for col in groups] != [7, 7, 7, 7, 6, 6, 6, 6]:
            raise ValueError(f"columns must hold 7 7 7 7 6 6 6 6 cards, not {[len(c) for c in groups]}")
        names = [groups[p % COLUMNS][p // COLUMNS] for p in range(DECK_SIZE)]
    else:
        raise ValueError(f"unknown format {fmt!r}: choose one of {', '.join(FORMATS)}")
    unknown = [n for n in names if n not in CARD_INDEX]
    if unknown:
        raise ValueError(f"not cards: {' '.join(unknown[:5])}")
    if len(names) != DECK_SIZE or len(set(names)) != DECK_SIZE:
        repeated = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(
            f"{len(names)} cards, {len(set(names))} distinct"
            + (f" ({' '.join(repeated)} repeated)" if repeated else "")
        )
    return tuple(CARD_INDEX[n] for n in names)
