"""Reading what a dealer returned (SPEC.md, "Board shapes"): one layered reader.

The shape layer finds the 52 cards: board text; rows, columns or 52 cards in any sequence or
iterable (generators included); or a game state holding the tableau under a common name
(`cascades`, `tableau`, `columns`, …) with empty free cells and foundations, or whose `str()`
prints it.  The card layer reads each card: a name (`"JD"`, `"10♦"`, `"Jack of Diamonds"`), an
object, dict, dataclass or namedtuple with a card-name field (`id`, `code`, `name`, `short`) or
a rank and a suit field (letters, symbols, words, enums or numbers), a `(rank, suit)` pair, or
anything whose `str()` names one card.

A representation is read from itself, never fitted to the expected board: numeric ranks are 0-,
1-based or ace-high as the 13 values of the board itself say.  What stays ambiguous — suits as
bare numbers, cards as bare numbers — is `AmbiguousCards` unless the encoding was stated
(`--suits`, `--cards`).

Speed (`canonical_line_of`, what the `py:` runner calls): the cards of each class are read by a kind
learned from the first one (which fields to take, at C speed), each distinct key is read once by the
full reader and remembered, and a deck whose numbers were decided names its keys at once; a board
costs a few look-ups per card. Cards that cannot change (enum members, frozen dataclasses and
namedtuples of plain values) are then named by their identity alone; cards that name themselves in
str() are keyed by the values of their own attributes (their slots, or every key of their
`__dict__`) while these are text, numbers or enum members, their text taken to be what their class
makes of those (a `__str__` that reads anything else — a global, a class attribute changed later —
is not read again for values already seen); a game state's class is learnt once (which field holds
the tableau, which must be empty); board text of canonical names one character apart is read by its
lines' lengths. Whatever a kind cannot vouch for goes to the full reader, so that both give the same
line or the same error (tests/test_shapes_fast.py).  `line_to_check` is the same reading for a caller
that checks every line's 52 cards itself (the `py:` runner writing many answers at once): its quick
ways leave out the one check that the 52 names differ, and nothing else.  Where the package was built
with its C extension (`harness._cardread`), a board of a learnt kind is read by it in one pass
(`_compiled_line`): the same checks and look-ups as the Python steady state, which reads whatever
the C hands back.
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
import marshal
import numbers
import os
import re
import reprlib
import types
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence, Sized
from dataclasses import dataclass
from operator import attrgetter, is_, itemgetter
from typing import Any, Final, cast

from harness.errors import BoardError
from reference.cards import (
    CARD_NAMES,
    COLUMN_ORDER,
    COLUMN_SHAPE,
    DECK_SIZE,
    RANKS,
    ROW_SHAPE,
    SHAPES,
    SUITS,
    canonical_line,
)

try:
    from harness import _cardread
except ImportError:  # built where no C compiler was: every board is read in Python, to the same line
    _cardread = None  # type: ignore[assignment]
if os.environ.get("FREECELL_NO_COMPILED"):  # to read in Python alone (and compare): inherited by py: runners
    _cardread = None  # type: ignore[assignment]

CARD_ORDERS: Final = ("rank-major", "suit-major")
MAX_TEXT_CHARS: Final = 1 << 20  # board text longer than this is no board (never cut to fit)
MAX_DEPTH: Final = 4  # game state → tableau → column → card


class AmbiguousCards(BoardError):
    """The cards could mean more than one board: the encoding must be stated (an option names it)."""


@dataclass(frozen=True, slots=True)
class CardEncoding:
    """What bare numbers mean, as the user stated it: `--cards` and `--suits`."""

    cards: str | None = None  # "rank-major" (card = rank·4 + suit) or "suit-major" (suit·13 + rank)
    suits: str | None = None  # a permutation of "CDHS": the suits numbered 0 (or 1), 1, 2, 3

    def __post_init__(self) -> None:
        if self.cards is not None and self.cards not in CARD_ORDERS:
            raise ValueError(f"--cards {self.cards!r}: choose one of {', '.join(CARD_ORDERS)}")
        if self.suits is not None and sorted(self.suits.upper()) != sorted(SUITS):
            raise ValueError(
                f"--suits {self.suits!r}: expected the four letters CDHS in the order of the suits' numbers"
            )


PLAIN: Final = CardEncoding()

# -- the card layer ------------------------------------------------------------------------------

_RANK_WORDS: Final = {
    **{r.lower(): i for i, r in enumerate(RANKS)},
    "10": 9,
    "ace": 0,
    "two": 1,
    "three": 2,
    "four": 3,
    "five": 4,
    "six": 5,
    "seven": 6,
    "eight": 7,
    "nine": 8,
    "ten": 9,
    "jack": 10,
    "knave": 10,
    "queen": 11,
    "king": 12,
}
_SUIT_WORDS: Final = {
    **{s.lower(): i for i, s in enumerate(SUITS)},
    **{
        w: i
        for i, ws in enumerate((("club", "clubs"), ("diamond", "diamonds"), ("heart", "hearts"), ("spade", "spades")))
        for w in ws
    },
    **{sym: SUITS.index(s) for sym, s in zip("♣♦♥♠♧♢♡♤", "CDHSCDHS", strict=True)},
}
_OF = re.compile(r"\s*(\w+)\s+of\s+(\w+|[♣♦♥♠♧♢♡♤])\s*", re.IGNORECASE)

# Every plain spelling of every card, for the common case of a card name: one look-up.
_NAMED: Final[dict[str, int]] = {}
for _card, _name in enumerate(CARD_NAMES):
    _r, _s = _name[0], _name[1]
    for _rank in {_r, _r.lower(), *(("10",) if _r == "T" else ())}:
        for _suit in (_s, _s.lower(), "♣♦♥♠"["CDHS".index(_s)], "♧♢♡♤"["CDHS".index(_s)]):
            _NAMED[_rank + _suit] = _NAMED[_suit + _rank] = _card

NAME_FIELDS: Final = ("id", "code", "name", "short", "short_name", "label", "abbr")
RANK_FIELDS: Final = ("rank", "value", "face", "number", "pips")
SUIT_FIELDS: Final = ("suit", "suite", "suit_name")
STATE_FIELDS: Final = ("cascades", "tableau", "columns", "stacks", "piles", "board", "cards", "deck", "deal")
EMPTY_FIELDS: Final = (
    "freecells",
    "free_cells",
    "freeCells",
    "cells",
    "reserve",
    "foundations",
    "foundation",
    "homecells",
)

# A card's parts, before the board decides what numbers mean: a rank 0 … 12 (A … K) or, for a
# number n, NUMBER - n; a suit 0 … 3 (C D H S) or NUMBER - n.  A whole card given as a number n is
# (CARD_NUMBER, n).
NUMBER: Final = -1
CARD_NUMBER: Final = -1000
Parts = tuple[int, int]


class _Unreadable(Exception):
    """This value is not a card; the message says what was read and what was expected."""


def _number(value: object) -> int | None:
    """A whole number given as an int (not a bool), another integer type (NumPy's) or as digits; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return int(value)
    if isinstance(value, str):
        return int(value) if value.strip().isdigit() and value.strip().isascii() else None
    if isinstance(value, numbers.Integral) and not isinstance(value, enum.Enum):
        return int(value)
    return None


def _enum_word(value: enum.Enum) -> object:
    return value.name if value.name.lower() in _RANK_WORDS or value.name.lower() in _SUIT_WORDS else value.value


def _rank_part(value: object, field: str) -> int:
    if isinstance(value, enum.Enum):
        value = _enum_word(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _RANK_WORDS and not word.isdigit():
            return _RANK_WORDS[word]
    n = _number(value)
    if n is not None:
        return NUMBER - n
    raise _Unreadable(f"its {field} {value!r} is no rank (expected A 2 … 10 J Q K, a word such as 'jack', or a number)")


def _suit_part(value: object, field: str) -> int:
    if isinstance(value, enum.Enum):
        value = _enum_word(value)
    if isinstance(value, str) and value.strip().lower() in _SUIT_WORDS:
        return _SUIT_WORDS[value.strip().lower()]
    n = _number(value)
    if n is not None:
        return NUMBER - n
    raise _Unreadable(
        f"its {field} {value!r} is no suit (expected C D H S, ♣ ♦ ♥ ♠, a word such as 'hearts', or a number)"
    )


def _name_parts(text: str) -> Parts | None:
    """The card a text names ("JD", "10♦", "♦J", "Jack of Diamonds"), else None."""
    if type(text) is not str:
        text = str.__str__(text)  # its characters (a str subclass may say it equals another text)
    card = _NAMED.get(text)
    if card is None:
        card = _NAMED.get(text.strip())
    if card is not None:
        return card // 4, card % 4
    if (m := _OF.fullmatch(text)) is not None:
        rank, suit = m[1].lower(), m[2].lower()
        if rank in _RANK_WORDS and suit in _SUIT_WORDS:
            return _RANK_WORDS[rank], _SUIT_WORDS[suit]
    if len(text) > 80:
        return None
    from harness.cards import read_line  # the lenient reader (and NumPy) only when a name is odd

    line = read_line(text, 1)
    if len(line.cards) == 1 and not line.stray and not line.words:
        return line.cards[0] // 4, line.cards[0] % 4
    return None


def _fields(value: object) -> Callable[[str], object] | None:
    """How to read a field of a card-like value (a dict's keys, an object's attributes)."""
    if isinstance(value, Mapping):
        keys = {str(k).lower(): k for k in value}
        return lambda name: value[keys[name]] if name in keys else _MISSING
    if hasattr(value, "__dict__") or hasattr(type(value), "__slots__") or hasattr(value, "_fields"):
        return lambda name: getattr(value, name, _MISSING)
    return None


_MISSING: Final = object()


def _custom_str(value: object) -> bool:
    cls = type(value)
    return cls.__str__ is not object.__str__ or cls.__repr__ is not object.__repr__


def card_parts(value: object) -> Parts:
    """The parts of one card, read from the value alone; _Unreadable saying what was read."""
    if isinstance(value, str):
        parts = _name_parts(value)
        if parts is None:
            raise _Unreadable(f"the text {_short(value)} names no card (expected e.g. 'JD', '10♦', 'Jack of Diamonds')")
        return parts
    if isinstance(value, enum.Enum):  # a member named for its card (`Card.JD = 41`) is that card, whatever its value
        parts = (_name_parts(value.value) if isinstance(value.value, str) else None) or _name_parts(value.name)
        if parts is not None:
            return parts
    if (n := _number(value)) is not None and not isinstance(value, str):
        return CARD_NUMBER, n
    if isinstance(value, tuple) and not hasattr(value, "_fields") and len(value) == 2:
        first, second = value
        try:
            return _rank_part(first, "rank"), _suit_part(second, "suit")
        except _Unreadable:
            try:
                return _rank_part(second, "rank"), _suit_part(first, "suit")
            except _Unreadable:
                raise _Unreadable(f"the pair {_short(value)} is no (rank, suit)") from None
    get = _fields(value)
    if get is not None:
        for name in NAME_FIELDS:
            named = get(name)
            if isinstance(named, str) and (parts := _name_parts(named)) is not None:
                return parts
        rank = next(((f, v) for f in RANK_FIELDS if (v := get(f)) is not _MISSING), None)
        suit = next(((f, v) for f in SUIT_FIELDS if (v := get(f)) is not _MISSING), None)
        if rank is not None and suit is not None:
            return _rank_part(rank[1], rank[0]), _suit_part(suit[1], suit[0])
        if rank is not None or suit is not None:
            has = "rank" if rank is not None else "suit"
            lacks = "suit (suit)" if rank is not None else f"rank ({' / '.join(RANK_FIELDS[:3])})"
            raise _Unreadable(f"{_short(value)} has a {has} but no {lacks}")
    if isinstance(value, Iterable | Mapping):
        raise _Unreadable(f"a {type(value).__name__} where a card was expected: {_short(value)}")
    if _custom_str(value):
        text = str(value)
        parts = _name_parts(text)
        if parts is not None:
            return parts
        raise _Unreadable(f"its text {_short(text)} names no card")
    raise _Unreadable(
        f"{_short(value)} is no card (expected a name such as 'JD', a {' / '.join(RANK_FIELDS[:3])} and a suit, "
        f"a card-name field ({', '.join(NAME_FIELDS[:4])}), or a str() that names one)"
    )


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother, _REPR.maxlist, _REPR.maxtuple, _REPR.maxdict = 2, 50, 50, 4, 4, 4


def _short(value: object) -> str:
    try:
        text = _REPR.repr(value)
    except Exception as exc:  # a repr that raises is the dealer's: say so, never let it escape
        text = f"<{type(value).__name__} whose repr raised {type(exc).__name__}>"
    return text if len(text) <= 60 else text[:57] + "…"


# -- reading many cards at once: a kind per class, and what each representation was read as -----
#
# A card is read by `card_parts` from what it holds: its text, or the values of its fields.  A
# `_Kind` gathers those values for all the cards of one class at C speed (a key per card) and
# remembers each key's reading, so that a board costs a few look-ups per card.  A key stands for
# its card only while it holds all the card says: every card field the first card of its class
# has (a dict: every key, and no more), and values that are equal but read differently (`True`
# and `1`, an IntEnum member and its int) never meet in the keys (`_same_types`).  Whatever a
# kind cannot vouch for is read card by card.  One thing it does not look for: an instance given
# a card field (a name such as `code`, or a rank or suit field listed before the one read) that
# the first card of its class lacked.  Telling that would mean making each instance's `__dict__`,
# which costs more than reading the card (slotted classes and namedtuples cannot differ so).


@dataclass(slots=True)
class _Kind:
    """How the cards of one class are read quickly."""

    cls: type  # the class whose cards it reads
    key: Callable[[object], Hashable] | None  # None: the card itself is its key
    tuples: bool  # the keys hold values of some types (tuples of them, or one value where `single`)
    sized: int | None = None  # dicts: how many keys each has (the key holds them all)
    single: bool = False  # the key is one value, not a tuple of them
    own: int | None = None  # objects read by str(): how many attributes each `__dict__` holds (the key holds them all)
    # Read by str() but keyed by their attributes: where these prove to be no deck's own (more
    # distinct keys than a few decks have: a serial number, a position), keyed by the text instead.
    texts: bool = False
    unchanging: bool = True  # texts: every attribute value seen is of a type whose values cannot change
    # The types of the values in its known keys, no two of one family (1, True, 1.0 and an IntEnum
    # member are equal and hash alike; so are "H" and a str enum member "H"), and their ids: a key
    # is looked up only once each of its values is of one of these types, told by identity (a type
    # whose metaclass says it equals another, or a value that says it equals another, is no key).
    seen: tuple[type, ...] = ()
    seen_ids: frozenset[int] = frozenset()
    # Where each place in the keys has held values of one type: those types, in order (a board's
    # values are then checked against them in one pass); None: checked against `seen_ids`.
    columns: tuple[type, ...] | None = None
    known: dict[Hashable, int | Parts] = dataclasses.field(default_factory=dict)
    named: dict[Hashable, bytes] = dataclasses.field(default_factory=dict)  # the names of keys that are cards
    decided: dict[Hashable, bytes] = dataclasses.field(default_factory=dict)  # the names of a decided deck's keys
    decided_for: tuple[str | None, str | None] | None = None  # the encoding they were decided with
    # Cards that cannot change what they say (enum members; namedtuples and frozen dataclasses whose
    # card fields are all fields, holding text, whole numbers or enum members) are named by their
    # identity once read: `by_id` holds the names of such cards whose readings were cards outright,
    # `decided_by_id` those named by `decided` (emptied whenever it changes: 52 of them are then
    # that deck's 52 keys), and `held` keeps each alive, so that no other object can take its id.
    lasting: bool = False
    by_id: dict[int, bytes] = dataclasses.field(default_factory=dict)
    decided_by_id: dict[int, bytes] = dataclasses.field(default_factory=dict)
    held: list[object] = dataclasses.field(default_factory=list)
    # The getters of each field its key holds, where it holds two or more: a board's keys are then
    # read field by field (`_named_by_fields`), their types looked at a field at a time.
    fields: tuple[Callable[[object], object], ...] | None = None
    # The names of the fields its key holds, in order, where it is keyed by them (`fields`, or
    # `single`); and `named` and `decided` as one level of dicts per field (`_cardread.line` reads
    # them so, with no tuple made per card), kept with them where the key holds two or more.
    names: tuple[str, ...] = ()
    positional: bool = False  # namedtuples: keyed by themselves, their items in `names`' order
    named_levels: dict[object, Any] = dataclasses.field(default_factory=dict)
    decided_levels: dict[object, Any] = dataclasses.field(default_factory=dict)
    marshalled: bool = True  # dicts: whether their values have been such as `marshal` writes (`_plain_dicts`)


# Each class's kind, by the class's id (the entry holds the class, so no other takes that id): a
# look-up by the class itself would take for it a class whose metaclass says it equals it.
_KINDS: dict[int, tuple[type, _Kind | None]] = {}
_MAX_KNOWN: Final = 1 << 12
_MAX_KINDS: Final = 256
_MAX_TEXT_KEYS: Final = 4 * DECK_SIZE
_CARD_FIELDS: Final = (*NAME_FIELDS, *RANK_FIELDS, *SUIT_FIELDS)


def _kind_for(card: object) -> _Kind | None:
    """The kind of cards of this one's class; None when they must be read one by one."""
    cls = type(card)
    if cls is str or cls is int or cls is tuple or isinstance(card, enum.Enum):
        if not _honest(cls):
            return None  # an enum whose members say they equal others: each is read
        return _Kind(cls, None, cls is tuple, lasting=isinstance(card, enum.Enum))
    if isinstance(card, tuple) and hasattr(card, "_fields"):
        if not _honest(cls) or getattr(cls, "__iter__", None) is not tuple.__iter__:
            return None  # a key that compares or gives its items otherwise than a tuple does
        named = card._fields
        positional = type(named) is tuple and len(named) == len(card) and all(type(n) is str for n in named)
        return _Kind(  # keyed by its items
            cls,
            None,
            True,
            lasting=_only_fields(cls, cast("tuple[str, ...]", named)),
            names=cast("tuple[str, ...]", named) if positional else (),
            positional=positional,
        )
    if cls is dict:
        keys = [k for k in cast("dict[object, object]", card) if type(k) is str]
        if not keys or len(keys) != len(cast("dict[object, object]", card)):
            return None
        # every key, and as many: the same keys
        return _Kind(
            cls, _getter(itemgetter, keys), True, len(keys), fields=_field_getters(itemgetter, keys), names=tuple(keys)
        )
    if isinstance(card, Iterable | Mapping) or _dynamic(cls):
        return None
    if any(_class_has(cls, n) and not hasattr(card, n) for n in _CARD_FIELDS):
        return None  # a field of its class this card has not (an unset slot): another card may have it
    names = [n for n in _CARD_FIELDS if hasattr(card, n)]
    if names:
        params = _class_attr(cls, "__dataclass_params__")
        frozen = (
            dataclasses.is_dataclass(cls)
            and getattr(cls, "__dataclass_params__", None) is params  # as its metaclass says, too
            and getattr(cls, "__dataclass_fields__", None) is _class_attr(cls, "__dataclass_fields__")
            and bool(cast("Any", params).frozen)
        )
        fields = tuple(f.name for f in dataclasses.fields(cast("Any", cls))) if frozen else ()
        return _Kind(
            cls,
            _getter(attrgetter, names),
            True,
            lasting=frozen and _only_fields(cls, fields),
            fields=_field_getters(attrgetter, names),
            names=tuple(names),
        )
    if _custom_str(card):
        return _str_kind(card)  # its text names it
    return None


def _str_kind(card: object) -> _Kind:
    """Cards whose text names them, keyed by the values of their own attributes (their slots, or
    every key of their `__dict__`) where they have some: their str() is taken to be what their
    class makes of those values, read once per distinct key, while the values are text, numbers or
    enum members (an object that can change in place is no key).  Else keyed by their text."""
    cls = type(card)
    slots: list[str] = []
    for base in cls.__mro__[:-1]:
        declared = base.__dict__.get("__slots__")
        if declared is None:
            slots = []  # a class of the lineage without slots: instances have a __dict__
            break
        slots += (
            [declared] if isinstance(declared, str) else [n for n in declared if n not in ("__dict__", "__weakref__")]
        )
    own = getattr(card, "__dict__", None)
    if slots and own is None and all(hasattr(card, n) for n in slots):
        names, size = slots, None
    elif not slots and type(own) is dict and own and all(type(k) is str and not _class_has(cls, k) for k in own):
        names, size = list(own), len(own)
    else:
        return _Kind(cls, str, False)
    if len(names) == 1:
        return _Kind(cls, attrgetter(names[0]), True, single=True, own=size, texts=True, names=(names[0],))
    return _Kind(cls, _getter(attrgetter, names), True, own=size, texts=True)


def _only_fields(cls: type, fields: tuple[str, ...]) -> bool:
    """Whether every card field the class has is one of these (no property that could say otherwise)."""
    return all(n in fields for n in _CARD_FIELDS if _class_has(cls, n))


def _lasting_key(key: object) -> bool:
    """Whether a lasting kind's key holds only values that cannot change (text, whole numbers, enum members)."""
    if isinstance(key, enum.Enum):
        return True
    return type(key) is not str and all(
        type(v) is str or type(v) is int or isinstance(v, enum.Enum) for v in cast("tuple[object, ...]", key)
    )


def _getter(
    getter: type[attrgetter[object]] | type[itemgetter[object]], names: list[str]
) -> Callable[[object], Hashable]:
    """A getter of these fields that returns a tuple even for one field."""
    return cast("Callable[[object], Hashable]", getter(*names) if len(names) > 1 else getter(names[0], names[0]))


def _field_getters(
    getter: type[attrgetter[object]] | type[itemgetter[object]], names: list[str]
) -> tuple[Callable[[object], object], ...] | None:
    """A getter per field, where a key holds two or more (its tuple is then theirs, in order)."""
    getters = [cast("Callable[[object], object]", getter(name)) for name in names]
    return tuple(getters) if len(getters) > 1 else None


def _dynamic(cls: type) -> bool:
    """Whether instances of `cls` compute which attributes they have (`__getattr__` and the like)."""
    return any(_class_attr(cls, hook) is not _class_attr(object, hook) for hook in ("__getattr__", "__getattribute__"))


def _family(cls: type) -> type:
    """Values of two types of one family may be equal yet read differently (1 and True, 'J' and a
    str enum member 'J'); of two families, never."""
    if issubclass(cls, numbers.Number):
        return numbers.Number
    if issubclass(cls, str | bytes):
        return str
    return cls


_UNCHANGING: Final = frozenset(map(id, (str, int, float, bool, bytes, type(None))))  # by identity (builtins live on)


def _clash(types: Sequence[type]) -> bool:
    """Whether two of these types (distinct objects) are of one family (a type whose metaclass says
    it equals another's family makes the families fewer: a clash)."""
    families = list(map(_family, types))
    return len(set(families)) != len(families)


# The comparisons and hashes of builtin values, plain enum members and NumPy's numbers (types of C,
# which no dealer changes): a key whose values compare and hash by these finds only what equals it.
_PLAIN_TYPES: Final = frozenset(map(id, (object, int, str, float, bytes, tuple, type(None), enum.Enum)))
_HEAP_TYPE: Final = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made at run time (by a class statement)
# A class's own MRO, namespace, flags and module, as `type` keeps them (a metaclass may say otherwise).
_MRO, _NAMESPACE, _FLAGS, _MODULE = (
    type.__dict__[n].__get__ for n in ("__mro__", "__dict__", "__flags__", "__module__")
)


def _class_attr(cls: type, name: str) -> object:
    """The attribute `name` of the class (of its MRO's namespaces, as its instances find it), else None:
    a look-up on the class itself asks its metaclass, which may hide it."""
    for owner in _MRO(cls):
        namespace = _NAMESPACE(owner)
        if name in namespace:
            return namespace[name]
    return None


def _class_has(cls: type, name: str) -> bool:
    return any(name in _NAMESPACE(owner) for owner in _MRO(cls))


def _honest(cls: type) -> bool:
    """Whether values of this type compare and hash as builtin values, plain enum members or NumPy's numbers do."""
    for method in ("__eq__", "__hash__"):
        owner = next((c for c in _MRO(cls) if method in _NAMESPACE(c)), object)
        if id(owner) not in _PLAIN_TYPES and (_FLAGS(owner) & _HEAP_TYPE or _MODULE(owner) != "numpy"):
            return False
    return True


def _all_of(cls: type, items: Iterable[object]) -> bool:
    """Whether every item's class IS `cls` (told by identity, which no metaclass can fake: a set or
    dict of classes takes for `cls` a class whose metaclass says it equals `cls`)."""
    return all(map(is_, map(type, items), itertools.repeat(cls)))


def _fast_cards(flat: Sequence[object]) -> list[int | Parts] | None:
    """Each card's reading, a few look-ups per card, if all are of one class with a kind and every
    one reads; None sends the caller to the precise path (which says what is wrong)."""
    if type(flat[0]) is str and _all_of(str, flat):
        try:
            return list(map(_NAMED.__getitem__, flat))  # type: ignore[arg-type]
        except KeyError:
            pass
    found = _keys(flat)
    return None if found is None else _readings(*found, flat)


def _keys(flat: Sequence[object]) -> tuple[_Kind, Sequence[object]] | None:
    """The kind of these cards and each one's key, if the kind can vouch for every key."""
    cls = type(flat[0])
    if not _all_of(cls, flat):
        return None
    learnt = _KINDS.get(id(cls))
    if learnt is None:
        if len(_KINDS) >= _MAX_KINDS:
            _KINDS.clear()  # a class made anew each deal (a namedtuple made in the function) must not pile up
        try:
            kind = _kind_for(flat[0])
        except Exception:
            kind = None  # a class that cannot be looked at (unhashable, a raising `isinstance`): read card by card
        _KINDS[id(cls)] = cls, kind
    else:
        kind = learnt[1]
    if kind is None:
        return None
    try:
        keys = flat if kind.key is None else list(map(kind.key, flat))
    except (KeyError, AttributeError, TypeError):
        return None  # a card without a field its kind reads: read one by one
    except Exception:
        return None  # a field that raised: the precise path says so
    if kind.sized is not None and (
        set(map(len, cast("Sequence[Sized]", flat))) != {kind.sized}
        or not _all_of(str, itertools.chain.from_iterable(cast("Sequence[Iterable[object]]", flat)))
    ):
        return None  # a dict with keys another has not, or a key that is no plain text
    if kind.own is not None:
        try:
            if set(map(len, map(vars, flat))) != {kind.own}:
                return None  # an attribute another has not
        except TypeError:
            return None
    if kind.tuples and not _same_types(kind, keys):
        if kind.texts and not kind.unchanging:
            _KINDS[id(cls)] = cls, _Kind(cls, str, False)  # an attribute that can change in place: keyed by its text
        return None
    if kind.key is str and not _all_of(str, keys):
        return None  # a text that is no plain str (its own comparison)
    return kind, keys


def _readings(kind: _Kind, keys: Sequence[object], flat: Sequence[object]) -> list[int | Parts] | None:
    try:
        return list(map(kind.known.__getitem__, keys))
    except (KeyError, TypeError):
        pass
    return _learn(kind, flat, keys)


def _same_types(kind: _Kind, keys: Sequence[object]) -> bool:
    """Whether the values in these keys are of types (told by identity) that cannot be confused with
    those in the keys the kind knows, learning the new types if so.  While no two types seen are of
    one family, and each compares and hashes honestly, equal values are of one type, wherever they
    stand in a key."""
    if kind.columns is not None and all(map(is_, map(type, _values(kind, keys)), itertools.cycle(kind.columns))):
        return True
    if _of_types(_values(kind, keys), kind.seen_ids):
        kind.columns = None  # the places of the keys hold values of several types: checked by `seen_ids`
        return True
    types = {id(t): t for t in map(type, _values(kind, keys))}
    new = [t for i, t in types.items() if i not in kind.seen_ids]
    if kind.texts and not all(id(t) in _UNCHANGING or issubclass(t, enum.Enum) for t in new):
        kind.unchanging = False  # what str() makes of an object that can change is no key
        return False
    every = (*kind.seen, *new)
    if not all(map(_honest, new)) or _clash(every):
        return False
    first = not kind.seen
    kind.seen, kind.seen_ids = every, frozenset(map(id, every))
    kind.columns = _columns(kind, keys) if first else None
    return True


def _values(kind: _Kind, keys: Sequence[object]) -> Iterable[object]:
    """The values these keys hold, key after key."""
    return keys if kind.single else itertools.chain.from_iterable(cast("Sequence[tuple[object, ...]]", keys))


def _columns(kind: _Kind, keys: Sequence[object]) -> tuple[type, ...] | None:
    """The type of the values in each place of these keys, where each place holds one type."""
    columns = (type(keys[0]),) if kind.single else tuple(map(type, cast("tuple[object, ...]", keys[0])))
    return columns if columns and all(map(is_, map(type, _values(kind, keys)), itertools.cycle(columns))) else None


def _learn(kind: _Kind, flat: Sequence[object], keys: Sequence[object]) -> list[int | Parts] | None:
    """Each card's reading, read by `card_parts` where its key is new (and remembered)."""
    if kind.texts and len(kind.known) >= _MAX_TEXT_KEYS:
        _KINDS[id(kind.cls)] = kind.cls, _Kind(kind.cls, str, False)  # from the next board on
    if len(kind.known) >= _MAX_KNOWN:
        kind.known.clear()
        kind.named, kind.named_levels = {}, {}  # new tables: `_cardread` remembers a table's names by its identity
        kind.decided, kind.decided_for, kind.decided_by_id, kind.decided_levels = {}, None, {}, {}
    try:
        for card, key in zip(flat, keys, strict=True):
            if key not in kind.known:
                r, s = card_parts(card)
                kind.known[key] = r * 4 + s if r > NUMBER and s > NUMBER else (r, s)
                if r > NUMBER and s > NUMBER:
                    kind.named[key] = _NAME_BYTES[r * 4 + s]
                    if kind.fields is not None or kind.positional:
                        _set_level(kind.named_levels, tuple(cast("tuple[object, ...]", key)), _NAME_BYTES[r * 4 + s])
        return list(map(kind.known.__getitem__, keys))
    except Exception:
        return None


_RESOLVED: dict[tuple[frozenset[int | Parts], CardEncoding], dict[int | Parts, int]] = {}


def _cards_of(readings: list[int | Parts], encoding: CardEncoding) -> list[int]:
    """Cards 0 … 51 from readings, numbers decided by the board.  What they mean depends only on
    the set of readings (a whole deck's is the same every deal), so that decision is remembered."""
    distinct = frozenset(readings)
    if tuple not in set(map(type, distinct)):
        return readings  # type: ignore[return-value]
    table = _RESOLVED.get((distinct, encoding))
    if table is None:
        ordered = list(distinct)
        resolved = _resolve([divmod(c, 4) if isinstance(c, int) else c for c in ordered], encoding)
        table = dict(zip(ordered, resolved, strict=True))
        if len(_RESOLVED) >= 64:
            _RESOLVED.clear()
        _RESOLVED[distinct, encoding] = table
        if len(distinct) == DECK_SIZE and sorted(table.values()) == list(range(DECK_SIZE)):
            _DECIDED[encoding.cards, encoding.suits] = {r: _NAME_BYTES[c] for r, c in table.items()}
    return list(map(table.__getitem__, readings))


# The names of the readings of the last whole deck whose numbers were decided, per encoding: a
# board whose 52 readings all have a name here, 52 distinct names, has that deck's readings, and
# its numbers mean the same.  Readings that are cards (no number in them) are named at once.
_NAME_BYTES: Final = tuple(name.encode() for name in CARD_NAMES)
_CARD_NAMED: Final[dict[int | Parts, bytes]] = dict(enumerate(_NAME_BYTES))
_NAMED_BYTES: Final = {text: _NAME_BYTES[card] for text, card in _NAMED.items()}
_DECIDED: dict[tuple[str | None, str | None], dict[int | Parts, bytes]] = {}  # by the encoding's fields


def _names_of(flat: Sequence[object], encoding: CardEncoding, checked: bool = True) -> list[bytes] | None:
    """The names of 52 cards read as a deck of the same readings was; None: read them the usual way.
    Unless `checked`, names read from what is known may repeat (`line_to_check`)."""
    if type(flat[0]) is str:
        if not _all_of(str, flat):
            return None
        try:
            names = list(map(_NAMED_BYTES.__getitem__, flat))  # type: ignore[arg-type]
        except KeyError:
            return None
        return names if not checked or len(set(names)) == DECK_SIZE else None
    said = encoding.cards, encoding.suits
    known = _learnt_kind(type(flat[0]))
    if known is not None and known.lasting:
        try:  # cards that were read before, by their identity
            by_id = known.decided_by_id if known.decided_for == said else known.by_id
            names = list(map(by_id.__getitem__, map(id, flat)))
        except KeyError:
            pass
        else:
            if not checked or len(set(names)) == DECK_SIZE:
                return names
    if known is not None and not known.lasting and (known.fields is not None or known.single):
        table = known.decided if known.decided_for == said else known.named
        names_read = (_named_singly if known.single else _named_by_fields)(known, flat, table)
        if names_read is not None and (not checked or len(set(names_read)) == DECK_SIZE):
            return names_read
    found = _keys(flat)
    if found is None:
        return None
    kind, keys = found
    try:
        # The keys of the last deck whose numbers were decided (a deck with these 52 keys has those
        # readings, and its numbers mean the same), or keys whose readings are cards outright.
        decided = kind.decided_for == said
        names = list(map((kind.decided if decided else kind.named).__getitem__, keys))
        if kind.lasting and len(kind.held) < 2 * _MAX_KNOWN and len(set(names)) == DECK_SIZE:
            by_id = kind.decided_by_id if decided else kind.by_id
            for card, key, name in zip(flat, keys, names, strict=True):
                if id(card) not in by_id and _lasting_key(key):
                    by_id[id(card)] = name
                    kind.held.append(card)
        if not checked:
            return names
    except (KeyError, TypeError):
        readings = _readings(kind, keys, flat)
        if readings is None:
            return None
        try:
            names = list(map(_CARD_NAMED.__getitem__, readings))
        except KeyError:
            try:
                names = list(map(_DECIDED[said].__getitem__, readings))
            except KeyError:
                return None
            if len(set(names)) == DECK_SIZE:
                kind.decided, kind.decided_for = dict(zip(keys, names, strict=True)), said
                kind.decided_by_id, kind.decided_levels = {}, {}
                if kind.fields is not None or kind.positional:
                    for key, name in kind.decided.items():
                        _set_level(kind.decided_levels, tuple(cast("tuple[object, ...]", key)), name)
    return names if len(set(names)) == DECK_SIZE else None


def _learnt_kind(cls: type) -> _Kind | None:
    """The kind learnt for this very class, if any."""
    learnt = _KINDS.get(id(cls))
    return learnt[1] if learnt is not None and learnt[0] is cls else None


def _named_by_fields(kind: _Kind, flat: Sequence[object], table: dict[Hashable, bytes]) -> list[bytes] | None:
    """The names `table` gives the keys of these cards, of the kind's class, where `_keys` would
    vouch for each key: read field by field (a list of each field's values, their types looked at
    as `_same_types` does, then each key looked up as it is made); None: ask `_keys`."""
    fields = kind.fields
    if fields is None or kind.own is not None or (kind.sized is None and not _all_of(kind.cls, flat)):
        return None
    try:
        values = [list(map(field, flat)) for field in fields]
    except Exception:
        return None  # a card without a field, or a field that raised: `_keys` says what to do
    if kind.sized is not None and (
        sum(map(len, cast("Sequence[Sized]", flat))) != kind.sized * len(flat) or not _plain_dicts(kind, flat)
    ):
        return None  # a dict with keys another has not (each has the key's `sized` keys, at least), or not text
    if kind.columns is not None:
        if not all(map(_all_of, kind.columns, values)):
            return None
    elif not _of_types(itertools.chain.from_iterable(values), kind.seen_ids):
        return None
    try:
        return list(map(table.__getitem__, zip(*values)))  # noqa: B905 (lists of one length)
    except (KeyError, TypeError):
        return None


def _set_level(levels: dict[object, Any], key: tuple[object, ...], name: bytes) -> None:
    """Put `name` at `key` in a table of one level of dicts per value of the key."""
    for value in key[:-1]:
        levels = levels.setdefault(value, {})
    levels[key[-1]] = name


def _compiled_line(items: Sequence[object], encoding: CardEncoding, distinct: bool) -> bytes | None:
    """The line of rows, columns or 52 cards of a class whose kind was learnt, read in one pass of C
    (`_cardread.line`) the way the kind reads them (by identity, `_named_singly`, `_named_by_fields`);
    None where it cannot be read so, or a name repeats if `distinct`: the Python reader then reads it."""
    if _cardread is None or not items:
        return None
    first = items[0]
    if type(first) is list or type(first) is tuple:
        if not first:
            return None
        first = first[0]
    if type(first) is str:
        return None
    kind = _learnt_kind(type(first))
    if kind is None:
        return None
    decided = kind.decided_for == (encoding.cards, encoding.suits)
    if kind.lasting:
        by_id = kind.decided_by_id if decided else kind.by_id
        line = _cardread.line(items, _cardread.BY_IDENTITY, None, (), (), by_id, distinct)
        if line is not None or (kind.fields is None and not kind.positional) or len(kind.held) <= 2 * DECK_SIZE:
            return line  # (the Python reader then learns a deck made once by its identities)
        # cards that cannot change, made anew each deal (more identities than a deck's): read by
        # their fields, as `_keys` reads them
    if (
        kind.own is not None
        or kind.columns is None
        or not kind.names
        or not (kind.single or kind.fields is not None or kind.positional)
    ):
        return None
    if kind.fields is not None or kind.positional:
        table = kind.decided_levels if decided else kind.named_levels
    else:
        table = cast("dict[object, Any]", kind.decided if decided else kind.named)
    if kind.positional:
        how = _cardread.BY_POSITION
    else:
        how = _cardread.BY_ITEMS if kind.sized is not None else _cardread.BY_ATTRIBUTES
    return _cardread.line(items, how, kind.cls, kind.names, kind.columns, table, distinct)


def _plain_dicts(kind: _Kind, flat: Sequence[object]) -> bool:
    """Whether these cards, each found to hold the kind's `sized` keys, are dicts whose keys are
    plain text (each then the text it equals).  Where `marshal` writes them all, they are: it writes
    only builtin values of exactly their types (so dicts, and keys that compare as builtins do),
    one pass in C; else told type by type (and the kind stops asking marshal)."""
    if kind.marshalled:
        try:
            marshal.dumps(cast("Any", flat))
            return True
        except ValueError:
            kind.marshalled = False  # values marshal cannot write (enum members, NumPy's numbers)
    return _all_of(kind.cls, flat) and _all_of(
        str, itertools.chain.from_iterable(cast("Sequence[Iterable[object]]", flat))
    )


def _named_singly(kind: _Kind, flat: Sequence[object], table: dict[Hashable, bytes]) -> list[bytes] | None:
    """The names `table` gives the keys of these cards, of a kind keyed by one slot's value, where
    `_keys` would vouch for each key; None: ask `_keys`."""
    if kind.own is not None or kind.key is None or not _all_of(kind.cls, flat):
        return None
    try:
        keys = list(map(kind.key, flat))
    except Exception:
        return None  # a card without the slot, or one that raised: `_keys` says what to do
    if not (_all_of(kind.columns[0], keys) if kind.columns is not None else _of_types(keys, kind.seen_ids)):
        return None
    try:
        return list(map(table.__getitem__, keys))
    except (KeyError, TypeError):
        return None


def forget() -> None:
    """Forget every kind and decision remembered (each board is then read from nothing but itself)."""
    _KINDS.clear()
    _STATES.clear()
    _RESOLVED.clear()
    _DECIDED.clear()


def _resolve(parts: list[Parts], encoding: CardEncoding) -> list[int]:
    """Card numbers 0 … 51 from the parts of a board's cards, numbers read from the board itself."""
    ranks = [r for r, _ in parts]
    suits = [s for _, s in parts]
    if min(ranks) > NUMBER and min(suits) > NUMBER:
        return [r * 4 + s for r, s in parts]
    if any(r == CARD_NUMBER for r in ranks):
        return _card_numbers(parts, encoding)
    if min(ranks) <= NUMBER:
        ranks = _numeric_ranks(ranks)
    if min(suits) <= NUMBER:
        suits = _numeric_suits(suits, encoding)
    return [r * 4 + s for r, s in zip(ranks, suits, strict=True)]


def _numeric_ranks(ranks: list[int]) -> list[int]:
    numbers = {NUMBER - r for r in ranks if r <= NUMBER}
    if any(r > NUMBER for r in ranks):  # letters beside numbers: the numbers are face values 2 … 10
        if not numbers <= set(range(2, 11)):
            raise BoardError(
                f"ranks are letters and the numbers {_set(numbers)}: numbers beside letters must be 2 … 10"
            )
        return [r if r > NUMBER else NUMBER - r - 1 for r in ranks]
    for first in (0, 1, 2):
        if numbers == set(range(first, first + 13)):
            ace = first + 12 if first == 2 else first  # 2 … 14: ace high
            return [0 if NUMBER - r == ace else NUMBER - r - first + (1 if first == 2 else 0) for r in ranks]
    raise BoardError(
        f"the ranks are the numbers {_set(numbers)}: expected the 13 values 0 … 12, 1 … 13 or 2 … 14 (ace high)"
    )


def _numeric_suits(suits: list[int], encoding: CardEncoding) -> list[int]:
    numbers = {NUMBER - s for s in suits if s <= NUMBER}
    if any(s > NUMBER for s in suits):
        raise BoardError(f"the suits are letters and the numbers {_set(numbers)}: one kind, please")
    if encoding.suits is None:
        raise AmbiguousCards(
            f"the suits are the bare numbers {_set(numbers)}: say which suit each number is with --suits, e.g. "
            "--suits CDHS (clubs, diamonds, hearts, spades)"
        )
    first = min(numbers)
    if first not in (0, 1) or not numbers <= set(range(first, first + 4)):
        raise BoardError(f"the suits are the numbers {_set(numbers)}: expected 0 … 3 or 1 … 4")
    order = [SUITS.index(c) for c in encoding.suits.upper()]
    return [s if s > NUMBER else order[NUMBER - s - first] for s in suits]


def _card_numbers(parts: list[Parts], encoding: CardEncoding) -> list[int]:
    if any(r != CARD_NUMBER for r, _ in parts):
        raise BoardError("some cards are bare numbers and some are not: one kind, please")
    numbers = [s for _, s in parts]
    if encoding.cards is None or encoding.suits is None:
        missing = " and ".join(
            o
            for o, v in (("--cards {rank-major,suit-major}", encoding.cards), ("--suits CDHS", encoding.suits))
            if v is None
        )
        raise AmbiguousCards(
            f"the cards are bare numbers {min(numbers)} … {max(numbers)}: say how they are numbered with {missing} "
            "(rank-major: rank × 4 + suit; suit-major: suit × 13 + rank; --suits: the suits in number order)"
        )
    first = min(numbers)
    if first not in (0, 1) or max(numbers) - first >= DECK_SIZE:
        raise BoardError(f"the cards are the numbers {first} … {max(numbers)}: expected 0 … 51 or 1 … 52")
    order = [SUITS.index(c) for c in encoding.suits.upper()]
    if encoding.cards == "rank-major":
        return [((n - first) // 4) * 4 + order[(n - first) % 4] for n in numbers]
    return [((n - first) % 13) * 4 + order[(n - first) // 13] for n in numbers]


def _set(numbers: set[int]) -> str:
    ordered = sorted(numbers)
    if len(ordered) > 3 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]} … {ordered[-1]}"
    return ", ".join(map(str, ordered[:16])) + (" …" if len(ordered) > 16 else "")


# -- the shape layer -----------------------------------------------------------------------------


def _all_cards(items: list[object]) -> bool:
    if _all_of(type(items[0]), items) and not isinstance(items[0], Mapping | tuple):
        return _is_card(items[0])
    return all(_is_card(i) for i in items)


def _card_fields(value: object) -> bool:
    return any(hasattr(value, n) for n in (*NAME_FIELDS, *RANK_FIELDS, *SUIT_FIELDS))


def _is_card(value: object) -> bool:
    """Whether a value is read as one card rather than a group of cards."""
    if isinstance(value, str | int | enum.Enum):
        return True
    if isinstance(value, tuple):
        return hasattr(value, "_fields") or len(value) == 2
    if isinstance(value, Mapping):
        keys = {str(k).lower() for k in value}
        return bool(keys & {*NAME_FIELDS, *RANK_FIELDS, *SUIT_FIELDS})
    if isinstance(value, Iterable):
        return False
    return not any(hasattr(value, n) for n in (*STATE_FIELDS, "__iter__"))


def _items(value: object, where: str) -> list[object]:
    """A sequence's or iterable's items, at most 53 (an endless iterator is never read to its end)."""
    if isinstance(value, list | tuple):
        items = value
    else:
        try:
            items = list(itertools.islice(iter(value), DECK_SIZE + 1))  # type: ignore[call-overload]
        except TypeError:
            raise BoardError(f"{where or 'the value'} is not a board: {type(value).__name__}") from None
    if len(items) > DECK_SIZE:
        raise BoardError(f"{where or 'the value'} holds more than 52 items")
    return list(items)


def _state_field(value: object) -> tuple[str, object] | None:
    """The tableau of a game state, after checking that no card is played: under a common name, else
    in whichever field holds one (`_tableau_by_content`); never a field of the whole deck unshuffled."""
    get = _fields(value)
    if get is None:
        return None
    found = next(
        ((n, v) for n in STATE_FIELDS if (v := get(n)) is not _MISSING and v is not None and not _unshuffled_deck(v)),
        None,
    ) or _tableau_by_content(value)
    if found is None:
        return None
    for name in EMPTY_FIELDS:
        held = get(name)
        if held is not _MISSING and (count := _cards_held(held)):
            raise BoardError(f"the game state's {name} hold {count} cards: not a fresh deal")
    return found


def _own_fields(value: object) -> list[tuple[str, object]]:
    """A game object's fields and their values, in the order it has them: a mapping's text keys, an
    object's attributes of its own (its `__dict__`, its dataclass fields, its slots)."""
    if isinstance(value, Mapping):
        return [(k, v) for k, v in value.items() if isinstance(k, str)]
    names: dict[str, None] = {}
    own = getattr(value, "__dict__", None)
    if isinstance(own, dict):
        names.update(dict.fromkeys(k for k in own if isinstance(k, str)))
    if dataclasses.is_dataclass(value):
        names.update(dict.fromkeys(f.name for f in dataclasses.fields(value)))
    for cls in type(value).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names.update(dict.fromkeys(n for n in ([slots] if isinstance(slots, str) else slots) if isinstance(n, str)))
    found = [(n, getattr(value, n, _MISSING)) for n in names]
    return [(n, v) for n, v in found if v is not _MISSING]


def _tableau_by_content(value: object) -> tuple[str, object] | None:
    """The field of a game object that holds its tableau, whatever it is called, by what it holds:
    7 rows or 8 columns of 52 cards in all (the first such field), else 52 cards in an order no
    fresh deck has (`_unshuffled_deck`: a field of the whole deck beside the deal is not the deal)."""
    flat = None
    try:
        fields = _own_fields(value)
    except Exception:  # a property that raised: the object is read no further this way
        return None
    for name, held in fields:
        if type(held) is not list and type(held) is not tuple:
            continue
        groups = cast("Sequence[object]", held)
        if (
            len(groups) in _GROUP_COUNTS
            and all(type(g) is list or type(g) is tuple for g in groups)
            and sum(len(cast("Sized", g)) for g in groups) == DECK_SIZE
            and not all(len(cast("Sized", g)) == 2 for g in groups)
        ):
            return name, held
        if flat is None and len(groups) == DECK_SIZE and type(groups[0]) is not list and not _unshuffled_deck(groups):
            flat = name, held
    return flat


def _unshuffled_deck(held: object) -> bool:
    """Whether `held` is 52 cards in a fresh deck's order: rank by rank (13 runs of one rank each,
    the ranks in order, the suits in the same order in every run) or suit by suit (4 runs of one
    suit each, the ranks in order in every run), either way up; numbers in order.  A dealt board is
    never so (XP's fixed layouts run rank by rank, but not in order); a card that cannot be read
    alone says nothing: False."""
    if (type(held) is not list and type(held) is not tuple) or len(cast("Sized", held)) != DECK_SIZE:
        return False
    cards = cast("Sequence[object]", held)
    if type(cards[0]) is list:
        return False
    if all(type(c) is int for c in cards):
        steps = {b - a for a, b in itertools.pairwise(cast("Sequence[int]", cards))}
        return steps == {1} or steps == {-1}
    try:
        first = [card_parts(c) for c in cards[:4]]
        if len({r for r, _ in first}) != 1 and len({s for _, s in first}) != 1:
            return False  # neither a rank's run nor a suit's starts here: shuffled
        parts = first + [card_parts(c) for c in cards[4:]]
    except _Unreadable:
        return False
    ranks, suits = [r for r, _ in parts], [s for _, s in parts]

    def ordered(values: Sequence[int]) -> bool:
        steps = {b - a for a, b in itertools.pairwise(values)}
        return bool(steps) and (all(d > 0 for d in steps) or all(d < 0 for d in steps))

    by_rank = (
        all(len(set(ranks[k : k + 4])) == 1 for k in range(0, DECK_SIZE, 4))
        and ordered(ranks[::4])
        and all(suits[k : k + 4] == suits[:4] for k in range(0, DECK_SIZE, 4))
    )
    by_suit = all(len(set(suits[k : k + 13])) == 1 for k in range(0, DECK_SIZE, 13)) and all(
        ordered(ranks[k : k + 13]) for k in range(0, DECK_SIZE, 13)
    )
    return by_rank or by_suit


# A game state's class is learnt once: which of the state fields its instances hold (up to the one
# the first held its tableau in) and which of the empty fields.  Another instance is read the same
# way while it has the same attributes of its own (its `__dict__`'s keys), every one of those fields
# reads (no AttributeError), the state fields before the tableau's are None, and each empty field is
# plainly empty (None, or a list or tuple of Nones or of empty lists: at once where they write as the
# first instance's did, `_StateKind.blank`); anything else is read by `_state_field`.  What it takes
# as unchanged is the class's own attributes (a state field added to the class itself after its first
# instance was read is not looked for).


@dataclass(frozen=True, slots=True)
class _StateKind:
    """Where the instances of one class of game state hold their tableau."""

    own: frozenset[str] | None  # the keys of each instance's `__dict__`; None: instances have none
    before: int  # how many state fields before the tableau's are read (each must be None)
    tableau: Callable[[object], tuple[object, ...]]  # those fields, then the tableau's
    name: str  # the tableau's field
    empties: Callable[[object], tuple[object, ...]] | None  # the empty fields the class has
    # The first instance's empty fields as `marshal` writes them, where it writes them: the same
    # bytes are the same None, lists, tuples and dicts of plain values, and no method of the dealer's
    # can make them so (an object of any other type, a list or dict of a subclass included, cannot be
    # written; one with a buffer, Python 3.12's `__buffer__` included, is written as bytes, never as
    # an empty field is): so another instance whose empty fields write the same is as plainly empty.
    blank: bytes | None


_STATES: dict[int, tuple[type, _StateKind | None]] = {}  # by the class's id, as `_KINDS`


def _state_kind_for(value: object) -> _StateKind | None:
    cls = type(value)
    if isinstance(value, Mapping) or _dynamic(cls) or _fields(value) is None:
        return None
    own = getattr(value, "__dict__", None)
    if own is not None and (type(own) is not dict or not all(isinstance(k, str) for k in own)):
        return None
    state: list[str] = []
    for name in STATE_FIELDS:
        if getattr(value, name, _MISSING) is _MISSING:
            if _class_has(cls, name):
                return None  # a field of its class this instance has not: another may have it
            continue
        state.append(name)
        if getattr(value, name) is not None:
            break
    else:
        return None
    empties: list[str] = []
    for name in EMPTY_FIELDS:
        if getattr(value, name, _MISSING) is not _MISSING:
            empties.append(name)
        elif _class_has(cls, name):
            return None
    held = (attrgetter(*empties) if len(empties) > 1 else attrgetter(empties[0], empties[0])) if empties else None
    blank = None
    try:
        if held is not None and all(map(_plainly_empty, first := held(value))):
            blank = _written(first)
    except Exception:
        pass  # a field that raised: `_state_of` reads each instance the usual way
    return _StateKind(
        frozenset(own) if own is not None else None,
        len(state) - 1,
        attrgetter(*state) if len(state) > 1 else attrgetter(state[0], state[0]),
        state[-1],
        held,
        blank,
    )


def _written(value: object) -> bytes | None:
    """`value` as `marshal` writes it (version 0: no references, so the same values write the
    same), or None where it holds what marshal does not write (any object but plain values)."""
    try:
        return marshal.dumps(cast("Any", value), 0)
    except ValueError:
        return None


def _state_of(value: object) -> tuple[str, object] | None:
    """`_state_field`'s answer, by what the value's class was learnt to hold where it vouches."""
    cls = type(value)
    learnt = _STATES.get(id(cls))
    if learnt is None:
        if len(_STATES) >= _MAX_KINDS:
            _STATES.clear()
        try:
            kind = _state_kind_for(value)
        except Exception:
            kind = None  # a class that cannot be looked at: `_state_field` reads each instance
        _STATES[id(cls)] = cls, kind
    else:
        kind = learnt[1]
    if kind is not None and (kind.own is None or cast("Any", value).__dict__.keys() == kind.own):
        try:
            held = kind.tableau(value)
            empties = kind.empties(value) if kind.empties is not None else ()
        except Exception:
            return _state_field(value)  # which says what is wrong, or reads what it can
        inner = held[-1]
        if (
            inner is not None
            and not _unshuffled_deck(inner)
            and (not kind.before or all(v is None for v in held[:-1]))
            and ((kind.blank is not None and _written(empties) == kind.blank) or all(map(_plainly_empty, empties)))
        ):
            return kind.name, inner
    return _state_field(value)


def _plainly_empty(held: object) -> bool:
    """Whether `_cards_held` counts no card here, seen at a glance (else: ask it)."""
    if held is None:
        return True
    if type(held) is dict:
        held = [*cast("dict[object, object]", held).values()]
    if type(held) is list or type(held) is tuple:
        return all(map(is_, held, itertools.repeat(None))) or (_all_of(list, held) and not any(held))  # None, or []
    return False


def _cards_held(held: object) -> int:
    """How many cards free cells or foundations hold: None, empty piles and non-cards count none."""
    if held is None or isinstance(held, str | int | bool):
        return 0
    if (type(held) is list or type(held) is tuple) and (  # the usual: empty cells (None) or empty piles
        all(map(is_, held, itertools.repeat(None))) or (_all_of(list, held) and not any(map(len, held)))
    ):
        return 0
    piles = held.values() if isinstance(held, Mapping) else held
    try:
        items = list(itertools.islice(iter(piles), DECK_SIZE + 1))  # type: ignore[call-overload]
    except TypeError:
        return 0
    count = 0
    for item in items:
        if item is None or isinstance(item, bool):
            continue
        if (isinstance(item, list | tuple) and not hasattr(item, "_fields") and len(item) != 2) or isinstance(
            item, set
        ):
            count += len(item)
        else:
            count += 1
    return count


_CANONICAL: Final = frozenset(CARD_NAMES)


def canonical_line_of(value: object, encoding: CardEncoding = PLAIN) -> bytes:
    """The canonical line of what a dealer returned (`read_value`), straight from the names of its
    cards when they are canonical names, or cards read as a board of the same cards was."""
    if type(value) is types.GeneratorType:  # a generator of cards: its first 53, no more
        value = list(itertools.islice(cast("Iterator[object]", value), DECK_SIZE + 1))
    if type(value) is list or type(value) is tuple:
        if (line := _fast_line(cast("Sequence[object]", value), encoding)) is not None:
            return line
    elif type(value) is str:
        if (line := _text_line(value)) is not None:
            return line
    elif not isinstance(value, _SEQUENCES) and (state := _state_of(value)) is not None:
        return _state_line(*state, encoding)
    return canonical_line(read_value(value, encoding))


def _state_line(name: str, inner: object, encoding: CardEncoding) -> bytes:
    """A game state's line, its tableau `inner` held under `name`: read as `_read` reads it, first the fast way."""
    if (type(inner) is list or type(inner) is tuple) and (
        line := _fast_line(cast("Sequence[object]", inner), encoding)
    ) is not None:
        return line
    return canonical_line(_read(inner, encoding, f".{name}", 1))


# -- a line whose cards the caller checks ----------------------------------------------------------
#
# The `py:` runner writing many answers at once sends each board's line as `line_to_check` reads it,
# and the parent checks the 52 cards of every line (`harness.framing.invalid_lines`), dealing a board
# whose cards repeat again one answer per write, where `canonical_line_of` reads it and says why it
# is no deck.  So the quick ways here leave out one check, and one only: that the 52 names differ
# (`len(set(names))`).  Every check that decides what a card is stays: shapes, types, each kind's
# keys, and the decisions taken from a whole deck's 52 distinct readings (`_DECIDED`, a kind's
# `decided`), which are learnt only by `_names_of`'s checked path.  Names that repeat here are cards
# that `canonical_line_of` reads alike (a kind's key holds all its card says), so it refuses them too.

# Rows, columns, 52 cards or the text of rows of canonical card names, the commonest boards, are
# sent as they are: each byte of their text is classed (rank letter, suit letter, space, line end,
# other) and compared with the one pattern 2-letter names in that shape have.
_NAME_CLASSES: Final = bytes(
    ord("r") if chr(b) in RANKS else ord("s") if chr(b) in SUITS else b if b in b" \n" else 0 for b in range(256)
)
_ROWS_TEXT: Final = "\n".join(" ".join(["rs"] * n) for n in ROW_SHAPE).encode()
_CARDS_TEXT: Final = " ".join(["rs"] * DECK_SIZE).encode()
_GROUP_COUNTS: Final = (len(ROW_SHAPE), len(COLUMN_SHAPE))
_LONG_COLUMNS: Final = COLUMN_SHAPE.count(COLUMN_SHAPE[0])
_LAST_ROW: Final = itemgetter(COLUMN_SHAPE[0] - 1)  # of the columns that reach it


def line_to_check(value: object, encoding: CardEncoding = PLAIN) -> bytes:
    """`canonical_line_of(value, encoding)`, or, where that would refuse a board only because its
    cards repeat, a line of those repeated names: for a caller that checks every line's 52 cards
    and has a line that fails them read by `canonical_line_of` (see above)."""
    cls = type(value)
    if cls is list or cls is tuple:
        line = _compiled_line(cast("Sequence[object]", value), encoding, False) or _line_to_check(
            cast("Sequence[object]", value), encoding
        )
    elif cls is str:
        line = _named_text(cast("str", value))
    elif cls is types.GeneratorType:  # its first 53, no more, as `canonical_line_of` takes them
        value = list(itertools.islice(cast("Iterator[object]", value), DECK_SIZE + 1))
        line = _line_to_check(cast("Sequence[object]", value), encoding)
    elif not isinstance(value, _SEQUENCES) and (state := _state_of(value)) is not None:
        name, inner = state
        if type(inner) is list or type(inner) is tuple:
            line = _compiled_line(cast("Sequence[object]", inner), encoding, False) or _line_to_check(
                cast("Sequence[object]", inner), encoding
            )
            if line is not None:
                return line
        return _state_line(name, inner, encoding)
    else:
        line = None
    return line if line is not None else canonical_line_of(value, encoding)


def _named_text(value: str) -> bytes | None:
    """The line of board text of rows of canonical names, its last line ended or not; else None."""
    try:
        text = value.encode()
    except UnicodeError:
        return None
    if text[-1:] == b"\n":
        text = text[:-1]
    return text.replace(b"\n", b" ") + b"\n" if text.translate(_NAME_CLASSES) == _ROWS_TEXT else None


def _line_to_check(items: Sequence[Any], encoding: CardEncoding) -> bytes | None:
    """Rows, columns or 52 cards in lists or tuples as `_fast_line` takes them, read the quick way
    without looking for repeats; None: `canonical_line_of` reads them."""
    count = len(items)
    try:
        if count == DECK_SIZE:
            first = items[0]
            if type(first) is str:  # names joined by their characters, as `card_parts` reads them
                text = " ".join(items).encode()
                return text + b"\n" if text.translate(_NAME_CLASSES) == _CARDS_TEXT else None
            if type(first) is list or type(first) is tuple:
                return None
            flat = items
        elif count not in _GROUP_COUNTS or not _groups(items):
            return None
        elif type(items[0][0]) is str:  # names joined by their characters, as `card_parts` reads them
            if count == len(ROW_SHAPE):  # the pattern holds the rows' lengths
                text = "\n".join(map(" ".join, items)).encode()
                return text.replace(b"\n", b" ") + b"\n" if text.translate(_NAME_CLASSES) == _ROWS_TEXT else None
            if tuple(map(len, items)) != COLUMN_SHAPE:
                return None
            # row by row: zip takes the 6 rows every column reaches, then the 7th row of the first 4
            reached = itertools.chain.from_iterable(zip(*items, strict=False))
            text = " ".join([*reached, *map(_LAST_ROW, items[:_LONG_COLUMNS])]).encode()
            return text + b"\n" if text.translate(_NAME_CLASSES) == _CARDS_TEXT else None
        elif (lengths := tuple(map(len, items))) == ROW_SHAPE:
            flat = [*itertools.chain.from_iterable(items)]
        elif lengths == COLUMN_SHAPE:
            flat = _BY_COLUMN([*itertools.chain.from_iterable(items)])
        else:
            return None
    except (TypeError, UnicodeError, IndexError):
        return None  # a name that is no str or cannot be encoded, an empty group: read the usual way
    known = _learnt_kind(type(flat[0]))
    if known is not None:
        said = encoding.cards, encoding.suits
        decided = known.decided_for == said
        if known.lasting:  # cards read before, by their identity
            by_id = known.decided_by_id if decided else known.by_id
            try:
                return b" ".join(map(by_id.__getitem__, map(id, flat))) + b"\n"
            except KeyError:
                pass
        elif known.single or known.fields is not None:  # cards keyed by their fields, as `_names_of` reads them
            named = (_named_singly if known.single else _named_by_fields)(
                known, flat, known.decided if decided else known.named
            )
            if named is not None:
                return b" ".join(named) + b"\n"
    names = _names_of(flat, encoding, checked=False)
    return None if names is None else b" ".join(names) + b"\n"


# Board text of canonical names one character apart, as a dealer printing rows or columns writes
# it: its lines' lengths (a last newline or none) say its shape, for a line of n names has at most
# n names in it, and 52 distinct names are then each line's full count.
_PLAIN_TEXT: Final = {tuple(3 * n - 1 for n in shape) + tail: shape for shape in SHAPES for tail in ((), (0,))}


_SEQUENCES: Final = (str, bytes, list, tuple)


def _text_line(text: str) -> bytes | None:
    """`_fast_text`'s board as its line, named straight from the text's names."""
    shape = _PLAIN_TEXT.get(tuple(map(len, text.split("\n"))))
    if shape is not None and _canonical(words := text.split()):
        return (" ".join(words if shape != COLUMN_SHAPE else _BY_COLUMN(words)) + "\n").encode()
    groups = [g for g in map(str.split, text.split("\n")) if g]
    shape = tuple(map(len, groups))
    if shape not in SHAPES:
        return None
    flat: Sequence[str] = list(itertools.chain.from_iterable(groups))
    if shape == COLUMN_SHAPE:
        flat = _BY_COLUMN(flat)
    if _canonical(flat):
        return (" ".join(flat) + "\n").encode()
    try:
        names = list(map(_NAMED_BYTES.__getitem__, flat))
    except KeyError:
        return None
    return b" ".join(names) + b"\n" if len(set(names)) == DECK_SIZE else None


def _fast_line(items: Sequence[object], encoding: CardEncoding) -> bytes | None:
    """The line of rows, columns or 52 cards in lists or tuples, where each card is a canonical name
    or read as a board of the same cards was; None: read it the usual way."""
    if (line := _compiled_line(items, encoding, True)) is not None:
        return line  # (it checks the shape itself: nothing below need be made first)
    first = items[0] if items else None
    flat: Sequence[object] | None = None
    if type(first) is list or type(first) is tuple:
        groups = cast("Sequence[Sequence[object]]", items)
        shape = tuple(map(len, groups))
        if not _groups(groups):
            return None
        if shape == ROW_SHAPE:
            flat = list(itertools.chain.from_iterable(groups))
        elif shape == COLUMN_SHAPE:
            flat = _BY_COLUMN(list(itertools.chain.from_iterable(groups)))
    elif len(items) == DECK_SIZE:
        flat = items
    if flat is None:
        return None
    if type(flat[0]) is str and _all_of(str, flat) and _canonical(flat):
        return (" ".join(cast("Sequence[str]", flat)) + "\n").encode()
    names = _names_of(flat, encoding)
    return None if names is None else b" ".join(names) + b"\n"


def _groups(items: Sequence[object]) -> bool:
    """Whether these are all lists or all tuples (told by identity: a class whose metaclass says it
    is `list` may say any length)."""
    return _all_of(list, items) or _all_of(tuple, items)


def _of_types(items: Iterable[object], type_ids: frozenset[int]) -> bool:
    """Whether every item's class is one of those whose ids these are (told by identity)."""
    return set(map(id, map(type, items))) <= type_ids


def _canonical(flat: Sequence[object]) -> bool:
    """Whether these 52 values are the 52 canonical card names."""
    try:
        return len(_CANONICAL.intersection(flat)) == DECK_SIZE
    except TypeError:  # an unhashable value among them
        return False


def read_value(value: object, encoding: CardEncoding = PLAIN) -> tuple[int, ...]:
    """The 52 cards, in dealing order, of what a dealer returned; BoardError saying why not."""
    if type(value) is list or type(value) is tuple:
        if (fast := _fast_sequence(cast("Sequence[object]", value), encoding)) is not None:
            return fast
    elif isinstance(value, str) and (fast := _fast_text(value)) is not None:
        return fast
    return _read(value, encoding, "", 0)


def _fast_sequence(value: Sequence[object], encoding: CardEncoding) -> tuple[int, ...] | None:
    """Rows, columns or 52 cards in lists or tuples, at C speed; None: read it the precise way."""
    first = value[0] if value else None
    flat: Sequence[object]
    if type(first) is list or (isinstance(first, tuple) and type(first) is tuple and len(first) != 2):
        groups = cast("Sequence[Sequence[object]]", value)
        if not _groups(groups):
            return None  # a group of another class: its length may not be what it holds
        shape = tuple(map(len, groups))
        flat = list(itertools.chain.from_iterable(groups))
    else:
        shape, flat = (len(value),), value
    if shape not in SHAPES or (readings := _fast_cards(flat)) is None:
        return None
    cards = _cards_of(readings, encoding)
    if len(set(cards)) != DECK_SIZE:
        return None
    return tuple(cards) if shape != COLUMN_SHAPE else cast("tuple[int, ...]", _BY_COLUMN(cards))


_BY_COLUMN: Final = itemgetter(*COLUMN_ORDER)


def _fast_text(text: str) -> tuple[int, ...] | None:
    """Board text of plain card names (any spelling `_NAMED` has) in rows, columns or one line."""
    lines = [line.split() for line in text.split("\n")]
    groups = [g for g in lines if g]
    shape = tuple(map(len, groups))
    if shape not in SHAPES:
        return None
    try:
        cards = list(map(_NAMED.__getitem__, itertools.chain.from_iterable(groups)))
    except KeyError:
        return None
    if len(set(cards)) != DECK_SIZE:
        return None
    return tuple(cards) if shape != COLUMN_SHAPE else cast("tuple[int, ...]", _BY_COLUMN(cards))


def _read_board(text: str) -> tuple[int, ...]:
    from harness.cards import read_board  # imported here (it brings NumPy): the fast paths never need it

    return read_board(text)


def _deck_of_groups(groups: list[list[int]]) -> tuple[int, ...]:
    from harness.cards import deck_of_groups

    return deck_of_groups(groups)


def _read(value: object, encoding: CardEncoding, where: str, depth: int) -> tuple[int, ...]:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str):
        if len(value) > MAX_TEXT_CHARS:
            raise BoardError(f"text of {len(value):,} characters: no board is longer than {MAX_TEXT_CHARS:,}")
        return _read_board(value)
    if depth >= MAX_DEPTH:
        raise BoardError(f"{where} is nested too deep to be a board")
    if type(value) in (list, tuple) and depth and (fast := _fast_sequence(cast("Sequence[object]", value), encoding)):
        return fast
    if not isinstance(value, list | tuple) and (state := _state_field(value)) is not None:
        name, inner = state
        return _read(inner, encoding, f"{where}.{name}", depth + 1)
    if not isinstance(value, Iterable) and not isinstance(value, Mapping):
        if value is None or isinstance(value, int | float | enum.Enum):
            raise BoardError(f"not a board: {_short(value)}")
        if _custom_str(value) and _fields(value) is not None and not _card_fields(value):
            text = str(value)  # a board object whose text form prints the tableau
            if _name_parts(text) is None:
                return _read(text, encoding, f"str({where or 'the value'})", depth + 1)
        if not _is_card(value):
            raise BoardError(f"not a board: {type(value).__name__}")
    if isinstance(value, Mapping):
        raise BoardError(f"not a board: a {type(value).__name__} with keys {_short(list(value)[:8])}")
    if _is_card(value) and not isinstance(value, list):
        raise BoardError(f"one card, not a board: {_short(value)}")
    items = _items(value, where)
    groups: list[list[object]] = []
    if items and _all_cards(items):
        groups = [items]
    else:
        for i, item in enumerate(items):
            inner = item
            if not isinstance(item, Iterable) and (state := _state_field(item)) is not None:
                inner = state[1]  # a column object holding its cards
            groups.append(_items(inner, f"{where}[{i}]"))
    flat = [c for g in groups for c in g]
    readings = _fast_cards(flat) if flat else []
    if readings is None:
        readings = []
        for k, card in enumerate(flat):
            try:
                r, s = card_parts(card)
            except _Unreadable as exc:
                if len(groups) == 1 and len(items) <= 8 and all(isinstance(i, str) for i in items):
                    return _read_board("\n".join(cast("list[str]", items)))  # rows or columns as printed lines
                by_values = _parts_by_distinct_values(flat)
                if by_values is None:
                    raise BoardError(f"{_position(groups, k, where)}: {exc}") from None
                readings = by_values
                break
            readings.append(r * 4 + s if r > NUMBER and s > NUMBER else (r, s))
    cards = _cards_of(readings, encoding) if readings else []
    return _deck_of_groups(_regroup(cards, groups))


def _parts_by_distinct_values(flat: list[object]) -> list[int | Parts] | None:
    """The readings of 52 card objects whose rank and suit fields have names of their own (`value`,
    `kind`), told apart by the cards themselves: the one plain field with 13 values across the
    deck is the rank, the one with 4 the suit (other fields, a colour or an id, are left aside).
    None when no such pair of fields is found, or a value is no rank or suit."""
    if len(flat) != DECK_SIZE:
        return None
    try:
        fields = [dict(_own_fields(c)) for c in flat]
    except Exception:
        return None
    if not fields[0] or any(f.keys() != fields[0].keys() for f in fields):
        return None
    if {k.lower() for k in fields[0]} & {*NAME_FIELDS, *SUIT_FIELDS}:
        return None  # only cards the usual way cannot read for want of names: no card-name or suit field
    ranks, suits = [], []
    for name in fields[0]:
        values = [f[name] for f in fields]
        if not all(isinstance(v, str | int | enum.Enum) and not isinstance(v, bool) for v in values):
            continue
        distinct = len(set(values))
        if distinct == len(RANKS):
            ranks.append(name)
        elif distinct == len(SUITS):
            suits.append(name)
    if len(ranks) != 1 or len(suits) != 1:
        return None
    readings: list[int | Parts] = []
    for f in fields:
        try:
            r, s = _rank_part(f[ranks[0]], ranks[0]), _suit_part(f[suits[0]], suits[0])
        except _Unreadable:
            return None
        readings.append(r * 4 + s if r > NUMBER and s > NUMBER else (r, s))
    return readings


def _regroup(cards: list[int], groups: list[list[object]]) -> list[list[int]]:
    out, start = [], 0
    for g in groups:
        out.append(cards[start : start + len(g)])
        start += len(g)
    return out


def _position(groups: list[list[object]], k: int, where: str) -> str:
    """The Python index of the k-th card ("[1][3]", "tableau[2][0]")."""
    if len(groups) == 1:
        return f"{where}[{k}]" if where else f"card [{k}]"
    for i, g in enumerate(groups):
        if k < len(g):
            return f"{where}[{i}][{k}]" if where else f"card [{i}][{k}]"
        k -= len(g)
    return where
