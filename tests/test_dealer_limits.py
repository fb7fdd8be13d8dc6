"""The limits of a dealer's process tree, against a correct C dealer (tests/dealers/limited.c) that uses
the machine as real programs do: each process starts from nothing (a dead one's zombies are not its
own), a failure is blamed on the deal where the limit was hit and names the limit."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import need_tools

from harness import process
from harness.cli import main
from harness.process import cgroups

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


@pytest.fixture(params=["cgroup", "rlimit"])
def memory_bound(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """How a dealer's memory is bounded: by a cgroup (where the machine allows; said loudly where it does
    not), or, where none can be made, by each process's RLIMIT_DATA."""
    process.close_spawners()  # an idle spawner keeps the bound it was made with
    if request.param == "cgroup":
        made = cgroups.Cgroup.make_memory(f"probe-{os.getpid()}", 64)
        if made is None:
            pytest.skip("MEMORY CGROUP NOT AVAILABLE on this machine, the cgroup case not run")
        made.remove()
        monkeypatch.setattr(cgroups, "cgroup_roots", list)  # the memory cgroup of v1, beside no other
    else:
        monkeypatch.setattr(cgroups, "own_memory_cgroup1", lambda: None)
        monkeypatch.setattr(cgroups.Cgroup, "_bound_memory", lambda self, limit: False)
    yield request.param
    process.close_spawners()


@pytest.mark.parametrize(
    ("behaviour", "options", "failure"),
    [
        # A JVM or a Go program reserves far more address space than it uses: never a failure of ours.
        ("reserve 6000", (), None),
        ("reserve 20000", ("--memory-limit", "256"), None),
        # What a dealer really takes is bounded, and its failure names the limit.
        ("use 100", ("--memory-limit", "256"), None),
        ("use 400", ("--memory-limit", "256"), "over the memory limit (--memory-limit 256 MB)"),
    ],
)
@pytest.mark.parametrize("kind", ["stream", "cmd"])
def test_the_memory_limit_bounds_what_a_dealer_uses_not_what_it_reserves(
    limited: Path,
    tmp_path: Path,
    memory_bound: str,
    kind: str,
    behaviour: str,
    options: tuple[str, ...],
    failure: str | None,
) -> None:
    impl = f"stream:{limited} {behaviour}" if kind == "stream" else f"cmd:{limited} {behaviour} {{n}}"
    status, found = verify(tmp_path, impl, "--range", "1-12", *options)
    if failure is None:
        assert (status, found) == (0, None), found
    else:
        assert status == 1 and found is not None
        assert (found["deal"], found["kind"]) == (1, "crash"), found
        assert failure in str(found["message"]), found


JVM_OUT_OF_MEMORY = (
    "#\n# There is insufficient memory for the Java Runtime Environment to continue.\n"
    "# Native memory allocation (mmap) failed to map 268435456 bytes for G1 virtual space\n"
)


def test_a_dealer_that_says_on_stdout_it_lacked_memory_is_told_the_limit(tmp_path: Path) -> None:
    """A JVM that cannot reserve its heap says so on stdout, and nothing on stderr: the crash names the
    limit, and quotes what it printed (it said "exited with status 1; no stderr")."""
    script = tmp_path / "jvm.sh"
    script.write_text(f"printf '%s' '{JVM_OUT_OF_MEMORY}'\nexit 1\n")
    status, failure = verify(tmp_path, f"cmd:sh {script} {{n}}", "--range", "1-3")
    assert status == 1 and failure is not None and failure["kind"] == "crash", failure
    message = str(failure["message"])
    assert "over the memory limit (--memory-limit 4096 MB)" in message, message
    assert "stdout: # # There is insufficient memory for the Java Runtime Environment" in message, message
