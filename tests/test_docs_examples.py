"""The console sessions of README.md and docs/ are run, and must print what they show.

A session is a fenced ```console block: each `$ COMMAND` line is run by bash from the
repository's root (`$ cd DIR` moves the rest of the block there), with `freecell-harness` being
this checkout's; the lines up to the next `$` are what it prints on stdout and stderr together.
In those lines `...` stands for any text within the line, a line of `...` alone for any number
of lines, and a last line `[exit N]` for the exit status (0 when there is none).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
_FENCE = re.compile(r"^```console\n(.*?)^```$", re.MULTILINE | re.DOTALL)
_EXIT = re.compile(r"^\[exit (\d+)\]$")


@dataclass
class Example:
    command: str
    where: str  # directory, relative to the repository's root
    output: list[str] = field(default_factory=list)
    status: int = 0


def examples_in(text: str) -> list[tuple[int, list[Example]]]:
    """(line of the block, its commands) for every console block of a Markdown text."""
    blocks = []
    for match in _FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        where, commands = ".", []
        for row in match[1].splitlines():
            if row.startswith("$ cd "):
                where = os.path.normpath(os.path.join(where, row[5:].strip()))
            elif row.startswith("$ "):
                commands.append(Example(row[2:], where))
            elif not commands:
                raise ValueError(f"line {line}: output before any `$ command` in a console block")
            elif m := _EXIT.match(row):
                commands[-1].status = int(m[1])
            else:
                commands[-1].output.append(row)
        blocks.append((line, commands))
    return blocks


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether the printed lines are the shown ones, `...` standing for what changes."""
    if not shown:
        return not printed
    head, rest = shown[0], shown[1:]
    if head == "...":
        return any(matches(rest, printed[i:]) for i in range(len(printed) + 1))
    if not printed:
        return False
    pattern = ".*".join(re.escape(part) for part in head.split("..."))
    return re.fullmatch(pattern, printed[0].rstrip()) is not None and matches(rest, printed[1:])


CASES = [
    pytest.param(commands, id=f"{path.relative_to(ROOT)}:{line}")
    for path in DOCUMENTS
    for line, commands in examples_in(path.read_text(encoding="utf-8"))
]


@pytest.fixture(scope="module")
def command_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory whose `freecell-harness` runs this checkout's harness with this Python."""
    bin_dir = tmp_path_factory.mktemp("bin")
    script = bin_dir / "freecell-harness"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m harness "$@"\n', encoding="utf-8")
    script.chmod(0o755)
    return bin_dir


def test_the_documents_have_runnable_examples() -> None:
    # The examples would stop being checked if the marker or the reader changed unnoticed.
    assert len(CASES) >= 10, [c.id for c in CASES]


@pytest.mark.parametrize("commands", CASES)
def test_console_example(commands: list[Example], command_dir: Path, request: pytest.FixtureRequest) -> None:
    if any("node" in c.command for c in commands):
        request.getfixturevalue("node")  # Node missing: fails in CI, skips loudly elsewhere
    if any("../shared/seeds" in c.command for c in commands):
        request.getfixturevalue("seeds")
    env = dict(os.environ, PATH=f"{command_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("PYTHONIOENCODING", None)  # tox sets it; a reader's terminal does not, and the docs show what it shows
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env.pop("FREECELL_DEBUG", None)
    for example in commands:
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", example.command],
            cwd=ROOT / example.where,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=120,
        )
        # A run that takes over PLAIN_EVERY_S says how far it is on a line of its own: when it does is
        # the machine's pace, not the example's, so such lines are not part of what the docs show.
        printed = [line for line in done.stdout.splitlines() if not line.startswith("progress: ")]
        shown = "\n".join(example.output)
        assert matches(example.output, printed), f"$ {example.command}\nshown:\n{shown}\nprinted:\n{done.stdout}"
        assert done.returncode == example.status, f"$ {example.command}: exit {done.returncode}\n{done.stdout}"


@pytest.mark.parametrize(
    ("shown", "printed", "expected"),
    [
        (["a ... c"], ["a b c"], True),
        (["a ... c"], ["a b d"], False),
        (["a", "...", "d"], ["a", "b", "c", "d"], True),
        (["a", "...", "d"], ["a", "d"], True),
        (["a", "...", "d"], ["a", "b", "c"], False),
        (["a"], ["a", "b"], False),
        (["a", "b"], ["a"], False),
        (["x (1.5 s)"], ["x (1.5 s)"], True),
        (["x (1.5 s)"], ["x (1-5 s)"], False),
    ],
)
def test_output_matching(shown: list[str], printed: list[str], expected: bool) -> None:
    assert matches(shown, printed) is expected


def test_blocks_are_read_with_their_status_and_directory() -> None:
    text = "x\n```console\n$ cd examples\n$ true\nout\n[exit 1]\n$ false\n```\n"
    ((line, commands),) = examples_in(text)
    assert line == 2
    assert [(c.command, c.where, c.output, c.status) for c in commands] == [
        ("true", "examples", ["out"], 1),
        ("false", "examples", [], 0),
    ]
