"""The first command a newcomer types works, or says in one line what to type instead."""

from __future__ import annotations

import json
import shutil
import stat
import sys
from pathlib import Path

import pytest

from harness.cli import main

GOOD_JS = Path(__file__).parent / "js" / "good.js"
PROGRAM = "#!/bin/sh\necho AC\n"
PY_DEALER = "import sys\n\n\ndef deal(n):\n    return []\n\n\ndef _helper():\n    pass\n\n\ndef main():\n    pass\n"
# A dealing module as real ones are written: its generator and deck first, the dealing function later.
PY_HELPERS_FIRST = (
    "def ms_rand(seed):\n    pass\n\n\ndef new_deck():\n    pass\n\n\ndef freecell_board(game_number):\n"
    "    pass\n\n\ndef print_board(board):\n    pass\n"
)
PY_DEALS_BY_NAME = "def lcg(seed):\n    pass\n\n\ndef shuffle(deck, seed):\n    pass\n\n\ndef deal_game(n):\n    pass\n"


def _make(where: Path, name: str) -> None:
    path = where / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if name.endswith(".py"):
        path.write_text({"helpers.py": PY_HELPERS_FIRST, "named.py": PY_DEALS_BY_NAME}.get(path.name, PY_DEALER))
    elif name.endswith((".go", ".pl", ".rb", ".php", ".lua")):
        path.write_text("package main\n")  # a source file, not executable
    else:
        path.write_text(PROGRAM)
        path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.mark.parametrize(
    ("files", "impl", "says"),
    [
        (["dealer"], "./dealer", "try stream:./dealer if it reads deal numbers on stdin"),
        (["dealer"], "./dealer", "cmd:'./dealer {n}' if it takes the deal number as its argument"),
        (["dealer"], "dealer", "try stream:./dealer if"),
        (["bin/dealer"], "bin/dealer", "cmd:'bin/dealer {n}'"),
        (["dealer.py"], "dealer.py", "try py:dealer:deal (its functions: deal, main)"),
        (["dealer.py"], "dealer.py", "or stream:'python3 dealer.py' if it reads deal numbers on stdin"),
        (["src/dealer.py"], "src/dealer.py", "try py:dealer:deal with PYTHONPATH=src (its functions: deal, main)"),
        (["dealer.go"], "dealer.go", "build it, then verify stream:./PROGRAM or cmd:'./PROGRAM {n}'"),
        # a script of an interpreter: the command that runs it, not "build it"
        (["freecell.pl"], "freecell.pl", "try cmd:'perl freecell.pl {n}' if it takes the deal number"),
        (["freecell.rb"], "freecell.rb", "or stream:'ruby freecell.rb' if it reads deal numbers on stdin"),
        (["deal.php"], "deal.php", "try cmd:'php deal.php {n}'"),
        (["deal.lua"], "deal.lua", "try cmd:'lua deal.lua {n}'"),
        # the function that deals, not the first one defined
        (["helpers.py"], "helpers.py", "try py:helpers:freecell_board (its functions: ms_rand, new_deck,"),
        (["named.py"], "named.py", "try py:named:deal_game (its functions:"),
        # a React component file: one line saying to name a file without JSX, not "not a challenge document"
        (["Game.tsx"], "Game.tsx", "Game.tsx: JSX (.tsx) cannot run as a dealer: put the dealing function in a .ts"),
        (["src/Game.jsx"], "node:src/Game.jsx#deal", "src/Game.jsx: JSX (.jsx) cannot run as a dealer"),
        ([], "./dealer", "expected one of reference, fixtures"),
        ([], "dealer.py", "expected one of reference, fixtures"),
        # a py: module that cannot be imported says where modules are looked for
        ([], "py:nosuch:deal", "modules are looked for in the working directory and in PYTHONPATH"),
        (["dealer.py"], "py:dealer.py:deal", "a file path is not a module name: try py:dealer:deal"),
        (["src/dealer.py"], "py:src/dealer.py:deal", "not a module name: try py:dealer:deal with PYTHONPATH=src"),
        (["src/dealer.py"], "py:src/dealer:deal", "not a module name: try py:dealer:deal with PYTHONPATH=src"),
    ],
)
def test_a_file_given_as_impl_says_the_command_to_try(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    files: list[str],
    impl: str,
    says: str,
) -> None:
    for name in files:
        _make(tmp_path, name)
    monkeypatch.chdir(tmp_path)
    assert main(["verify", impl, "--range", "1-10", "--jobs", "1", "-q"]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1, err


@pytest.mark.parametrize("name", ["deal.js", "deal.cjs"])  # good.js is CommonJS
def test_a_javascript_file_is_taken_as_node(
    node: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    shutil.copy(GOOD_JS, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    report = tmp_path / "r.json"
    assert main(["verify", name, "--range", "1-50", "--jobs", "1", "-q", "--report", str(report)]) == 0
    assert json.loads(report.read_text())["implementation"] == f"node:{name}"
    assert capsys.readouterr().out.startswith(f"CONFORMS: node:{name} against reference")


@pytest.mark.parametrize("kind", ["stream", "cmd"])
def test_a_pipeline_inside_a_program_impl_says_to_wrap_it_in_sh(capsys: pytest.CaptureFixture[str], kind: str) -> None:
    impl = f"{kind}:{sys.executable} -c pass | {sys.executable} -c pass"
    assert main(["verify", impl, "--range", "1-10", "--jobs", "1", "-q"]) == 2
    err = capsys.readouterr().err
    assert f"wrap it in sh -c: {kind}:sh -c '" in err and err.count("\n") == 1, err


# Reports of other ranges are not refused: they merge by coverage (test_report.py).
@pytest.mark.parametrize(
    ("change", "field"),
    [({"dialect": "fcpro"}, "different dialects"), ({"implementation": "py:other:deal"}, "different dealers"),
     ({"against": "fixtures"}, "different dealers compared with ('against')")],
)  # fmt: skip
def test_report_merge_names_the_field_in_which_two_runs_differ(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, object], field: str
) -> None:
    base = {"implementation": "reference", "against": "reference", "dialect": "classic", "checked": 10,
            "conformant": True, "first_failure": None, "elapsed_s": 1.0, "ranges": [[1, 10]]}  # fmt: skip
    (tmp_path / "a.json").write_text(json.dumps(base | {"shard": "1/2"}))
    (tmp_path / "b.json").write_text(json.dumps(base | {"shard": "2/2"} | change))
    assert main(["report", "merge", str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 2
    err = capsys.readouterr().err
    assert field in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("deals", "says"),
    [("1-1", ["1 deal checked", "1 deal in", "1 job)"]), ("1-2", ["2 deals checked", "2 deals in", "1 job)"])],
)
def test_counts_of_one_are_singular(capsys: pytest.CaptureFixture[str], deals: str, says: list[str]) -> None:
    assert main(["verify", "reference", "--range", deals, "--jobs", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert all(s in out for s in says), out


# Dealers that do not define the function asked for: (file, its text, IMPL, what the refusal suggests)
SCRIPT = "function msRand(seed) {\n  return seed;\n}\nconst dealCards = (n) => [];\nfunction printBoard(b) {}\n"
CLASSES_TS = (
    "export class Card {\n  constructor(public rank: number, public suit: number) {}\n}\n"
    "export class FreeCell {\n  static deal(n: number): Card[][] {\n    return [];\n  }\n}\n"
)
CLASSES_JS = (
    "class Card {}\nclass FreeCell {\n  static deal(n) {\n    return [];\n  }\n}\n"
    "module.exports = { Card, FreeCell };\n"
)
MISSING_FUNCTIONS = {
    "a script, the default name": ("deal.js", SCRIPT, "deal.js", "(it defines msRand, dealCards, printBoard: name it"),
    "a script, a name it lacks": ("deal.js", SCRIPT, "node:deal.js#deal", "e.g. node:deal.js#dealCards)"),
    "TypeScript classes Card and FreeCell": ("deck.ts", CLASSES_TS, "deck.ts", "name it, e.g. #FreeCell.deal)"),
    "JavaScript classes Card and FreeCell": ("deck.js", CLASSES_JS, "node:deck.js#deal", "e.g. #FreeCell.deal)"),
}


@pytest.mark.parametrize(("name", "text", "impl", "says"), MISSING_FUNCTIONS.values(), ids=MISSING_FUNCTIONS.keys())
def test_a_dealer_without_the_function_named_says_which_it_defines(
    request: pytest.FixtureRequest,
    node: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    text: str,
    impl: str,
    says: str,
) -> None:
    """A script's functions were not named; for deck.ts the suggestion was #Card, a class that deals nothing."""
    if name.endswith(".ts"):
        request.getfixturevalue("compiler")
    (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    assert main(["verify", impl, "--range", "1-10", "--jobs", "1", "-q"]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "#Card" not in err, err
