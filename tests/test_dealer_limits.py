"""The limits of a dealer's process tree, against a correct C dealer (tests/dealers/limited.c) that uses
the machine as real programs do: each process starts from nothing (a dead one's zombies are not its
own), a failure is blamed on the deal where the limit was hit and names the limit."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from harness.cli import main
from conftest import need_tools

DEALERS = Path(__file__).parent / "dealers"


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need_tools("cc")
    exe = tmp_path_factory.mktemp("limited") / "limited"
    subprocess.run(["cc", "-O2", "-o", str(exe), str(DEALERS / "limited.c")], check=True)
    return exe


def verify(tmp_path: Path, impl: str, *options: str) -> tuple[int, dict[str, object] | None]:
    report = tmp_path / "report.json"
    status = main(["verify", impl, "--jobs", "1", "--quiet", "--report", str(report), *options])
    failure = json.loads(report.read_text())["first_failure"]
    return status, failure


@pytest.mark.parametrize(
    ("options", "deals", "blamed", "named"),
    [
        (("--max-processes", "3"), "1-40", 3, "--max-processes 3"),
        (("--max-processes", "5"), "1-40", 5, "--max-processes 5"),
        ((), "1-400", 256, "--max-processes 256"),  # the default; a fresh process narrows the chunk 81-336
    ],
)
def test_a_dealers_zombies_count_against_it_alone(
    limited: Path, tmp_path: Path, options: tuple[str, ...], deals: str, blamed: int, named: str
) -> None:
    """It forks at every deal and never reaps: the limit is hit at deal `blamed`, and each fresh process
    started to narrow it down (or the next deal's, `cmd:`) starts with no process but its own."""
    status, failure = verify(tmp_path, f"stream:{limited} zombies", "--range", deals, *options)
    assert status == 1 and failure is not None
    assert (failure["deal"], failure["kind"]) == (blamed, "crash"), failure
    assert f"over the process limit ({named})" in str(failure["message"]), failure
    # One deal per process: never near the limit, however many zombies the processes before it left.
    status, failure = verify(tmp_path, f"cmd:{limited} zombies {{n}}", "--range", "1-30", *options)
    assert (status, failure) == (0, None)
