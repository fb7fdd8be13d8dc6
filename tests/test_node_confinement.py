"""`node:` reads nothing outside the dealer's tree (issue 19.2): the harness gathers a dealer's
files itself, so Node's read restriction never sees them; the gathering is confined to the
dealer's package root and its node_modules, with symlinks resolved before deciding.  Whatever
reaches out is a load error (exit 2) naming the path, never showing what the file holds."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.cli import main

SECRET = "TOPSECRET-7d1f0c-do-not-print"
SHOW = "exports.dealFreeCell = (n) => { throw new Error('leak: ' + JSON.stringify(secret)); };\n"


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    """(the dealer's package root, the secret's folder beside it)."""
    outside = tmp_path / "private"
    outside.mkdir()
    (outside / "secret.js").write_text(f"module.exports = {json.dumps(SECRET)};\n", encoding="utf-8")
    (outside / "secret.json").write_text(json.dumps({"token": SECRET}), encoding="utf-8")
    (outside / "package.json").write_text(json.dumps({"name": "private", "main": "secret.js"}), encoding="utf-8")
    root = tmp_path / "game"
    (root / "src").mkdir(parents=True)
    (root / "package.json").write_text(json.dumps({"name": "game"}), encoding="utf-8")
    return root, outside


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def absolute_json(root: Path, outside: Path) -> tuple[Path, Path]:
    source = f"const secret = require({json.dumps(str(outside / 'secret.json'))});\n"
    dealer = _write(root / "src/deal.js", source + SHOW)
    return dealer, outside / "secret.json"


def relative_climb(root: Path, outside: Path) -> tuple[Path, Path]:
    climb = os.path.relpath(outside / "secret.js", root / "src")
    dealer = _write(root / "src/deal.js", f"const secret = require({json.dumps(climb)});\n" + SHOW)
    return dealer, outside / "secret.js"


def symlinked_file(root: Path, outside: Path) -> tuple[Path, Path]:
    (root / "src/cards.js").symlink_to(outside / "secret.js")
    dealer = _write(root / "src/deal.js", "const secret = require('./cards');\n" + SHOW)
    return dealer, outside / "secret.js"


def symlinked_folder(root: Path, outside: Path) -> tuple[Path, Path]:
    (root / "node_modules").mkdir()
    (root / "node_modules/deck").symlink_to(outside, target_is_directory=True)
    dealer = _write(root / "src/deal.js", "const secret = require('deck');\n" + SHOW)
    return dealer, outside


def es_import(root: Path, outside: Path) -> tuple[Path, Path]:
    dealer = _write(
        root / "src/deal.mjs",
        f"import secret from {json.dumps(str(outside / 'secret.js'))};\n"
        "export function dealFreeCell(n) { throw new Error('leak: ' + secret); }\n",
    )
    return dealer, outside / "secret.js"


def package_main_out(root: Path, outside: Path) -> tuple[Path, Path]:
    main_field = os.path.relpath(outside / "secret.js", root / "node_modules/cards")
    _write(root / "node_modules/cards/package.json", json.dumps({"name": "cards", "main": main_field}))
    dealer = _write(root / "src/deal.js", "const secret = require('cards');\n" + SHOW)
    return dealer, outside / "secret.js"


def relative_from_a_package(root: Path, outside: Path) -> tuple[Path, Path]:
    climb = os.path.relpath(outside / "secret.js", root / "node_modules/cards")
    _write(root / "node_modules/cards/index.js", f"module.exports = require({json.dumps(climb)});\n")
    dealer = _write(root / "src/deal.js", "const secret = require('cards');\n" + SHOW)
    return dealer, outside / "secret.js"


def package_exports_out(root: Path, outside: Path) -> tuple[Path, Path]:
    target = "./" + os.path.relpath(outside / "secret.js", root / "node_modules/cards")
    _write(root / "node_modules/cards/package.json", json.dumps({"name": "cards", "exports": {".": target}}))
    dealer = _write(root / "src/deal.js", "const secret = require('cards');\n" + SHOW)
    return dealer, outside / "secret.js"


def tsconfig_alias_out(root: Path, outside: Path) -> tuple[Path, Path]:
    """A TypeScript path alias leading out (found while gathering, before any compiler runs)."""
    _write(root / "tsconfig.json", json.dumps({"compilerOptions": {"paths": {"@lib/*": ["../private/*"]}}}))
    dealer = _write(
        root / "src/deal.ts",
        "import secret from '@lib/secret';\nexport function dealFreeCell(n: number) { throw new Error(secret); }\n",
    )
    return dealer, outside / "secret"


ATTACKS: dict[str, Callable[[Path, Path], tuple[Path, Path]]] = {
    "require-absolute-json": absolute_json,
    "require-relative-climb": relative_climb,
    "symlinked-file": symlinked_file,
    "symlinked-package-folder": symlinked_folder,
    "esm-import-absolute": es_import,
    "package-main-points-out": package_main_out,
    "package-requires-out": relative_from_a_package,
    "package-exports-point-out": package_exports_out,
    "tsconfig-alias-out": tsconfig_alias_out,
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_dealer_reaching_outside_its_tree_is_a_load_error_that_shows_nothing(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], attack: str, jobs: str
) -> None:
    root, outside = _tree(tmp_path)
    dealer, reached = ATTACKS[attack](root, outside)
    report = tmp_path / "report.json"
    rc = main(["verify", f"node:{dealer}", "--range", "1-5", "--jobs", jobs, "--report", str(report)])
    captured = capsys.readouterr()
    shown = captured.out + captured.err + (report.read_text(encoding="utf-8") if report.exists() else "")
    assert SECRET not in shown
    assert rc == 2, captured
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert str(reached) in captured.err and "outside the dealer's tree" in captured.err, captured.err


@pytest.mark.parametrize(
    "reach",
    [
        "const m = await import(SECRET_PATH); throw new Error('leak: ' + m.default);",
        "const m = require(SECRET_PATH); throw new Error('leak: ' + m);",
        "const m = require(['..', '..', 'private', 'secret.js'].join('/')); throw new Error('leak: ' + m);",
    ],
    ids=["import()", "require-of-a-variable", "require-of-a-computed-path"],
)
def test_a_path_known_only_when_the_dealer_runs_is_refused_at_its_deal(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], reach: str
) -> None:
    """Not gathered (the harness follows literal names only), so nothing is there to load."""
    root, outside = _tree(tmp_path)
    dealer = _write(
        root / "src/deal.js",
        f"const SECRET_PATH = {json.dumps(str(outside / 'secret.js'))};\n"
        f"exports.dealFreeCell = async (n) => {{ {reach} }};\n",
    )
    rc = main(["verify", f"node:{dealer}", "--range", "1-3", "--jobs", "1"])
    captured = capsys.readouterr()
    assert SECRET not in captured.out + captured.err
    assert rc == 1, captured


LIB = Path(__file__).with_name("js") / "modules" / "lib"


def _deck(folder: Path, name: str = "deck.js") -> None:
    """The tests' library dealer (deck.js and the names.json it requires) copied into `folder`."""
    _write(folder / name, (LIB / "deck.js").read_text(encoding="utf-8"))
    _write(folder / "names.json", (LIB / "names.json").read_text(encoding="utf-8"))


def _inside_links(root: Path, outside: Path) -> Path:
    """A pnpm-style tree: node_modules/deck is a link to a folder inside the package root."""
    _deck(root / "vendor/deck", "index.js")
    (root / "node_modules").mkdir()
    (root / "node_modules/deck").symlink_to(Path("../vendor/deck"), target_is_directory=True)
    (root / "src/rows.js").symlink_to(Path("../vendor/deck/index.js"))
    return _write(
        root / "src/deal.js",
        "const deck = require('deck');\nconst same = require('./rows');\n"
        "exports.dealFreeCell = (n) => (deck === same ? deck.rows(n) : null);\n",
    )


def _no_package_json(root: Path, outside: Path) -> Path:
    """No package.json anywhere: the tree is the dealer's own folder."""
    (root / "package.json").unlink()
    _deck(root / "src/lib")
    return _write(root / "src/deal.js", "const deck = require('./lib/deck');\nexports.dealFreeCell = deck.rows;\n")


@pytest.mark.parametrize("layout", [_inside_links, _no_package_json], ids=["links-inside", "no-package-json"])
def test_links_and_folders_inside_the_tree_still_load(node: str, tmp_path: Path, layout: Callable[..., Path]) -> None:
    root, outside = _tree(tmp_path)
    dealer = layout(root, outside)
    assert main(["verify", f"node:{dealer}", "--range", "1-200", "--jobs", "1"]) == 0


# A project without a package.json, as real ones are laid out: src/deck.js requires ../utils/srand.
SRAND = """let state = 0;
function srand(seed) { state = seed; }
function rand() { state = (state * 214013 + 2531011) % 2147483648; return Math.floor(state / 65536); }
module.exports = { srand, rand };
"""
DECK = """const { srand, rand } = require('../utils/srand');
function deal(n) {
  const deck = [];
  for (let i = 0; i < 52; i++) deck.push('A23456789TJQK'[Math.floor(i / 4)] + 'CDHS'[i % 4]);
  srand(n);
  const out = [];
  for (let left = 52; left > 0; left--) {
    const k = rand() % left;
    [deck[k], deck[left - 1]] = [deck[left - 1], deck[k]];
    out.push(deck.pop());
  }
  return out;
}
module.exports = { deal };
"""

# (the working directory, relative to the project; what a run from there does: exit, what it says)
PACKAGELESS = {
    "run from the project": (".", 0, ""),
    "run from its src": ("src", 2, "outside the dealer's tree"),
    "run from elsewhere": ("../private", 2, "outside the dealer's tree"),
}


@pytest.mark.parametrize(("cwd", "code", "says"), PACKAGELESS.values(), ids=PACKAGELESS.keys())
def test_without_package_json_the_tree_is_the_working_directory_the_dealer_lies_under(
    node: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    cwd: str,
    code: int,
    says: str,
) -> None:
    """A project run from its top was refused: `../utils/srand` "outside the dealer's tree"."""
    root, _ = _tree(tmp_path)
    (root / "package.json").unlink()
    _write(root / "utils/srand.js", SRAND)
    dealer = _write(root / "src/deck.js", DECK)
    monkeypatch.chdir(root / cwd)
    assert main(["verify", f"node:{dealer}#deal", "--range", "1-200", "--jobs", "1"]) == code
    assert says in capsys.readouterr().err


def test_a_run_from_the_project_still_reads_nothing_above_it(
    node: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root, outside = _tree(tmp_path)
    (root / "package.json").unlink()
    dealer, reached = relative_climb(root, outside)
    monkeypatch.chdir(root)
    assert main(["verify", f"node:{dealer}", "--range", "1-3", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert str(reached) in err and "outside the dealer's tree" in err and SECRET not in err, err


def test_the_tree_of_a_dealer_without_package_json_outside_the_working_directory_is_its_folder(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sibling folder is outside when neither a package.json nor the working directory makes the parent the root."""
    root, _ = _tree(tmp_path)
    (root / "package.json").unlink()
    _write(root / "shared/deck.js", "module.exports = 1;\n")
    source = "const deck = require('../shared/deck');\nexports.dealFreeCell = () => deck;\n"
    dealer = _write(root / "src/deal.js", source)
    assert main(["verify", f"node:{dealer}", "--range", "1-3", "--jobs", "1"]) == 2
    assert "outside the dealer's tree" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("specifier", "why"), [("./a/x", "a symlink loop"), ("./x\0y", "a NUL in the name")], ids=["loop", "nul"]
)
def test_a_path_that_names_no_file_is_one_line_exit_2(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], specifier: str, why: str
) -> None:
    """Both were exit 3 (RuntimeError, ValueError from resolving them)."""
    root, _ = _tree(tmp_path)
    (root / "src/a").symlink_to("b")
    (root / "src/b").symlink_to("a")
    dealer = _write(root / "src/deal.js", f"const x = require('{specifier}');\nexports.dealFreeCell = () => x;\n")
    assert main(["verify", f"node:{dealer}", "--range", "1-3", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "deal.js:1" in err and f"names no file: {why}" in err, err
