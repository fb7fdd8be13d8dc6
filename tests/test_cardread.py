"""harness._cardread, the quick readers' steady state in C: it gives a board's line where every card
is as the kind vouches for, None for anything else (for the Python reader to read), and raises only
what the Python reader would let through.  The same readings through `harness.shapes`, compiled and
not, are compared over every run of tests/test_shapes_fast.py (which runs each test both ways)."""

from __future__ import annotations

import collections
import functools
import importlib
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, cast

import pytest
from conftest import need_compiled_reader
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reference
from harness import shapes
from reference.cards import CARD_NAMES

HERE = Path(__file__).parent
if str(HERE.parent / "benchmarks") not in sys.path:
    sys.path.insert(0, str(HERE.parent / "benchmarks"))
shaped_dealers: Any = importlib.import_module("shaped_dealers")


@pytest.fixture(autouse=True)
def compiled() -> Any:
    need_compiled_reader()
    return importlib.import_module("harness._cardread")


class Card:
    def __init__(self, rank: str, suit: str) -> None:
        self.rank, self.suit = rank, suit


class Subcard(Card):
    pass


class Raising(Card):
    """A card whose suit raises `error`, where it has one."""

    def __init__(self, rank: str, suit: str, error: type[BaseException] | None = None) -> None:
        super().__init__(rank, suit)
        self.error = error

    def __getattribute__(self, name: str) -> object:
        error = object.__getattribute__(self, "error")
        if name == "suit" and error is not None:
            raise error("no suit")
        return object.__getattribute__(self, name)


RAISING: dict[str, Any] = {"cls": Raising}


class Text(str):
    pass


NamedCard = collections.namedtuple("NamedCard", "rank suit")
OtherNamedCard = collections.namedtuple("OtherNamedCard", "rank suit")
NINE_KEYS = tuple(f"k{i}" for i in range(7))


@dataclass
class Slotted:
    __slots__ = ("index",)
    index: int


@dataclass
class Plain:
    rank: object
    suit: object


@dataclass(frozen=True)
class Frozen:
    rank: object
    suit: object


LEVELS: dict[object, Any] = {}
for _name in CARD_NAMES:
    LEVELS.setdefault(_name[0], {})[_name[1]] = _name.encode()
BY_INDEX: dict[object, Any] = {i: name.encode() for i, name in enumerate(CARD_NAMES)}

N = 7
LINE = reference.canonical_line(reference.deal(N).cards)
FLAT_NAMES = LINE.decode().split()


def cards(make: Callable[[str], object] = lambda name: Card(name[0], name[1])) -> list[object]:
    return [make(name) for name in FLAT_NAMES]


def as_rows(flat: list[object], group: type = list) -> list[Any]:
    return [group(flat[i : i + 8]) for i in range(0, 52, 8)]


def as_columns(flat: list[object], group: type = list) -> list[Any]:
    return [group(flat[c::8]) for c in range(8)]


def at(flat: list[object], i: int, value: object) -> list[object]:
    flat = list(flat)
    flat[i] = value
    return flat


def read(items: object, *, how: str = "BY_ATTRIBUTES", distinct: bool = False, **way: Any) -> bytes | None:
    c: Any = importlib.import_module("harness._cardread")
    cls, fields, types, table = (
        way.get("cls", Card),
        way.get("fields", ("rank", "suit")),
        way.get("types"),
        way.get("table", LEVELS),
    )
    return cast(
        "bytes | None", c.line(items, getattr(c, how), cls, fields, types or (str,) * len(fields), table, distinct)
    )


DICT_WAY: dict[str, Any] = {"how": "BY_ITEMS", "cls": dict}
TUPLE_WAY: dict[str, Any] = {"how": "BY_POSITION", "cls": NamedCard}
REPEATED = at(cards(), 51, Card(FLAT_NAMES[0][0], FLAT_NAMES[0][1]))

READ: dict[str, tuple[Callable[[], object], dict[str, Any]]] = {
    "rows of objects": (lambda: as_rows(cards()), {}),
    "columns of objects": (lambda: as_columns(cards()), {}),
    "52 objects": (cards, {}),
    "a tuple of tuples": (lambda: tuple(as_rows(cards(), tuple)), {}),
    "columns as tuples": (lambda: as_columns(cards(), tuple), {}),
    "dicts": (lambda: as_rows(cards(lambda n: {"rank": n[0], "suit": n[1]})), DICT_WAY),
    "dicts whose keys come in another order": (lambda: cards(lambda n: {"suit": n[1], "rank": n[0]}), DICT_WAY),
    "dicts whose keys are equal text, not the same object": (
        lambda: cards(lambda n: {"".join("rank"): n[0], "".join(["su", "it"]): n[1]}),
        DICT_WAY,
    ),
    "one slot": (
        lambda: cards(lambda n: Slotted(CARD_NAMES.index(n))),
        {"cls": Slotted, "fields": ("index",), "types": (int,), "table": BY_INDEX},
    ),
    "namedtuples": (lambda: as_columns(cards(lambda n: NamedCard(n[0], n[1]))), TUPLE_WAY),
    "repeated cards, not asked to differ": (lambda: REPEATED, {}),
}


@pytest.mark.parametrize(("board", "way"), READ.values(), ids=READ.keys())
def test_a_board_the_kind_vouches_for_is_read_to_its_line(board: Callable[[], object], way: dict[str, Any]) -> None:
    got = read(board(), **way)
    if board is READ["repeated cards, not asked to differ"][0]:
        assert got == LINE[:-3] + LINE[:2] + b"\n"
    else:
        assert got == LINE


REFUSED: dict[str, tuple[Callable[[], object], dict[str, Any]]] = {
    "rows of lists and tuples": (lambda: [*as_rows(cards())[:6], tuple(as_rows(cards())[6])], {}),
    "a group of a list subclass": (lambda: [*as_rows(cards())[:6], type("Row", (list,), {})(as_rows(cards())[6])], {}),
    "a row short": (lambda: [*as_rows(cards())[:6], as_rows(cards())[6][:3]], {}),
    "51 cards": (lambda: cards()[:51], {}),
    "53 cards": (lambda: [*cards(), Card("A", "S")], {}),
    "52 groups": (lambda: [[c] for c in cards()], {}),
    "a set of cards": (lambda: set(cards()), {}),
    "a card of a subclass": (lambda: at(cards(), 5, Subcard("A", "S")), {}),
    "a value of a str subclass": (lambda: at(cards(), 5, Card(Text("A"), "S")), {}),
    "a value of another type": (lambda: at(cards(), 5, Card(1, "S")), {}),  # type: ignore[arg-type]
    "a value the table has not": (lambda: at(cards(), 5, Card("X", "S")), {}),
    "a field missing": (lambda: at(cards(), 5, object.__new__(Card)), {}),
    "a field that raises an Exception": (
        lambda: at(cards(lambda n: Raising(n[0], n[1])), 9, Raising("A", "S", ValueError)),
        RAISING,
    ),
    "a dict with a key more": (lambda: cards(lambda n: {"rank": n[0], "suit": n[1], "x": 1}), DICT_WAY),
    "a dict with another key": (
        lambda: at(cards(lambda n: {"rank": n[0], "suit": n[1]}), 3, {"rank": "A", "s": "S"}),
        DICT_WAY,
    ),
    "a dict whose key is a str subclass": (
        lambda: at(cards(lambda n: {"rank": n[0], "suit": n[1]}), 3, {"rank": "A", Text("suit"): "S"}),
        DICT_WAY,
    ),
    "a dict subclass": (
        lambda: at(cards(lambda n: {"rank": n[0], "suit": n[1]}), 3, type("D", (dict,), {})(rank="A", suit="S")),
        DICT_WAY,
    ),
    "a name that is not 2 bytes": (lambda: cards(), {"table": {**LEVELS, "A": {**LEVELS["A"], "S": b"ASX"}}}),
    "a name that is text": (lambda: cards(), {"table": {**LEVELS, "A": {**LEVELS["A"], "S": "AS"}}}),
    "a level that is no dict": (lambda: cards(), {"table": {**LEVELS, "A": [b"AS"]}}),
    "a namedtuple of another class": (
        lambda: at(cards(lambda n: NamedCard(n[0], n[1])), 3, OtherNamedCard("A", "S")),
        TUPLE_WAY,
    ),
    "a plain tuple": (lambda: at(cards(lambda n: NamedCard(n[0], n[1])), 3, ("A", "S")), TUPLE_WAY),
    "a namedtuple's value of a str subclass": (
        lambda: at(cards(lambda n: NamedCard(n[0], n[1])), 3, NamedCard(Text("A"), "S")),
        TUPLE_WAY,
    ),
    "a field name that is a str subclass": (lambda: cards(), {"fields": (Text("rank"), "suit")}),
    "more fields than the compiled reader takes": (
        lambda: cards(lambda n: {"rank": n[0], "suit": n[1], **dict.fromkeys(NINE_KEYS, 0)}),
        {**DICT_WAY, "fields": ("rank", "suit", *NINE_KEYS), "types": (str, str, *(int,) * 7)},
    ),
}


@pytest.mark.parametrize(("board", "way"), REFUSED.values(), ids=REFUSED.keys())
def test_anything_the_kind_does_not_vouch_for_is_none(board: Callable[[], object], way: dict[str, Any]) -> None:
    assert read(board(), **way) is None
    assert read(board(), distinct=True, **way) is None


def test_names_asked_to_differ_that_repeat_are_none() -> None:
    assert read(REPEATED, distinct=True) is None
    assert read(cards(), distinct=True) == LINE


def test_cards_by_identity_are_read_by_their_ids_only() -> None:
    deck = cards()
    by_id = {id(card): name.encode() for card, name in zip(deck, FLAT_NAMES, strict=True)}
    way: dict[str, Any] = {"how": "BY_IDENTITY", "cls": None, "fields": (), "types": (), "table": by_id}
    assert read(as_columns(deck), **way) == LINE
    assert read(at(deck, 7, Card(FLAT_NAMES[7][0], FLAT_NAMES[7][1])), **way) is None  # equal, not the same card


@pytest.mark.parametrize("error", [KeyboardInterrupt, SystemExit])
def test_what_is_no_exception_goes_on_up(error: type[BaseException]) -> None:
    """As the Python reader's `except Exception` lets them through."""
    with pytest.raises(error):
        read(at(cards(lambda n: Raising(n[0], n[1])), 9, Raising("A", "S", error)), **RAISING)


class Emptying(Card):
    """A card whose field empties the board's groups and drops every other card as it is read."""

    board: ClassVar[list[list[object]]] = []

    @property
    def suit(self) -> str:
        for group in Emptying.board:
            group.clear()
        return self._suit

    @suit.setter
    def suit(self, value: str) -> None:
        self._suit = value


def test_a_field_that_empties_the_board_as_it_is_read_reads_the_cards_it_was_given() -> None:
    board = as_rows([Emptying(n[0], n[1]) for n in FLAT_NAMES])
    Emptying.board = board
    assert read(board, cls=Emptying) == LINE
    assert board == [[]] * 7


@pytest.mark.parametrize(
    "args",
    [
        (),
        ([], 9, Card, ("rank",), (str,), {}, False),
        ([], 1, Card, ("rank",), (str,), [], False),
        ([], 1, Card, ("rank", "suit"), (str,), {}, False),
        ([], 1, Card, (), (), {}, False),
        ([], 0, None, ("rank",), (str,), {}, False),
        ([], 2, Card, ("rank",), (str,), {}, False),
        ([], 3, Card, ("rank",), (str,), {}, False),
        ([], 4, Card, ("rank",), (str,), {}, False),
    ],
)
def test_a_call_that_is_no_kinds_way_of_reading_is_a_type_error(args: tuple[Any, ...], compiled: Any) -> None:
    with pytest.raises(TypeError):
        compiled.line(*args)


class Spy:
    """`harness._cardread` that counts the lines it gave, and says how each was read."""

    def __init__(self, module: Any) -> None:
        self.module, self.lines, self.ways = module, 0, set[object]()

    def __getattr__(self, name: str) -> object:
        return getattr(self.module, name)

    def line(self, *args: object) -> object:
        got = self.module.line(*args)
        self.lines += got is not None
        if got is not None:
            self.ways.add(args[1])
        return got


# How the C reads each shape's boards once learnt: a deck made once by identity, whatever its cards hold.
WAYS = {
    "dataclasses": "BY_IDENTITY",
    "enums": "BY_IDENTITY",
    "dicts": "BY_ITEMS",
    "str_cards": "BY_ATTRIBUTES",
    "game_state": "BY_IDENTITY",
    "frozen made each deal": "BY_ATTRIBUTES",
    "namedtuples made each deal": "BY_POSITION",
}


def frozen_made_each_deal(n: int) -> list[list[Frozen]]:
    """Cards that cannot change, made anew each deal (no identity is seen twice): read by their fields."""
    made = [Frozen(name[0], name[1]) for name in reference.canonical_line(reference.deal(n).cards).decode().split()]
    return as_columns(cast("list[object]", made))


def namedtuples_made_each_deal(n: int) -> list[list[NamedCard]]:
    """Namedtuples made anew each deal: read by their items."""
    made = [NamedCard(name[0], name[1]) for name in reference.canonical_line(reference.deal(n).cards).decode().split()]
    return as_rows(cast("list[object]", made))


def dicts_of_nine_keys(n: int) -> list[dict[str, object]]:
    """Dicts of more fields than the compiled reader takes: read in Python."""
    names = reference.canonical_line(reference.deal(n).cards).decode().split()
    return [{"rank": name[0], "suit": name[1], **dict.fromkeys(NINE_KEYS, 0)} for name in names]


MADE_HERE: dict[str, Callable[[int], object]] = {
    "frozen made each deal": frozen_made_each_deal,
    "namedtuples made each deal": namedtuples_made_each_deal,
}


@pytest.mark.parametrize("shape", ["dataclasses", "enums", "dicts", "str_cards", "game_state", *MADE_HERE])
@pytest.mark.parametrize("reader", ["line_to_check", "canonical_line_of"])
def test_a_run_of_objects_is_read_in_c_after_its_first_boards(
    shape: str, reader: str, compiled: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The benchmarks' shapes of objects, frozen cards and namedtuples made each deal: from the sixth
    board of a run, every board's line is the C reader's, read the way the kind reads it fastest (a
    deck made once by its cards' identities), and it is the reference's."""
    shapes.forget()
    spy = Spy(compiled)
    monkeypatch.setattr(shapes, "_cardread", spy)
    read_line = getattr(shapes, reader)
    dealer = MADE_HERE[shape] if shape in MADE_HERE else getattr(shaped_dealers, shape)
    for n in range(1, 6):
        read_line(dealer(n))
    before = spy.lines
    spy.ways.clear()
    for n in range(6, 16):
        assert read_line(dealer(n)) == reference.canonical_line(reference.deal(n).cards)
    assert spy.lines - before == 10
    assert spy.ways == {getattr(compiled, WAYS[shape])}
    shapes.forget()


@pytest.mark.parametrize("reader", ["line_to_check", "canonical_line_of"])
def test_cards_of_more_fields_than_c_takes_are_read_in_python(reader: str) -> None:
    """Dicts of nine keys: the compiled reader hands each board back, and each reads as the reference."""
    shapes.forget()
    read_line = getattr(shapes, reader)
    for n in range(1, 7):
        assert read_line(dicts_of_nine_keys(n)) == reference.canonical_line(reference.deal(n).cards)
    shapes.forget()


def test_the_same_values_in_another_table_get_that_tables_names() -> None:
    """Names are remembered by the table and the values' identities: another table (here naming
    every card as the one after it) gives its own names for the very same value objects."""
    board = cards(lambda n: {"rank": n[0], "suit": n[1]})
    shifted: dict[object, Any] = {}
    for k, name in enumerate(CARD_NAMES):
        after = CARD_NAMES[(k + 1) % 52]
        shifted.setdefault(name[0], {})[name[1]] = after.encode()
    for _ in range(2):  # each table's names looked up, then remembered
        assert read(board, **{**DICT_WAY, "table": LEVELS}) == LINE
        assert (
            read(board, **{**DICT_WAY, "table": shifted})
            == b" ".join(CARD_NAMES[(CARD_NAMES.index(n) + 1) % 52].encode() for n in FLAT_NAMES) + b"\n"
        )


def test_equal_values_that_are_other_objects_are_looked_up() -> None:
    """Text made at run time (equal to the table's keys, not the same objects) is named as they are."""
    fresh = cards(lambda n: Card("".join([n[0]]), "".join(["", n[1]])))
    assert read(fresh) == LINE
    assert read(fresh, distinct=True) == LINE


@pytest.mark.parametrize(("value", "compiled_used"), [(None, True), ("1", False)])
def test_freecell_no_compiled_reads_every_board_in_python(
    value: str | None, compiled_used: bool, tmp_path: Path
) -> None:
    """The environment variable a py: runner inherits: set, the compiled reader is not used."""
    env = {k: v for k, v in os.environ.items() if k != "FREECELL_NO_COMPILED"}
    env["PYTHONPATH"] = str(Path(shapes.__file__).parents[1])  # the harness these tests import, built or not
    if value is not None:
        env["FREECELL_NO_COMPILED"] = value
    said = subprocess.run(
        [sys.executable, "-c", "import harness.shapes as s; print(s._cardread is not None)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout.strip()
    assert said == str(compiled_used)


# -- the compiled reader changes no reading: runs of boards of many kinds, each read with it and without


RANK_SPELLINGS: dict[str, Callable[[int], object]] = {
    "letters": lambda r: "A23456789TJQK"[r],
    "0-based": lambda r: r,
    "1-based": lambda r: r + 1,
    "words": lambda r: [
        "ace",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "jack",
        "queen",
        "king",
    ][r],
}
SUIT_SPELLINGS: dict[str, Callable[[int], object]] = {
    "letters": lambda s: "CDHS"[s],
    "words": lambda s: ("clubs", "diamonds", "hearts", "spades")[s],
    "symbols": lambda s: "♣♦♥♠"[s],
}
MAKERS: dict[str, Callable[[object, object, int], object]] = {
    "dict": lambda r, s, c: {"rank": r, "suit": s},
    "dict, suit first": lambda r, s, c: {"suit": s, "rank": r},
    "dict named by value": lambda r, s, c: {"value": r, "suit": s},
    "dataclass": lambda r, s, c: Plain(r, s),
    "frozen dataclass": lambda r, s, c: Frozen(r, s),
    "one slot": lambda r, s, c: shaped_dealers.StrCard(c),  # numbered as CARD_NAMES
    "namedtuple": lambda r, s, c: NamedCard(r, s),
    "dict of nine keys": lambda r, s, c: {"rank": r, "suit": s, **dict.fromkeys(NINE_KEYS, 0)},
}
FLAWS: dict[str, Callable[[list[Any], int], None]] = {
    "a str subclass value": lambda flat, i: _replace_card(flat, i, lambda card: _respelled(card, Text)),
    "a float for a whole number": lambda flat, i: _replace_card(flat, i, lambda card: _respelled(card, float)),
    "a repeated card": lambda flat, i: flat.__setitem__(i, flat[(i + 1) % 52]),
    "an extra key": lambda flat, i: _replace_card(
        flat, i, lambda card: {**card, "x": 1} if type(card) is dict else card
    ),
    "a card of another class": lambda flat, i: flat.__setitem__(i, Card("A", "S")),
    "a plain tuple": lambda flat, i: _replace_card(
        flat, i, lambda card: tuple(card) if type(card) is NamedCard else card
    ),
}


def _respelled(card: object, kind: type) -> object:
    """The card with its rank (or its slot) made of `kind`, where it can be."""
    if type(card) is dict:
        key = "rank" if "rank" in card else "value"
        return {**card, key: kind(card[key])} if isinstance(card[key], str if kind is Text else int) else card
    if isinstance(card, Plain | Frozen | NamedCard) and isinstance(card.rank, str if kind is Text else int):
        return type(card)(kind(card.rank), card.suit)
    return card


def _replace_card(flat: list[Any], i: int, change: Callable[[Any], Any]) -> None:
    flat[i] = change(flat[i])


def _board(maker: str, ranks: str, suits: str, shape: str, n: int, flaw: tuple[str, int] | None) -> object:
    order = [CARD_NAMES.index(name) for name in reference.canonical_line(reference.deal(n).cards).decode().split()]
    flat = [MAKERS[maker](RANK_SPELLINGS[ranks](c >> 2), SUIT_SPELLINGS[suits](c & 3), c) for c in order]
    if flaw is not None:
        FLAWS[flaw[0]](flat, flaw[1])
    shaped: dict[str, Callable[[list[Any]], object]] = {
        "rows": as_rows,
        "columns": as_columns,
        "52": list,
        "tuples": lambda f: tuple(as_rows(f, tuple)),
    }
    return shaped[shape](flat)


def _outcome(read_line: Callable[[object], bytes], value: object) -> object:
    try:
        return read_line(value)
    except Exception as exc:
        return type(exc).__name__, re.sub(r"0x[0-9a-f]+", "0x…", str(exc))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    maker=st.sampled_from(sorted(MAKERS)),
    ranks=st.sampled_from(sorted(RANK_SPELLINGS)),
    suits=st.sampled_from(sorted(SUIT_SPELLINGS)),
    shape=st.sampled_from(["rows", "columns", "52", "tuples"]),
    deals=st.lists(st.integers(1, 1_000_000), min_size=3, max_size=8),
    flaws=st.lists(st.tuples(st.sampled_from(sorted(FLAWS)), st.integers(0, 51)), max_size=3),
    reader=st.sampled_from(["line_to_check", "canonical_line_of"]),
)
def test_a_run_of_boards_reads_the_same_with_the_compiled_reader_and_without(
    maker: str,
    ranks: str,
    suits: str,
    shape: str,
    deals: list[int],
    flaws: list[tuple[str, int]],
    reader: str,
    monkeypatch: pytest.MonkeyPatch,
    compiled: Any,
) -> None:
    """Boards of one kind of card, then some with a flaw at a card, then right ones again: each read,
    in one run, gives the same line or the same error with the compiled reader and without it."""
    flawed = [None] * len(deals) + [*flaws] + [None] * 2
    runs = [*deals, *deals[: len(flaws)], *deals[:2]][: len(flawed)]
    boards: list[Callable[[], object]] = [
        functools.partial(_board, maker, ranks, suits, shape, n, flaw) for n, flaw in zip(runs, flawed, strict=True)
    ]
    read_line = getattr(shapes, reader)
    outcomes = []
    for module in (compiled, None):
        monkeypatch.setattr(shapes, "_cardread", module)
        shapes.forget()
        outcomes.append([_outcome(read_line, board()) for board in boards])
    shapes.forget()
    assert outcomes[0] == outcomes[1]
