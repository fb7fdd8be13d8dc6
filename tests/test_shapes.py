"""The layered reader (`harness.shapes`): every shape and card real Python games return, read
from itself; ambiguous ones refused naming the option.  Dealers: tests/dealers/shapes/."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import reference
from harness.cards import BoardError
from harness.shapes import AmbiguousCards, CardEncoding, canonical_line_of, read_value

SHAPES = Path(__file__).parent / "dealers" / "shapes"
DEALS = (1, 617, 11982, 31999)


def dealer(name: str) -> Callable[[int], object]:
    for where in (SHAPES, SHAPES.parent):  # the dealers import shapes.microsoft
        if str(where) not in sys.path:
            sys.path.insert(0, str(where))
    module, _, attribute = name.partition(":")
    found: object = importlib.import_module(module)
    for part in attribute.split("."):
        found = getattr(found, part)
    return found  # type: ignore[return-value]


READ = {
    "dataclass game state": ("dataclass_game:new_game", CardEncoding()),
    "dataclass columns": ("dataclass_game:columns_only", CardEncoding()),
    "namedtuple of enums, column objects": ("enum_game:deal", CardEncoding()),
    "namedtuple of enums, 52": ("enum_game:flat", CardEncoding()),
    "dicts yielded, ranks 0-based": ("numeric_cards:zero_based", CardEncoding()),
    "pairs, ace high": ("numeric_cards:ace_high", CardEncoding()),
    "rows of dicts, ranks as digits 1-based": ("numeric_cards:one_based_strings", CardEncoding()),
    "suits as numbers, stated": ("numeric_cards:numbered_suits", CardEncoding(suits="SHDC")),
    "cards as numbers, suit-major": ("numeric_cards:card_numbers", CardEncoding("suit-major", "SHDC")),
    "cards as numbers, rank-major": ("numeric_cards:rank_major_numbers", CardEncoding("rank-major", "CDHS")),
    "__str__ with symbols and 10": ("text_cards:symbols", CardEncoding()),
    "__str__ in words": ("text_cards:words", CardEncoding()),
    "card-name field beside a blackjack value": ("text_cards:blackjack", CardEncoding()),
    "board whose str() prints it": ("text_cards:Board", CardEncoding()),
    "board under tableauPiles, beside allCards unshuffled": ("other_fields:Game", CardEncoding()),
    "52-card fields: the unshuffled deck, then the deal": ("other_fields:FlatGame", CardEncoding()),
    "a dict game under tableauPiles": ("other_fields:game_dict", CardEncoding()),
    "value 1-13 and kind letters": ("other_fields:value_kind_letters", CardEncoding()),
    "names value first, ' 1s' and '11d'": ("other_fields:value_first", CardEncoding()),
    "value 1-13 and kind 0-3, stated": ("other_fields:value_kind", CardEncoding(suits="CDHS")),
}


@pytest.mark.parametrize(("name", "encoding"), READ.values(), ids=READ.keys())
def test_every_shape_reads_as_the_board_it_is(name: str, encoding: CardEncoding) -> None:
    function = dealer(name)
    for n in DEALS:
        assert read_value(function(n), encoding) == reference.deal(n).cards, n


REFUSED = {
    "suits as bare numbers": ("numeric_cards:numbered_suits", CardEncoding(), AmbiguousCards, "--suits"),
    "cards as bare numbers": (
        "numeric_cards:card_numbers",
        CardEncoding(),
        AmbiguousCards,
        "--cards {rank-major,suit-major}",
    ),
    "cards as numbers, suits unsaid": (
        "numeric_cards:card_numbers",
        CardEncoding("suit-major"),
        AmbiguousCards,
        "--suits",
    ),
    "a card in a free cell": ("dataclass_game:played", CardEncoding(), BoardError, "freecells hold 1 cards"),
    "value 1-13 and kind 0-3": ("other_fields:value_kind", CardEncoding(), AmbiguousCards, "--suits"),
}


@pytest.mark.parametrize(("name", "encoding", "error", "says"), REFUSED.values(), ids=REFUSED.keys())
def test_what_is_ambiguous_or_no_fresh_deal_is_refused_saying_why(
    name: str, encoding: CardEncoding, error: type[Exception], says: str
) -> None:
    with pytest.raises(error) as caught:
        read_value(dealer(name)(617), encoding)
    assert says in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_stated_encoding_is_read_as_stated_never_fitted() -> None:
    # The wrong suit order stated: a valid board, but not deal 617's (a suit-order bug stays visible).
    cards = read_value(dealer("numeric_cards:numbered_suits")(617), CardEncoding(suits="CDHS"))
    assert sorted(cards) == list(range(52)) and cards != reference.deal(617).cards


class Odd:
    def __init__(self, **fields: object) -> None:
        self.__dict__.update(fields)


NAMES = list(reference.deal(617).names)
UNREADABLE = {
    "a rank that is no rank": ([Odd(rank="Z", suit="D"), *NAMES[1:]], "card [0]: its rank 'Z' is no rank"),
    "a suit that is no suit": ([{"rank": "J", "suit": "stars"}, *NAMES[1:]], "its suit 'stars' is no suit"),
    "text naming no card": ([*NAMES[:7], "XX", *NAMES[8:]], "card [7]: the text 'XX' names no card"),
    "a rank and no suit": ([Odd(rank="J"), *NAMES[1:]], "has a rank but no suit"),
    "numbers that are no 13 ranks": (
        [{"rank": r % 12, "suit": "CDHS"[i % 4]} for i, r in enumerate(range(52))],
        "expected the 13 values",
    ),
    "columns of the wrong sizes": ([NAMES[:26], NAMES[26:]], "groups of 26 26"),
    "an endless iterator": ((c for c in iter(int, 1)), "more than 52 items"),
    "nested a million deep": (None, "card [0]: a list where a card was expected"),
    "text over the cap": ("AC " * 400_000, "no board is longer"),
}


@pytest.mark.parametrize(("value", "says"), UNREADABLE.values(), ids=UNREADABLE.keys())
def test_an_unreadable_card_says_what_was_read_and_what_was_expected(value: object, says: str) -> None:
    if value is None:
        value = []
        for _ in range(1_000_000):
            value = [value]
    with pytest.raises(BoardError) as caught:
        read_value(value)
    assert says in str(caught.value)


class _Held:
    """A card object whose rank is a number (0- or 1-based as its board says) or a letter."""

    def __init__(self, rank: object, suit: str) -> None:
        self.rank, self.suit = rank, suit


def _held_cards(n: int, ranks: str) -> list[_Held]:
    """Deal n's cards as objects: ranks "0" 0 … 12, "1" 1 … 13, "A" letters, "dup" letters with
    the second card a copy of the first."""
    cards = reference.deal(n).cards
    if ranks in ("0", "1"):
        return [_Held(c // 4 + int(ranks), "CDHS"[c % 4]) for c in cards]
    held = [_Held("A23456789TJQK"[c // 4], "CDHS"[c % 4]) for c in cards]
    return [held[0], held[0], *held[2:]] if ranks == "dup" else held


# Boards read one after another in one process (as the runner reads them): each is read from itself,
# never as the boards before it were, however many of the same type and cards came first.
SEQUENCES = {
    "0-based ranks, then 1-based ones": [(617, "0"), (617, "0"), (617, "1"), (617, "1"), (617, "0")],
    "letters, then a duplicate card": [(1, "A"), (617, "A"), (617, "dup"), (1, "A")],
    "1-based ranks, then columns of 0-based ones": [(11982, "1"), (11982, "1"), (31999, "0c"), (31999, "0c")],
}


@pytest.mark.parametrize("boards", SEQUENCES.values(), ids=SEQUENCES.keys())
def test_each_board_in_a_run_is_read_from_itself(boards: list[tuple[int, str]]) -> None:
    for n, ranks in boards:
        cards = _held_cards(n, ranks.rstrip("c"))
        value: object = [cards[i::8] for i in range(8)] if ranks.endswith("c") else cards
        if ranks == "dup":
            with pytest.raises(BoardError, match="7D"):
                canonical_line_of(value)
            continue
        assert canonical_line_of(value) == reference.canonical_line(reference.deal(n).cards), (n, ranks)


@pytest.mark.parametrize("deal", [-1, -2])
@pytest.mark.parametrize("holder", ["cards", "deck", "dealtCards"])
def test_xps_fixed_layouts_are_deals_not_a_fresh_deck(deal: int, holder: str) -> None:
    """XP's fixed layouts run rank by rank (A A A A Q Q Q Q 3 …): a deal, never taken for the whole
    deck beside it, under a common name or any other."""
    board = reference.deal(deal, "xp")
    assert read_value({holder: list(board.names)}) == board.cards
    fresh = [r + s for r in "A23456789TJQK" for s in "CDHS"]
    assert read_value({"allCards": fresh, holder: list(board.names)}) == board.cards
