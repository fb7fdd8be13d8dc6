"""harness._cardread, the quick readers' steady state in C: it gives a board's line where every card
is as the kind vouches for, None for anything else (for the Python reader to read), and raises only
what the Python reader would let through.  The same readings through `harness.shapes`, compiled and
not, are compared over every run of tests/test_shapes_fast.py (which runs each test both ways)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, cast

import pytest
from conftest import need_compiled_reader

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


@dataclass
class Slotted:
    __slots__ = ("index",)
    index: int


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
        ([], 1, Card, (1,), (str,), {}, False),
    ],
)
def test_a_call_that_is_no_kinds_way_of_reading_is_a_type_error(args: tuple[Any, ...], compiled: Any) -> None:
    with pytest.raises(TypeError):
        compiled.line(*args)


class Spy:
    """`harness._cardread` that counts the lines it gave."""

    def __init__(self, module: Any) -> None:
        self.module, self.lines = module, 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.module, name)

    def line(self, *args: object) -> object:
        got = self.module.line(*args)
        self.lines += got is not None
        return got


@pytest.mark.parametrize("shape", ["dataclasses", "enums", "dicts", "str_cards", "game_state"])
@pytest.mark.parametrize("reader", ["line_to_check", "canonical_line_of"])
def test_a_run_of_objects_is_read_in_c_after_its_first_boards(
    shape: str, reader: str, compiled: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The benchmarks' shapes of objects: from the fourth board of a run, every board's line is the C
    reader's, and it is the reference's."""
    shapes.forget()
    spy = Spy(compiled)
    monkeypatch.setattr(shapes, "_cardread", spy)
    read_line = getattr(shapes, reader)
    dealer = getattr(shaped_dealers, shape)
    for n in (1, 2, 3):
        read_line(dealer(n))
    before = spy.lines
    for n in range(4, 14):
        assert read_line(dealer(n)) == reference.canonical_line(reference.deal(n).cards)
    assert spy.lines - before == 10
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
