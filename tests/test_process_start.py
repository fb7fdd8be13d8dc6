"""How `harness.process` starts a dealer: no Python hook between fork and exec (so that subprocess can
vfork), yet the program runs under its limits, and a program that cannot run is refused as exec would."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from harness import process
from harness.limits import NO_LIMITS, Limits

MB = 1 << 20


def limits_of(pid: int) -> dict[str, tuple[str, str]]:
    """/proc/PID/limits: each limit's name with its soft and hard value."""
    rows = Path(f"/proc/{pid}/limits").read_text().splitlines()[1:]
    return {row[:26].strip(): tuple(row[26:].split()[:2]) for row in rows}  # type: ignore[misc]


@pytest.mark.parametrize(
    ("limits", "memory", "name", "value"),
    [
        (Limits(memory_mb=300, open_files=None, processes=None), "address-space", "Max address space", 300 * MB),
        (Limits(memory_mb=300, open_files=None, processes=None), "data", "Max data size", 300 * MB),
        (Limits(memory_mb=None, open_files=77, processes=None), "address-space", "Max open files", 77),
        (Limits(memory_mb=None, cpu_s=2.5, open_files=None, processes=None), "address-space", "Max cpu time", 3),
    ],
)
def test_the_program_itself_runs_under_its_limits(limits: Limits, memory: Any, name: str, value: int) -> None:
    child = process.spawn([sys.executable, "-c", "import sys; sys.stdin.read()"], limits=limits, memory=memory)
    try:
        assert child.read(0.05) is None  # the program, not a gate before it: it waits for its input
        soft, hard = limits_of(child.pid)[name]
        assert int(soft) == value
        assert int(hard) == (value + 1 if name == "Max cpu time" else value)
        assert Path(f"/proc/{child.pid}/exe").resolve() == Path(sys.executable).resolve()
    finally:
        child.kill()


def test_a_dealer_is_started_without_a_hook_before_exec(monkeypatch: pytest.MonkeyPatch) -> None:
    """A `preexec_fn` makes subprocess fork the whole harness for every deal of `cmd:` (many ms each)."""
    seen: list[dict[str, Any]] = []
    real = subprocess.Popen

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", spy)
    result = process.run(["true"], None, 30.0, 1 << 10, Limits(memory_mb=512, cpu_s=5, open_files=64, processes=16))
    assert result.returncode == 0
    assert seen and all(kwargs.get("preexec_fn") is None for kwargs in seen)


def _plain_file(tmp: Path) -> str:
    path = tmp / "data.txt"
    path.write_text("not a program\n")
    return str(path)


def _no_such_file(tmp: Path) -> str:
    return str(tmp / "missing")


def _directory(tmp: Path) -> str:
    return str(tmp)


def _not_on_path(tmp: Path) -> str:
    return "freecell-harness-no-such-program"


@pytest.mark.parametrize(
    ("program", "error"),
    [
        (_no_such_file, FileNotFoundError),
        (_not_on_path, FileNotFoundError),
        (_plain_file, PermissionError),
        (_directory, PermissionError),
    ],
)
def test_a_program_that_cannot_run_is_refused_as_exec_would(tmp_path: Path, program: Any, error: type) -> None:
    argv = [program(tmp_path)]
    assert not os.access(argv[0], os.X_OK) or stat.S_ISDIR(os.stat(argv[0]).st_mode)
    with pytest.raises(error):
        process.spawn(argv, limits=NO_LIMITS)
