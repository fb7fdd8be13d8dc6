"""The example dealers in examples/ conform, through the adapters their README gives them.

Each example is built (where it needs building) once per session; a missing toolchain fails
its cases in CI and skips them, with a loud reason, elsewhere.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import need_tools

import reference
from harness.adapters import DealerOptions, open_dealer

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _need(*tools: str) -> None:
    need_tools(*tools)


def _c(out: Path) -> str:
    _need("cc")
    subprocess.run(["cc", "-O2", "-o", str(out / "freecell"), str(EXAMPLES / "c" / "freecell.c")], check=True)
    return str(out / "freecell")


def _rust(out: Path) -> str:
    _need("rustc")
    subprocess.run(["rustc", "-O", "-o", str(out / "freecell_rs"), str(EXAMPLES / "rust" / "freecell.rs")], check=True)
    return str(out / "freecell_rs")


def _java(out: Path) -> str:
    _need("javac", "java")
    subprocess.run(["javac", "-d", str(out), str(EXAMPLES / "java" / "FreeCell.java")], check=True)
    return str(out)


def _plain(tool: str) -> Callable[[Path], str]:
    def check(out: Path) -> str:
        _need(tool)
        return str(EXAMPLES)

    return check


# (example, how to build it, IMPL template given what was built, deals to check)
CASES: list[tuple[str, Callable[[Path], str], str, range]] = [
    ("c rows+header, stream", _c, "stream:{b} -H", range(1, 20001)),
    ("c canonical lines, stream", _c, "stream:{b} -f line", range(31990, 33000)),
    ("c rows, cmd", _c, "cmd:{b} {{n}}", range(32760, 32770)),
    ("js columns, stream", _plain("node"), "stream:node {b}/js/freecell.js", range(1, 3001)),
    ("js columns, cmd", _plain("node"), "cmd:node {b}/js/freecell.js {{n}}", range(1, 4)),
    ("rust canonical lines, stream", _rust, "stream:{b}", range(1, 20001)),
    ("java symbols and 10, cmd", _java, "cmd:java -cp {b} FreeCell {{n}}", range(1, 4)),
    ("perl json, stream", _plain("perl"), "stream:perl {b}/perl/freecell.pl", range(1, 2001)),
    ("perl json, cmd", _plain("perl"), "cmd:perl {b}/perl/freecell.pl {{n}}", range(1, 6)),
    ("awk suit-first columns, stream", _plain("awk"), "stream:awk -f {b}/awk/freecell.awk", range(1, 2001)),
    ("awk suit-first columns, cmd", _plain("awk"), "cmd:awk -v n={{n}} -f {b}/awk/freecell.awk", range(1, 6)),
]


@pytest.mark.parametrize(("name", "build", "template", "deals"), CASES, ids=[c[0] for c in CASES])
def test_example_conforms(
    name: str, build: Callable[[Path], str], template: str, deals: range, tmp_path_factory: pytest.TempPathFactory
) -> None:
    built = build(tmp_path_factory.mktemp("example"))
    with open_dealer(template.format(b=built), DealerOptions(timeout=20)) as dealer:
        answers = dealer.lines(deals)
    assert b"".join(a for a in answers if isinstance(a, bytes)) == reference.canonical_lines(deals), [
        a for a in answers if not isinstance(a, bytes)
    ][:1]


def test_every_example_has_its_verify_command_in_the_readme() -> None:
    readme = (EXAMPLES / "README.md").read_text()
    sources = (p for p in EXAMPLES.rglob("*") if p.is_file() and p.name != "README.md")
    for source in sorted(p for p in sources if "__pycache__" not in p.parts):  # what running py: examples leaves
        assert str(source.relative_to(EXAMPLES)) in readme, f"{source.name} is not in examples/README.md"
    assert readme.count("freecell-harness verify") >= len(CASES) - 3
