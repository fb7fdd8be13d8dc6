"""`py:` dealers as Python code has them, through `verify`: every name (static, class and instance
methods, nested attributes, classes, callable instances), every shape (tests/dealers/shapes),
prints and reads of stdin that never touch the answers, and messages in Python's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.adapters import python
from harness.cli import main

SHAPES = Path(__file__).parent / "dealers" / "shapes"


@pytest.fixture(autouse=True)
def importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(SHAPES))
    monkeypatch.syspath_prepend(str(SHAPES.parent))  # the dealers import shapes.microsoft


def verify(tmp_path: Path, impl: str, *options: str) -> tuple[int, dict[str, object] | None]:
    report = tmp_path / "report.json"
    status = main(["verify", impl, "--range", "1-30", "--jobs", "1", "--quiet", "--report", str(report), *options])
    failure = json.loads(report.read_text())["first_failure"] if report.exists() else None
    return status, failure


CONFORMING = {
    "static method, prints on import and as it deals": ("named:Dealer.deal",),
    "class method that prints card names": ("named:Dealer.shuffle",),
    "instance method of a class made without arguments": ("named:Dealer.rows",),
    "class reached through a class attribute": ("named:Game.Dealer.deal",),
    "nested attributes": ("named:games.microsoft.freecell",),
    "callable instance": ("named:dealer",),
    "reads its stdin": ("named:reads_stdin",),
    "class whose instance prints the board": ("text_cards:Board",),
    "dataclass game state": ("dataclass_game:new_game",),
    "namedtuple of enums in column objects": ("enum_game:deal",),
    "generator of dicts": ("numeric_cards:zero_based",),
    "IntEnum cards named for their cards": ("enum_game:named_members",),
    "a script that parses its command line as it is imported, async def": ("scripted:deal",),
    "a module of a package whose __init__ parses its command line": ("scripted_pkg.deals:deal",),
    "Game(seed).deal(): a method taking nothing, of a class made with the seed": ("scripted:Game.deal",),
    "Game(seed).deal_later(), async def": ("scripted:Game.deal_later",),
    "suits numbered, stated": ("numeric_cards:numbered_suits", "--suits", "SHDC"),
    "cards numbered, stated": ("numeric_cards:card_numbers", "--cards", "suit-major", "--suits", "SHDC"),
    "a NumPy array of card numbers, stated": ("numpy_cards:card_numbers", "--cards", "rank-major", "--suits", "CDHS"),
    "dicts of NumPy integers": ("numpy_cards:dicts",),
}


@pytest.mark.parametrize("impl_and_options", CONFORMING.values(), ids=CONFORMING.keys())
def test_a_py_dealer_as_written_conforms(impl_and_options: tuple[str, ...], tmp_path: Path) -> None:
    impl, *options = impl_and_options
    assert verify(tmp_path, f"py:{impl}", *options) == (0, None)


FAILING = {
    "the method named is the one called": (
        "named:Strict.deal",
        "error",
        "Strict.deal(3) raised ValueError: no such game",
    ),
    "an unreadable card says which field": (
        "named:misread",
        "invalid-output",
        "misread(3) returned a list of 52 items of Card: card [5]: its rank 'Z' is no rank",
    ),
    "a game state one move in": ("dataclass_game:played", "invalid-output", "freecells hold 1 cards"),
    "a game class named, whose deal() deals": (
        "scripted:Game",
        "invalid-output",
        "Game(1) returned a Game: found 0 cards, 52 missing; its method deal() may return the board: "
        "py:scripted:Game.deal",
    ),
    "a function that prints its board and returns None": (
        "named:prints",
        "invalid-output",
        "prints(1) returned None, not a board: a py: dealer returns its board (what it prints is not read; "
        "a program that prints boards is checked as stream: or cmd:)",
    ),
}


@pytest.mark.parametrize(("impl", "kind", "says"), FAILING.values(), ids=FAILING.keys())
def test_a_failing_py_dealer_is_told_in_python_s_words(impl: str, kind: str, says: str, tmp_path: Path) -> None:
    status, failure = verify(tmp_path, f"py:{impl}")
    assert status == 1 and failure is not None
    assert failure["kind"] == kind and says in str(failure["message"]), failure


REFUSED = {
    "suits as bare numbers": (
        "numeric_cards:numbered_suits",
        (),
        "returned cards where the suits are the bare numbers 0 … 3: say which suit each number is with --suits",
    ),
    "cards as bare numbers": ("numeric_cards:card_numbers", (), "--cards {rank-major,suit-major}"),
    "a bad --suits": ("numeric_cards:numbered_suits", ("--suits", "SHDX"), "--suits 'SHDX'"),
    "an instance method of a class that needs arguments": ("text_cards:Card.__str__", (), "instance method"),
    "no such attribute": ("named:Dealer.nothing", (), "Dealer has no attribute nothing"),
    "a method taking an argument, of a class that needs one": (
        "scripted:Game.deal_again",
        (),
        "Game() cannot be made without arguments (TypeError: Game.__init__() missing 1 required positional",
    ),
}


@pytest.mark.parametrize(("impl", "options", "says"), REFUSED.values(), ids=REFUSED.keys())
def test_what_cannot_be_read_without_an_option_is_one_line_exit_2(
    impl: str, options: tuple[str, ...], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = verify(tmp_path, f"py:{impl}", *options)
    err = capsys.readouterr().err
    assert status == 2 and says in err and err.count("\n") == 1, err


# A dealer's module named like one the runner itself imports: an import would give the runner's.
CLASHING = {
    "reference.py in the working directory": ("reference", "."),
    "reference.py on PYTHONPATH": ("reference", "src"),
}


@pytest.mark.parametrize(("module", "folder"), CLASHING.values(), ids=CLASHING.keys())
def test_a_module_named_like_one_of_the_runner_s_is_refused_in_one_line(
    module: str, folder: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    where = tmp_path / folder
    where.mkdir(exist_ok=True)
    (where / f"{module}.py").write_text("def deal(n):\n    return ['AC'] * 52  # wrong: it must never conform\n")
    monkeypatch.chdir(tmp_path)
    if folder != ".":
        monkeypatch.syspath_prepend(str(where))
    status, _ = verify(tmp_path, f"py:{module}:deal")
    err = capsys.readouterr().err
    assert status == 2 and f"{where / module}.py has the name of a module" in err and err.count("\n") == 1, err


def test_a_module_slower_to_import_than_the_runner_waits_is_given_startup_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Importing a dealer may take long (tables built, a model loaded): `--startup-timeout`, when longer
    than the runner's own wait (here made 0.1 s, for a module taking 0.3 s), is its bound."""
    (tmp_path / "slow_to_import.py").write_text(
        "import time\ntime.sleep(0.3)\nfrom shapes.microsoft import names\ndeal = names\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(python, "STARTUP_S", 0.1)
    assert verify(tmp_path, "py:slow_to_import:deal", "--startup-timeout", "60") == (0, None)


def test_a_module_whose_import_never_returns_is_said_to_hang_in_its_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A script with its game loop at the top level was told "no answer within 60 s"."""
    (tmp_path / "game_loop.py").write_text(
        "from shapes.microsoft import names\n\ndef deal(n):\n    return names(n)\n\n"
        "while True:  # the game's own loop, run as the module is imported\n    pass\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(python, "STARTUP_S", 0.5)
    status, _ = verify(tmp_path, "py:game_loop:deal", "--startup-timeout", "1")
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1, err
    assert "importing game_loop did not return within 1 s" in err and "the import hung" in err, err
    assert "top level" in err and "no answer within" not in err, err
