"""`dealer_build`: one SHA-256 per build of a dealer, in every report — the same build under another
path is the same, a rebuilt program, an edited script or module is another."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.adapters import dealer_build
from harness.cli import main

TESTS = Path(__file__).parent
PROGRAM = TESTS / "dealers" / "planted_program.py"


def _stream(folder: Path) -> str:
    return f"stream:{shlex.join([sys.executable, str(folder / 'program.py')])} 0"


def _node(folder: Path) -> str:
    return f"node:{folder / 'deck.js'}"


def _lay_out(folder: Path, helper: str = "module.exports = 214013;\n") -> None:
    """A stream program, and a node dealer whose multiplier comes from a module it requires."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(PROGRAM, folder / "program.py")
    (folder / "lcg.js").write_text(helper)
    (folder / "deck.js").write_text(
        "const A = require('./lcg.js');\n"
        "function dealFreeCell(n) { return [A, n]; }\n"
        "module.exports = { dealFreeCell };\n"
    )


@pytest.mark.parametrize("impl_of", [_stream, _node], ids=["stream", "node"])
def test_the_same_files_under_another_path_are_the_same_build(tmp_path: Path, impl_of: Callable[[Path], str]) -> None:
    _lay_out(tmp_path / "here")
    _lay_out(tmp_path / "elsewhere" / "deeper")
    here, elsewhere = dealer_build(impl_of(tmp_path / "here")), dealer_build(impl_of(tmp_path / "elsewhere" / "deeper"))
    assert here is not None and len(here) == 64
    assert here == elsewhere


@pytest.mark.parametrize(
    ("impl_of", "edit"),
    [
        (_stream, lambda f: (f / "program.py").write_text((f / "program.py").read_text() + "\n# rebuilt\n")),
        (_node, lambda f: (f / "deck.js").write_text((f / "deck.js").read_text() + "\n")),
        (_node, lambda f: (f / "lcg.js").write_text("module.exports = 214014;\n")),  # a module it requires
    ],
    ids=["stream-program", "node-entry", "node-required-module"],
)
def test_an_edited_file_is_another_build(
    tmp_path: Path, impl_of: Callable[[Path], str], edit: Callable[[Path], None]
) -> None:
    _lay_out(tmp_path)
    before = dealer_build(impl_of(tmp_path))
    edit(tmp_path)
    assert dealer_build(impl_of(tmp_path)) not in (before, None)


@pytest.mark.parametrize(
    ("impl", "built"),
    [
        ("reference", True),
        ("fixtures", True),
        ("py:no_such_module_anywhere:deal", False),
        (f"stream:{TESTS / 'no-such-program'}", False),
    ],
)
def test_built_ins_have_a_build_and_what_cannot_be_read_has_none(impl: str, built: bool) -> None:
    assert (dealer_build(impl) is not None) is built


def test_builtins_differ_from_each_other() -> None:
    assert len({dealer_build("reference"), dealer_build("fixtures")}) == 2


def test_the_report_names_the_build(tmp_path: Path) -> None:
    _lay_out(tmp_path)
    impl = _stream(tmp_path)
    out = tmp_path / "r.json"
    assert main(["verify", impl, "--range", "1-50", "--quiet", "--report", str(out)]) == 0
    assert json.loads(out.read_text())["dealer_build"] == dealer_build(impl)


def test_a_rerun_after_a_rebuild_starts_its_resume_log_afresh(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _lay_out(tmp_path)
    impl, log = _stream(tmp_path), str(tmp_path / "run.resume")
    assert main(["verify", impl, "--range", "1-300", "--quiet", "--resume", log]) == 0
    (tmp_path / "program.py").write_text((tmp_path / "program.py").read_text() + "\n# rebuilt\n")
    capsys.readouterr()
    report = str(tmp_path / "r.json")
    assert main(["verify", impl, "--range", "1-300", "--quiet", "--resume", log, "--report", report]) == 0
    out = capsys.readouterr().out
    assert "made by another build" in out and "started afresh" in out
    assert json.loads((tmp_path / "r.json").read_text())["resumed"] == 0  # nothing of the old build's log counted
