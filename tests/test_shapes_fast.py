"""The fast reading of a run's boards (`canonical_line_of`, which remembers how the cards of each
class read) gives exactly what the full reader gives each board read from nothing: the same line,
or the same error and message.  Runs of every shape the benchmarks and the test dealers return,
then boards that change shape, wrong cards, duplicates and values of mixed types."""

from __future__ import annotations

import collections
import copy
import dataclasses
import enum
import importlib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from conftest import need_compiled_reader

import reference
from harness import shapes
from harness.framing import invalid_lines
from harness.shapes import CardEncoding, canonical_line_of, line_to_check

HERE = Path(__file__).parent
for _where in (HERE.parent / "benchmarks", HERE / "dealers" / "shapes", HERE / "dealers"):
    if str(_where) not in sys.path:
        sys.path.insert(0, str(_where))

dataclass_game, enum_game, numeric_cards, shaped_dealers, text_cards = (
    cast("Any", importlib.import_module(m))
    for m in ("dataclass_game", "enum_game", "numeric_cards", "shaped_dealers", "text_cards")
)

Outcome = bytes | tuple[str, str]


@pytest.fixture(autouse=True, params=["compiled", "python"])
def reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test runs twice: with the quick readers' steady state in C (harness._cardread), and in Python alone."""
    if request.param == "python":
        monkeypatch.setattr(shapes, "_cardread", None)
    else:
        need_compiled_reader()
    return str(request.param)


Board = Callable[[], object]  # makes the value afresh (a generator is read once)


def full(value: object, encoding: CardEncoding) -> Outcome:
    """The full reader, card by card, remembering nothing."""
    shapes.forget()
    saved = shapes._fast_cards
    shapes._fast_cards = lambda flat: None
    try:
        return reference.canonical_line(shapes.read_value(value, encoding))
    except Exception as exc:
        return type(exc).__name__, _ADDRESS.sub("0x…", str(exc))
    finally:
        shapes._fast_cards = saved
        shapes.forget()


def fast(value: object, encoding: CardEncoding) -> Outcome:
    try:
        return canonical_line_of(value, encoding)
    except Exception as exc:
        return type(exc).__name__, _ADDRESS.sub("0x…", str(exc))


_ADDRESS = re.compile(r"0x[0-9a-f]+")  # where an object is (in a repr), which differs between two makings


def run_of(function: Callable[[int], object], deals: range = range(1, 6)) -> list[Board]:
    return [lambda n=n: function(n) for n in deals]  # type: ignore[misc]


def _flat(function: Callable[[int], object], n: int) -> list[object]:
    value = function(n)
    return list(value) if not isinstance(value, list) else value  # type: ignore[call-overload]


Change = Callable[[list[Any]], None]


def changed(function: Callable[[int], object], n: int, change: Change) -> Board:
    """Deal n of a dealer returning 52 cards, its list changed by `change`."""

    def board() -> object:
        cards = [copy.copy(c) for c in _flat(function, n)]
        change(cards)
        return cards

    return board


def _set(i: int, **fields: object) -> Change:
    """Card i's fields (or keys) set."""

    def change(cards: list[Any]) -> None:
        for name, value in fields.items():
            if isinstance(cards[i], dict):
                cards[i][name] = value
            else:
                setattr(cards[i], name, value)

    return change


def _aces(rank: object) -> Change:
    """Every ace's rank (1, or a 1 in a pair) made `rank`."""

    def change(cards: list[Any]) -> None:
        for i, card in enumerate(cards):
            if isinstance(card, tuple) and not hasattr(card, "_fields"):
                if card[0] == 1:
                    cards[i] = (rank, card[1])
            elif isinstance(card, dict):
                if card["rank"] == 1:
                    card["rank"] = rank
            elif card.rank == 1:
                card.rank = rank

    return change


def _kings_as_floats(cards: list[Any]) -> None:
    for card in cards:
        if card.rank == 13:
            card.rank = 13.0


def _put(i: int, card: Callable[[list[Any]], object]) -> Change:
    def change(cards: list[Any]) -> None:
        cards[i] = card(cards)

    return change


def _int_rank(cards: list[Any]) -> None:
    cards[0].rank = int(cards[0].rank)


def _no_suit(cards: list[Any]) -> None:
    del cards[7].suit


def _upper_case_key(cards: list[Any]) -> None:
    cards[6] = {"Rank": cards[6]["rank"], "suit": cards[6]["suit"]}


def _replaced(**fields: object) -> Change:
    def change(cards: list[Any]) -> None:
        cards[0] = cards[0]._replace(**fields)

    return change


def _int_rank_of_tuple(cards: list[Any]) -> None:
    cards[0] = cards[0]._replace(rank=int(cards[0].rank))


def _reversed_pair(cards: list[Any]) -> None:
    cards[0] = cards[0][::-1]


@dataclass
class Letters:
    rank: str
    suit: str


@dataclass
class Numbered:
    rank: object
    suit: str
    face_up: bool = False  # a default: a class attribute each instance shadows


class Slotted:
    __slots__ = ("code", "rank", "suit")

    def __init__(self, rank: object, suit: str) -> None:
        self.rank, self.suit = rank, suit


class Rank(enum.IntEnum):
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13


def letters(n: int) -> list[Letters]:
    return [Letters("A23456789TJQK"[c // 4], "CDHS"[c % 4]) for c in reference.deal(n).cards]


def numbered(n: int, first: int = 1) -> list[Numbered]:
    return [Numbered(c // 4 + first, "CDHS"[c % 4]) for c in reference.deal(n).cards]


def zero_based(n: int) -> list[Numbered]:
    return numbered(n, 0)


def enum_ranked(n: int) -> list[Numbered]:
    return [Numbered(Rank(c // 4 + 1), "CDHS"[c % 4]) for c in reference.deal(n).cards]


def dicts(n: int) -> list[dict[str, object]]:
    return [{"rank": c // 4 + 1, "suit": "CDHS"[c % 4]} for c in reference.deal(n).cards]


def slotted(n: int) -> list[Slotted]:
    return [Slotted(c // 4 + 1, "CDHS"[c % 4]) for c in reference.deal(n).cards]


def names(n: int) -> list[str]:
    return list(reference.deal(n).names)


def rows(function: Callable[[int], list[Any]]) -> Callable[[int], list[list[Any]]]:
    return lambda n: [function(n)[i : i + 8] for i in range(0, 52, 8)]


def columns(function: Callable[[int], list[Any]]) -> Callable[[int], list[list[Any]]]:
    return lambda n: [function(n)[i::8] for i in range(8)]


def changed_state(n: int, **fields: object) -> Board:
    def board() -> object:
        state = dataclass_game.new_game(n)
        for name, value in fields.items():
            setattr(state, name, value)
        return state

    return board


@dataclass(frozen=True)
class Frozen:
    rank: object
    suit: str


# Decks made once, dealt by index: a card that cannot change is read by its identity once read.
ZERO_BASED_DECK = [Frozen(c // 4, "CDHS"[c % 4]) for c in range(52)]
ONE_BASED_DECK = [Frozen(c // 4 + 1, "CDHS"[c % 4]) for c in range(52)]
LETTERS_DECK = [Letters("A23456789TJQK"[c // 4], "CDHS"[c % 4]) for c in range(52)]


def zero_based_deck(n: int) -> list[Frozen]:
    return [ZERO_BASED_DECK[c] for c in reference.deal(n).cards]


def one_based_deck(n: int) -> list[Frozen]:
    return [ONE_BASED_DECK[c] for c in reference.deal(n).cards]


def mixed_decks(n: int) -> list[Frozen]:
    """Cards below 26 from the 0-based deck, the others from the 1-based one: ranks 0 … 13."""
    return [(ZERO_BASED_DECK if c < 26 else ONE_BASED_DECK)[c] for c in reference.deal(n).cards]


def letters_deck(n: int, ace_of_clubs: str = "A") -> list[Letters]:
    """The letters deck, the rank of its ace of clubs first set in place (the same object)."""
    LETTERS_DECK[0].rank = ace_of_clubs
    return [LETTERS_DECK[c] for c in reference.deal(n).cards]


def _swap_first_two(cards: list[Any]) -> None:
    cards[0], cards[1] = cards[1], cards[0]


@dataclass
class Piles:
    """A game state whose tableau is under a state field late in the list (`piles`), after one
    (`cascades`) a game may leave None."""

    piles: object
    cascades: object = None
    cells: object = field(default_factory=lambda: [None] * 4)
    foundation: object = field(default_factory=lambda: {s: [] for s in "CDHS"})


def piles(n: int, **fields: object) -> Board:
    """Deal n's game state, its fields then set (or deleted, where the value is `DELETED`)."""

    def board() -> object:
        state = Piles(columns(names)(n))
        for name, value in fields.items():
            if value is DELETED:
                delattr(state, name)
            else:
                setattr(state, name, value)
        return state

    return board


DELETED = object()


class EqualToAll:
    """A value equal to anything, None included (it is not None)."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = None  # type: ignore[assignment]


class LyingList(list[object]):
    """A list equal to any other (an empty one, a list of Nones), whatever it holds."""

    def __eq__(self, other: object) -> bool:
        return True


class SlottedState:
    __slots__ = ("freecells", "tableau")

    def __init__(self, n: int) -> None:
        self.tableau, self.freecells = rows(names)(n), (None,) * 4


def slotted_state(n: int, *unset: str) -> Board:
    def board() -> object:
        state = SlottedState(n)
        for name in unset:
            delattr(state, name)
        return state

    return board


class Printed:
    """A card that names itself in str(), from its one slot (as the benchmark's `str()` cards)."""

    __slots__ = ("index",)

    def __init__(self, index: object) -> None:
        self.index = index

    def __str__(self) -> str:
        return str(reference.CARD_NAMES[cast("int", self.index)])


class Misprinted:
    """A card with the slot `Printed` has, that names the next card."""

    __slots__ = ("index",)

    def __init__(self, index: object) -> None:
        self.index = index

    def __str__(self) -> str:
        return str(reference.CARD_NAMES[(cast("int", self.index) + 1) % 52])


class Shown:
    """A card that names itself in str() from its `__dict__`, unless it was turned face down."""

    def __init__(self, index: int) -> None:
        self.index = index

    def __str__(self) -> str:
        return "??" if getattr(self, "hidden", False) else reference.CARD_NAMES[self.index]


class Faced:
    """A card that names itself in str() unless turned face down; which way up it lies is a class
    attribute its instances shadow."""

    lying = "up"

    def __init__(self, index: int) -> None:
        self.index, self.lying = index, "up"

    def __str__(self) -> str:
        return "??" if getattr(self, "down", False) else reference.CARD_NAMES[self.index]


def faced(n: int) -> list[Faced]:
    return [Faced(c) for c in reference.deal(n).cards]


def _turned_down(cards: list[Any]) -> None:
    del cards[4].lying  # as many attributes of its own as the others: the class's `lying`, and `down`
    cards[4].down = True


PRINTED_DECK = [Printed(c) for c in range(52)]


def printed(n: int, swapped: bool = False) -> list[Printed]:
    """The printed deck dealt, its first two cards' slots first set in place: swapped, or not."""
    PRINTED_DECK[0].index, PRINTED_DECK[1].index = (1, 0) if swapped else (0, 1)
    return [PRINTED_DECK[c] for c in reference.deal(n).cards]


class Sprite:
    """A card that names itself in str(); each made with a serial number of its own."""

    made = 0

    def __init__(self, index: int) -> None:
        Sprite.made += 1
        self.index, self.serial = index, Sprite.made

    def __str__(self) -> str:
        return reference.CARD_NAMES[self.index]


class Pip:
    """What a card's slot holds: an object of the game's own, hashed by its identity, that can change."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index


class Pipped:
    """A card that names itself in str() from the object in its one slot."""

    __slots__ = ("pip",)

    def __init__(self, index: int) -> None:
        self.pip = Pip(index)

    def __str__(self) -> str:
        return reference.CARD_NAMES[self.pip.index]


PIPPED_DECK = [Pipped(c) for c in range(52)]


def pipped(n: int, swapped: bool = False) -> list[Pipped]:
    """The pipped deck dealt, the objects in its first two cards' slots first changed in place: swapped, or not."""
    PIPPED_DECK[0].pip.index, PIPPED_DECK[1].pip.index = (1, 0) if swapped else (0, 1)
    return [PIPPED_DECK[c] for c in reference.deal(n).cards]


def sprites(n: int) -> list[Sprite]:
    return [Sprite(c) for c in reference.deal(n).cards]


def shown(n: int) -> list[Shown]:
    return [Shown(c) for c in reference.deal(n).cards]


def _as_float(i: int) -> Change:
    def change(cards: list[Any]) -> None:
        cards[i].index = float(cards[i].index)

    return change


def _true_for_one(cards: list[Any]) -> None:
    for card in cards:
        if card.index == 1:
            card.index = True


def _unset_slot(cards: list[Any]) -> None:
    cards[3] = Printed(0)
    del cards[3].index


class Misnamed(enum.StrEnum):
    """Suits as text whose names say another suit: each equal to (and hashed as) its letter."""

    CLUBS = "C"
    DIAMONDS = "D"
    SPADES = "H"
    HEARTS = "S"


def _misnamed_suits(cards: list[Any]) -> None:
    for card in cards:
        card.suit = Misnamed(card.suit)


def twice(function: Callable[[int], object], n: int) -> Board:
    """Deal n, in the dealer's own shape, with one card object dealt again in place of another."""

    def board() -> object:
        value = function(n)
        if dataclasses.is_dataclass(value):
            return dataclasses.replace(cast("Any", value), cascades=_groups_twice(cast("Any", value).cascades))
        if isinstance(value, list) and isinstance(value[0], list):
            return _groups_twice(value)
        cards = list(cast("list[object]", value))
        cards[5] = cards[3]
        return (card for card in cards) if not isinstance(value, list) else cards

    return board


def _groups_twice(groups: list[list[object]]) -> list[list[object]]:
    return [[groups[0][0], groups[1][0], *groups[0][2:]], *groups[1:]]


PLAIN = CardEncoding()


# -- hostile dealers: classes and values that say they are others ----------------------------------


def lying_as(cls: type, hashed: bool = True) -> type:
    """A metaclass whose classes say they are `cls`: equal to it and, where `hashed`, hashed as it
    (a set or a dict of classes then takes them for it); else unhashable."""

    def equal(self: type, other: object) -> bool:
        return other is cls or self is other

    hashing = (lambda self: hash(cls)) if hashed else None
    return type(f"LyingAs{cls.__name__}", (type,), {"__eq__": equal, "__hash__": hashing})


def liar(base: type, name: str, hashed: bool = True) -> type:
    """A subclass of `base` whose metaclass says it is `base`; its cards hold the card-name field `code`: `name`."""
    space: dict[str, object] = {"code": name}
    if base is dict:
        space = {"__iter__": lambda self: iter([*dict.keys(self), "code"]), "__missing__": lambda self, key: name}
    elif "__slots__" in vars(base):
        space["__slots__"] = ()
    return cast("type", lying_as(base, hashed)(f"Lying{base.__name__}", (base,), space))


def _as_liar(card: Any, name: str, hashed: bool = True) -> object:
    """The card, its class a liar's naming `name`."""
    cls = liar(type(card), name, hashed)
    if isinstance(card, dict | tuple):
        return cls(card) if isinstance(card, dict) else cls(*card)
    made = copy.copy(card)
    object.__setattr__(made, "__class__", cls)
    return made


class Mimic:
    """A value equal to another and hashed as it, that is not it (its `__index__` says `index`)."""

    def __init__(self, like: object, index: int) -> None:
        self.like, self.index = like, index

    def __eq__(self, other: object) -> bool:
        return bool(other == self.like)

    def __hash__(self) -> int:
        return hash(self.like)

    def __index__(self) -> int:
        return self.index


def mimic(like: object, index: int = 0, as_type: type | None = None) -> object:
    """A `Mimic` of `like`, of a class whose metaclass says it is `as_type` where one is given."""
    cls = Mimic if as_type is None else lying_as(as_type)(f"Mimic{as_type.__name__}", (Mimic,), {})
    return cls(like, index)


class Twisted(str):
    """Text equal to (and hashed as) another text: `Twisted("8H", "JD")` is "8H" and says it is "JD"."""

    def __new__(cls, text: str, like: str) -> Twisted:
        made = super().__new__(cls, text)
        made.like = like  # type: ignore[attr-defined]
        return made

    def __eq__(self, other: object) -> bool:
        return other == self.like  # type: ignore[attr-defined,no-any-return]

    def __hash__(self) -> int:
        return hash(self.like)  # type: ignore[attr-defined]


def _other(n: int, i: int) -> str:
    """The name of the card after deal n's i-th card (a name that card is not)."""
    return reference.CARD_NAMES[(reference.deal(n).cards[i] + 1) % 52]


def lied(function: Callable[[int], object], n: int, i: int, hashed: bool = True) -> Board:
    """Deal n, its i-th card (of 52) of a liar's class that says it is the card's, naming the next card."""
    return changed(function, n, _put(i, lambda cards: _as_liar(cards[i], _other(n, i), hashed)))


def _field_mimic(i: int, name: str, as_type: type | None, index: int = 0) -> Change:
    """Card i's field (or key) `name` made a mimic of its value."""

    def change(cards: list[Any]) -> None:
        card = cards[i]
        if isinstance(card, dict):
            card[name] = mimic(card[name], index, as_type)
        elif isinstance(card, tuple):
            cards[i] = card._replace(**{name: mimic(getattr(card, name), index, as_type)})  # type: ignore[attr-defined]
        else:
            object.__setattr__(card, name, mimic(getattr(card, name), index, as_type))

    return change


def _lying_key(i: int, name: str) -> Change:
    """Card i (a dict) holding its key `name` under a mimic of it (equal to it and hashed as it)."""

    def change(cards: list[Any]) -> None:
        cards[i] = {(mimic(k) if k == name else k): v for k, v in cards[i].items()}

    return change


def _in_state(n: int, change: Change) -> Board:
    """Deal n's dataclass game state, its cards (in dealing order) changed."""

    def board() -> object:
        state = dataclass_game.new_game(n)
        cards = [c for row in zip(*state.cascades, strict=False) for c in row]
        cards += [column[6] for column in state.cascades[:4]]
        change(cards)
        state.cascades = [cards[c::8][:6] + ([cards[48 + c]] if c < 4 else []) for c in range(8)]
        return state

    return board


def _lied_in_state(n: int, i: int) -> Board:
    return _in_state(n, _put(i, lambda cards: _as_liar(cards[i], _other(n, i))))


class Face(enum.Enum):
    """Ranks as a plain enum (neither number nor text): read by name."""

    ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING = range(13)


PlainCard = collections.namedtuple("PlainCard", ["rank", "suit"])


def plain_enums(n: int) -> list[object]:
    return [PlainCard(list(Face)[c // 4], list(enum_game.Suit)[c % 4]) for c in reference.deal(n).cards]


class LyingState(SlottedState, metaclass=lying_as(SlottedState)):  # type: ignore[metaclass]
    """A game state that says it is a `SlottedState`, with foundations of its own that hold a card."""

    __slots__ = ("foundations",)

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.foundations = [["AS"], [], [], []]


def names_and_a_mimic(n: int) -> list[object]:
    """Deal n's names, its tenth a mimic of its name."""
    cards: list[object] = list(names(n))
    cards[9] = mimic(cards[9])
    return cards


class Resized(list[object], metaclass=lying_as(list)):  # type: ignore[metaclass]
    """A list that says it is a list, whose length says `said`."""

    def __init__(self, items: list[object], said: int) -> None:
        super().__init__(items)
        self.said = said

    def __len__(self) -> int:
        return self.said


def resized_rows(n: int) -> list[list[object]]:
    """Deal n's names in rows of 8, 7, 8, 8, 8, 8 and 5 whose lengths say 8, …, 8, 4 (the rows' shape)."""
    cards: list[object] = list(names(n))
    return [cards[:8], Resized(cards[8:15], 8), *(cards[i : i + 8] for i in range(15, 47, 8)), Resized(cards[47:], 4)]


class Alike(enum.Enum):
    """Ranks whose members say they equal each other (and hash alike)."""

    ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING = range(13)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Alike)

    def __hash__(self) -> int:
        return 0


def alike(n: int) -> list[object]:
    return [PlainCard(list(Alike)[c // 4], list(enum_game.Suit)[c % 4]) for c in reference.deal(n).cards]


class Hiding(type):
    """A metaclass whose classes hide from a look-up on the class its `__getattr__` and a `code` slot."""

    def __getattribute__(cls, name: str) -> Any:
        if name in ("__getattr__", "code"):
            raise AttributeError(name)
        return super().__getattribute__(name)


class Lazy(metaclass=Hiding):
    """A card whose `code` is computed (`__getattr__`), where it has one."""

    def __init__(self, rank: int, suit: str, code: str | None = None) -> None:
        self.rank, self.suit, self.given = rank, suit, code

    def __getattr__(self, name: str) -> object:
        if name == "code" and self.__dict__.get("given"):
            return self.__dict__["given"]
        raise AttributeError(name)


class Unset(metaclass=Hiding):
    """A card with slots, `code` unset but where given."""

    __slots__ = ("code", "rank", "suit")

    def __init__(self, rank: int, suit: str, code: str | None = None) -> None:
        self.rank, self.suit = rank, suit
        if code is not None:
            self.code = code


def hiding(cls: type, n: int, given: int | None = None) -> list[object]:
    """Deal n of `cls` cards, the `given`-th given the name of the card after it."""
    cards = reference.deal(n).cards
    return [cls(c // 4 + 1, "CDHS"[c % 4], _other(n, i) if i == given else None) for i, c in enumerate(cards)]


def _then(function: Callable[[int], object], spoilt: list[Board], first: int = 1) -> list[Board]:
    """Two deals read, the spoilt boards, then two more deals."""
    return [*run_of(function, range(first, first + 2)), *spoilt, *run_of(function, range(first + 2, first + 4))]


def _class_and_fields_lied(function: Callable[[int], object], rank: type, suit: type, *more: Board) -> list[Board]:
    """Two deals read; then a card of a liar's class at [0] and at [5], card 5's rank and suit of a type
    that says it is theirs, and `more`; then two more deals."""
    spoilt = [
        lied(function, 3, 0),
        lied(function, 4, 5),
        changed(function, 5, _field_mimic(5, "rank", rank, 2)),
        changed(function, 6, _field_mimic(5, "suit", suit)),
    ]
    return _then(function, [*spoilt, *more])


def _zero_to(n: int) -> Callable[[list[Any]], object]:
    return lambda cards: Printed(mimic(cards[5].index, (cards[5].index + 1) % 52, int))


HOSTILE: dict[str, tuple[list[Board], CardEncoding]] = {
    "liars: str() cards of a class that says it is theirs, at [0] and [5], hashed or not, a slot's value": (
        _then(
            printed,
            [
                lied(printed, 3, 0),
                lied(printed, 4, 5),
                lied(printed, 5, 0, hashed=False),
                lied(printed, 6, 5, hashed=False),
                changed(printed, 7, _put(5, lambda cards: Printed(mimic(cards[5].index, 0, int)))),
                changed(printed, 8, _put(5, _zero_to(8))),
            ],
        ),
        PLAIN,
    ),
    "liars: frozen dataclasses, a class at [0] and [5], a rank and a suit of a type that says it is theirs": (
        _class_and_fields_lied(one_based_deck, int, str),
        PLAIN,
    ),
    "liars: dicts, a class at [0] and [5], a rank and a suit of a type that says it is theirs": (
        _class_and_fields_lied(dicts, int, str, changed(dicts, 7, _lying_key(5, "suit"))),
        PLAIN,
    ),
    "liars: dataclasses, a class at [0] and [5], a rank and a suit of a type that says it is theirs": (
        _class_and_fields_lied(numbered, int, str),
        PLAIN,
    ),
    "liars: namedtuples of enums, a class at [0] and [5], a rank and a suit of a type that says it is theirs": (
        _class_and_fields_lied(enum_game.flat, enum_game.Rank, enum_game.Suit),
        PLAIN,
    ),
    "liars: namedtuples of plain enums, a value equal to a rank, of a type that says it is its or not": (
        _then(
            plain_enums,
            [
                changed(plain_enums, 3, _field_mimic(5, "rank", None)),
                changed(plain_enums, 4, _field_mimic(5, "rank", Face)),
                changed(plain_enums, 5, _field_mimic(0, "suit", None)),
            ],
        ),
        PLAIN,
    ),
    "liars: an enum of ranks whose members say they equal each other": (_then(alike, []), PLAIN),
    "liars: classes whose metaclass hides their __getattr__ or an unset slot": (
        [
            *(lambda n=n: hiding(Lazy, n) for n in range(1, 3)),
            lambda: hiding(Lazy, 3, 5),
            *(lambda n=n: hiding(Unset, n) for n in range(4, 6)),
            lambda: hiding(Unset, 6, 5),
        ],
        PLAIN,
    ),
    "liars: game states, a card's class at [0] and [5], a rank and a suit, the state's class": (
        [
            *run_of(dataclass_game.new_game, range(1, 3)),
            _lied_in_state(3, 0),
            _lied_in_state(4, 5),
            _in_state(5, _field_mimic(5, "rank", str)),
            _in_state(6, _field_mimic(5, "suit", str)),
            *run_of(dataclass_game.new_game, range(7, 9)),
            *(slotted_state(n) for n in range(9, 11)),
            lambda: LyingState(11),
            *(slotted_state(n) for n in range(12, 14)),
        ],
        PLAIN,
    ),
    "liars: names, a value equal to a name, text equal to another, in 52, rows and columns": (
        [
            *run_of(names, range(1, 3)),
            changed(names, 3, _put(5, lambda cards: mimic(cards[5]))),
            changed(names, 4, _put(5, lambda cards: Twisted(_other(4, 5), cards[5]))),
            lambda: resized_rows(3),
            lambda: rows(names_and_a_mimic)(5),
            lambda: columns(names_and_a_mimic)(6),
            *run_of(names, range(7, 9)),
        ],
        PLAIN,
    ),
}

RUNS: dict[str, tuple[list[Board], CardEncoding]] = {
    **{f"benchmark {s}": (run_of(getattr(shaped_dealers, s)), PLAIN) for s in shaped_dealers.SHAPES},
    **{
        f"benchmark {s}, then a card twice": (
            [*run_of(getattr(shaped_dealers, s), range(1, 3)), twice(getattr(shaped_dealers, s), 3)],
            PLAIN,
        )
        for s in shaped_dealers.SHAPES
        if s != "text"
    },
    "dataclass game state": (run_of(dataclass_game.new_game), PLAIN),
    "dataclass columns": (run_of(dataclass_game.columns_only), PLAIN),
    "a card in a free cell": (run_of(dataclass_game.played), PLAIN),
    "namedtuple of enums, column objects": (run_of(enum_game.deal), PLAIN),
    "namedtuple of enums, 52": (run_of(enum_game.flat), PLAIN),
    "dicts yielded, 0-based": (run_of(numeric_cards.zero_based), PLAIN),
    "pairs, ace high": (run_of(numeric_cards.ace_high), PLAIN),
    "dicts of digits": (run_of(numeric_cards.one_based_strings), PLAIN),
    "numbered suits, stated": (run_of(numeric_cards.numbered_suits), CardEncoding(suits="SHDC")),
    "numbered suits, unstated": (run_of(numeric_cards.numbered_suits), PLAIN),
    "card numbers": (run_of(numeric_cards.card_numbers), CardEncoding("suit-major", "SHDC")),
    "card numbers, rank-major": (run_of(numeric_cards.rank_major_numbers), CardEncoding("rank-major", "CDHS")),
    "__str__ symbols": (run_of(text_cards.symbols), PLAIN),
    "__str__ words": (run_of(text_cards.words), PLAIN),
    "blackjack": (run_of(text_cards.blackjack), PLAIN),
    "board whose str() prints it": (run_of(text_cards.Board), PLAIN),
    "shape changes: rows, columns, 52, text, generator": (
        [
            lambda: rows(names)(1),
            lambda: columns(names)(2),
            lambda: names(3),
            lambda: reference.deal(4).format("rows"),
            lambda: iter(names(5)),
            lambda: rows(letters)(6),
            lambda: columns(letters)(7),
            lambda: letters(8),
            lambda: rows(names)(9)[:6],
        ],
        PLAIN,
    ),
    "names: then lower case, 10, symbols, a duplicate, a word, a list, a dict": (
        [
            *run_of(names, range(1, 3)),
            lambda: [n.lower() for n in names(3)],
            lambda: [n.replace("T", "10") for n in names(4)],
            lambda: [n[0] + "♣♦♥♠"["CDHS".index(n[1])] for n in names(5)],
            lambda: [names(6)[1], *names(6)[1:]],
            lambda: [*names(7)[:51], "XX"],
            lambda: [*names(7)[:51], ["KS"]],  # a list where a card was expected
            lambda: [*names(7)[:51], {"rank": "K", "suit": "S"}],
            lambda: [*rows(names)(8)[:6], [*names(8)[48:], ["KS"]]],
            *run_of(names, range(8, 10)),
        ],
        PLAIN,
    ),
    "text: rows, columns, one line, then lower case, 10, a duplicate, a header, symbols": (
        [
            lambda: reference.deal(1).format("rows"),
            lambda: reference.deal(2).format("columns"),
            lambda: reference.deal(3).line,
            lambda: reference.deal(4).format("rows").lower(),
            lambda: reference.deal(5).format("rows").replace("T", "10"),
            lambda: reference.deal(6).format("rows").replace(reference.deal(6).names[1], reference.deal(6).names[0]),
            lambda: "Game #7\n" + reference.deal(7).format("rows"),
            lambda: "".join(n[0] + "♣♦♥♠"["CDHS".index(n[1])] + " " for n in reference.deal(8).names),
            lambda: reference.deal(9).format("rows"),
            lambda: reference.deal(10).format("rows").rstrip("\n"),
            lambda: reference.deal(11).format("columns").rstrip("\n"),
            lambda: reference.deal(12).format("rows").replace(" ", "\t"),
            lambda: reference.deal(13).format("rows").replace("\n", "\r\n"),
            lambda: reference.deal(14).format("rows") + "\n",
            lambda: (
                reference.deal(15).format("rows").replace(" ", "  ", 1).replace(" " + reference.deal(15).names[7], "")
            ),
            lambda: (
                reference.deal(16).format("columns").replace(reference.deal(16).names[3], reference.deal(16).names[9])
            ),
            lambda: reference.deal(17).format("columns"),
        ],
        PLAIN,
    ),
    "game states: then a card in a free cell, in a foundation, a number in a cell": (
        [
            *run_of(dataclass_game.new_game, range(1, 3)),
            changed_state(3, freecells=[None, "AS", None, None]),
            changed_state(4, foundations=[[], ["AS"], [], []]),
            changed_state(5, freecells=[None, 0, None, None]),
            changed_state(6, freecells=[None] * 4, foundations=[[], [], [], []]),
            changed_state(7, freecells=[], foundations=()),
            *run_of(dataclass_game.new_game, range(8, 10)),
        ],
        PLAIN,
    ),
    "game states learnt per class: then another tableau field set, a card in a cell, fields deleted": (
        [
            *(piles(n) for n in range(1, 3)),
            piles(3, cascades=rows(names)(4)),  # a state field before `piles` now holds a board
            piles(5, cascades=[]),
            piles(6, cascades=EqualToAll()),
            piles(6, tableau=rows(names)(7)),  # an attribute the first instance had not
            piles(8, cells=[None, "AS", None, None]),
            piles(9, foundation={"C": ["AC"], "D": [], "H": [], "S": []}),
            piles(10, foundation={"C": [], "D": [], "H": None, "S": []}),
            piles(11, cells=(None,) * 4, foundation=[[], [], [], []]),
            piles(12, cells=[[], None]),
            piles(13, cells=DELETED),
            piles(14, piles=None, cascades=None),
            piles(15, piles=None, cascades=columns(names)(15)),
            piles(16, piles=DELETED, cascades=rows(names)(16)),
            *(piles(n) for n in range(17, 19)),
            # empty fields that a quick comparison with the first instance's could take for empty
            piles(24, cells=[None, None, EqualToAll(), None]),
            piles(25, foundation={"C": [], "D": [EqualToAll()], "H": [], "S": []}),
            piles(26, cells=LyingList(["AS", None, None, None])),
            piles(27, foundation={"C": [], "D": LyingList(["2D"]), "H": [], "S": []}),
            piles(28, cells=[None, None, None, None, None]),
            piles(29, cells=(None,) * 4),
            piles(30, foundation={"C": [], "D": [], "H": [], "S": [], "X": ["KS"]}),
            piles(31, foundation={"C": [], "D": [], "H": [], "S": [None]}),
            *(piles(n) for n in range(32, 34)),
            *(slotted_state(n) for n in range(19, 21)),
            slotted_state(21, "freecells"),
            slotted_state(22, "tableau"),
            slotted_state(23),
        ],
        PLAIN,
    ),
    "str() cards keyed by their slot: then a float slot, a duplicate, an unset slot, 51 and 53 cards": (
        [
            *run_of(printed, range(1, 3)),
            changed(printed, 3, _as_float(5)),
            changed(printed, 4, _true_for_one),
            changed(printed, 5, _put(1, lambda cards: cards[0])),
            changed(printed, 6, _unset_slot),
            lambda: printed(7)[:51],
            lambda: [*printed(8), PRINTED_DECK[0]],
            lambda: columns(printed)(9),
            *run_of(rows(printed), range(10, 12)),
            lambda: printed(12, swapped=True),  # the same objects, two of them changed in place
            *run_of(printed, range(13, 15)),
            changed(printed, 15, _put(2, lambda cards: Misprinted(cards[2].index))),
            changed(printed, 16, _put(51, lambda cards: Misprinted(cards[51].index))),
            changed(printed, 17, _as_float(50)),
            *run_of(rows(printed), range(19, 21)),
        ],
        PLAIN,
    ),
    "str() cards keyed by their __dict__: then one face down, an attribute removed, a class swapped": (
        [
            *run_of(shown, range(1, 3)),
            changed(shown, 3, _set(7, hidden=True)),
            changed(shown, 4, _set(7, hidden=False)),
            changed(shown, 5, _as_float(7)),
            changed(shown, 6, _put(2, lambda cards: Printed(cards[2].index))),
            *run_of(shown, range(7, 9)),
        ],
        PLAIN,
    ),
    "str() cards keyed by an object in their slot: then that object changed in place": (
        [*run_of(pipped, range(1, 3)), lambda: pipped(3, swapped=True), *run_of(pipped, range(4, 6))],
        PLAIN,
    ),
    "str() cards with a serial number each: read by their text from the fifth deal on": (
        [
            *run_of(sprites, range(1, 7)),
            changed(sprites, 7, _put(3, lambda cards: cards[4])),
            changed(sprites, 8, _put(3, lambda cards: Printed(cards[3].index))),
            *run_of(sprites, range(9, 11)),
        ],
        PLAIN,
    ),
    "str() cards whose attribute shadows their class's: then one turned down": (
        [*run_of(faced, range(1, 3)), changed(faced, 3, _turned_down), *run_of(faced, range(4, 6))],
        PLAIN,
    ),
    "letters: then a duplicate, a wrong rank, a missing suit, another field": (
        [
            *run_of(letters, range(1, 4)),
            changed(letters, 4, _put(1, lambda cards: copy.copy(cards[0]))),
            changed(letters, 5, _set(3, rank="Z")),
            changed(letters, 6, _no_suit),
            changed(letters, 8, _set(2, extra=1)),
            changed(letters, 9, _misnamed_suits),  # equal to the letters read before, read by name
            lambda: [(c.rank, Misnamed(c.suit)) for c in letters(10)],
            lambda: [(c.rank, c.suit) for c in letters(11)],
            lambda: [(c.rank, Misnamed(c.suit)) for c in letters(12)],
            *run_of(letters, range(9, 11)),
        ],
        PLAIN,
    ),
    "1-based numbers: then True for 1, an IntEnum, 0-based, letters beside numbers, floats": (
        [
            *run_of(numbered, range(1, 4)),
            changed(numbered, 4, _aces(True)),
            *run_of(enum_ranked, range(5, 7)),
            changed(enum_ranked, 7, _int_rank),
            *run_of(zero_based, range(8, 10)),
            changed(numbered, 10, _aces("A")),
            changed(numbered, 11, _kings_as_floats),
            changed(numbered, 12, _set(3, face_up=True)),
            *run_of(numbered, range(14, 16)),
        ],
        PLAIN,
    ),
    "dicts: then an extra name key, an upper-case key, True for 1, a string among them": (
        [
            *run_of(dicts, range(1, 3)),
            changed(dicts, 3, _set(4, id="QH")),
            changed(dicts, 4, _upper_case_key),
            changed(dicts, 5, _aces(True)),
            changed(dicts, 6, _put(9, lambda cards: "AC")),
            changed(dicts, 7, _swap_first_two),
            *run_of(dicts, range(8, 10)),
        ],
        PLAIN,
    ),
    # A card-name field given to one card is read from it (preferred) where its class has that slot;
    # an instance of a class with a __dict__ given a field its class's first card lacked is read
    # as that first card was (harness.shapes, "reading many cards at once").
    "slotted cards: then a card-name slot set on one": (
        [
            *run_of(slotted, range(1, 3)),
            changed(slotted, 3, _set(0, code="2C")),
            *run_of(slotted, range(4, 6)),
        ],
        PLAIN,
    ),
    "namedtuples of enums: then a plain int rank": (
        [
            *run_of(enum_game.flat, range(1, 3)),
            changed(enum_game.flat, 3, _int_rank_of_tuple),
            changed(enum_game.flat, 4, _replaced(rank=True)),
            *run_of(enum_game.flat, range(5, 7)),
        ],
        PLAIN,
    ),
    "frozen cards from decks: 0-based, 1-based, 0-based again, mixed, a card remade": (
        [
            *run_of(zero_based_deck, range(1, 4)),
            *run_of(one_based_deck, range(4, 7)),
            *run_of(zero_based_deck, range(7, 9)),
            *run_of(mixed_decks, range(9, 10)),
            changed(one_based_deck, 10, _put(5, lambda cards: Frozen(13, cards[5].suit))),
            changed(one_based_deck, 11, _put(5, lambda cards: Frozen(cards[5].rank, cards[5].suit))),
            *run_of(one_based_deck, range(12, 14)),
        ],
        PLAIN,
    ),
    "mutable cards from one deck: then one changed in place": (
        [
            *run_of(letters_deck, range(1, 4)),
            lambda: letters_deck(4, "K"),
            *run_of(letters_deck, range(5, 7)),
        ],
        PLAIN,
    ),
    "pairs: then True for 1, a reversed pair": (
        [
            *run_of(numeric_cards.ace_high, range(1, 3)),
            changed(numeric_cards.ace_high, 3, _aces(True)),
            changed(numeric_cards.ace_high, 4, _reversed_pair),
            *run_of(numeric_cards.ace_high, range(5, 7)),
        ],
        PLAIN,
    ),
    **HOSTILE,
}


@pytest.mark.parametrize(("boards", "encoding"), RUNS.values(), ids=RUNS.keys())
def test_a_run_read_fast_reads_each_board_as_the_full_reader_does(boards: list[Board], encoding: CardEncoding) -> None:
    shapes.forget()
    got = [fast(board(), encoding) for board in boards]  # one run: each board read after the ones before
    want = [full(board(), encoding) for board in boards]  # each read from nothing
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"board {i}"


def test_the_runs_hold_lines_and_failures() -> None:
    """The table is no table of errors only: most boards read, and the odd ones fail."""
    outcomes = [full(board(), encoding) for boards, encoding in RUNS.values() for board in boards]
    lines = sum(isinstance(o, bytes) for o in outcomes)
    assert lines > len(outcomes) * 2 // 3 and len(outcomes) - lines >= 20


def checked_by_caller(value: object, encoding: CardEncoding) -> Outcome:
    try:
        return line_to_check(value, encoding)
    except Exception as exc:
        return type(exc).__name__, _ADDRESS.sub("0x…", str(exc))


@pytest.mark.parametrize(("boards", "encoding"), RUNS.values(), ids=RUNS.keys())
def test_a_run_read_for_a_caller_that_checks_repeats_reads_each_board_as_the_full_reader_does(
    boards: list[Board], encoding: CardEncoding
) -> None:
    """`line_to_check` (what the `py:` runner sends when it writes many answers at once) gives the full
    reader's line or error, or, where the full reader finds cards repeated, a line that the parent's
    check refuses (the parent then has that board read again by `canonical_line_of`)."""
    shapes.forget()
    got = [checked_by_caller(board(), encoding) for board in boards]
    want = [full(board(), encoding) for board in boards]
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        if isinstance(g, bytes) and not isinstance(w, bytes):
            assert "repeated" in w[1] and invalid_lines([g]) == [0], f"board {i}: {w}"
        else:
            assert g == w, f"board {i}"


def test_the_runs_hold_boards_whose_repeats_are_left_to_the_caller() -> None:
    """The table holds boards read the quick way whose cards repeat, of objects as well as of names."""
    left: list[type] = []
    for boards, encoding in RUNS.values():
        shapes.forget()
        for board in boards:
            line = checked_by_caller(board(), encoding)
            if isinstance(line, bytes) and invalid_lines([line]):
                flat = [*_cards(board())]
                left.append(type(flat[0]))
    assert {str, shaped_dealers.Card, shaped_dealers.EnumCard, dict, shaped_dealers.StrCard} <= set(left), left


def _cards(value: object) -> list[object]:
    """A board's cards, in whatever shape (for telling what they are)."""
    if isinstance(value, list | tuple) and isinstance(value[0], list | tuple) and not hasattr(value[0], "_fields"):
        return [c for group in value for c in group]
    if hasattr(value, "cascades"):
        return _cards(value.cascades)
    return list(cast("list[object]", value))


def _all_unhashable(n: int) -> list[object]:
    """Deal n's printed cards, every one of one class that says it is `Printed` (and cannot be hashed)."""
    cls = liar(Printed, "AS", hashed=False)
    return [cls(card.index) for card in printed(n)]


@pytest.mark.parametrize("where", [0, 5, None])
def test_an_unhashable_class_that_says_it_is_the_cards_is_left_to_the_precise_reader(where: int | None) -> None:
    """A class whose metaclass says it equals the cards' (and so cannot be hashed), one card's or
    every card's: the quick ways give no line and raise nothing, for the precise reader to decide
    (which Python's own `isinstance` of an abstract class fails on, as it fails on such a class anywhere)."""
    shapes.forget()
    for n in (1, 2):
        line_to_check(printed(n))
    board = cast("list[object]", lied(printed, 3, where, hashed=False)() if where is not None else _all_unhashable(3))
    assert shapes._line_to_check(board, PLAIN) is None
    assert shapes._fast_line(board, PLAIN) is None
    assert shapes._fast_cards(board) is None
