"""The empty cgroups a harness process left behind when it ended (a member that stayed a zombie longer than it
and its sentinel waited) are removed by the next harness process that supervises dealers; nothing else is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import IN_CI

from harness.process import cgroups

DEAD = 4_194_305  # above the largest pid Linux allows (2^22): no such process, ever
OLD = 3600  # seconds: long past ABANDONED_AFTER_S


def _root(tmp_path: Path) -> Path:
    """Where the harness makes its cgroups here; else a plain directory, where rmdir behaves alike."""
    roots = cgroups.cgroup_roots()
    return roots[0] if roots else tmp_path


CASES = {
    "an ended harness's, empty and old": (f"{cgroups.PREFIX}{DEAD}-1-2", OLD, False, False),
    "an ended harness's, just made": (f"{cgroups.PREFIX}{DEAD}-1-2", 0, False, True),
    "a live harness's": (f"{cgroups.PREFIX}{os.getpid()}-1-2", OLD, False, True),
    "an ended harness's with a member": (f"{cgroups.PREFIX}{DEAD}-1-3", OLD, True, True),
    "not the harness's": (f"other-{DEAD}-1-2", OLD, False, True),
}


@pytest.mark.parametrize(("name", "age", "member", "kept"), CASES.values(), ids=CASES.keys())
def test_only_the_empty_cgroups_of_ended_harness_processes_are_removed(
    tmp_path: Path, name: str, age: int, member: bool, kept: bool
) -> None:
    root = _root(tmp_path)
    path = root / name
    path.mkdir()
    sleeper = None
    try:
        if member:
            if (path / "cgroup.procs").exists():
                sleeper = subprocess.Popen(["sleep", "60"])
                (path / "cgroup.procs").write_text(f"{sleeper.pid}\n")
            else:
                (path / "member").touch()
        stamp = os.stat(path).st_mtime - age
        os.utime(path, (stamp, stamp))
        cgroups.sweep_abandoned([root])
        assert path.exists() == kept
    finally:
        if sleeper is not None:
            sleeper.kill()
            sleeper.wait()
        (path / "member").unlink(missing_ok=True)
        for _ in range(100):
            try:
                path.rmdir()
                break
            except FileNotFoundError:
                break
            except OSError:
                os.sched_yield()


def test_a_run_that_starts_a_dealer_sweeps_them(tmp_path: Path) -> None:
    roots = cgroups.cgroup_roots()
    if not roots:
        message = "no cgroup the harness may make here: nothing it could leave behind"
        if IN_CI:
            pytest.fail(f"required in CI: {message}")
        pytest.skip(message)
    path = roots[0] / f"{cgroups.PREFIX}{DEAD}-7-2"
    path.mkdir()
    try:
        os.utime(path, (0, 0))
        done = subprocess.run(
            [sys.executable, "-m", "harness", "verify", f"cmd:{sys.executable} -c pass", "--range", "1-1", "--quiet"],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
        )
        assert done.returncode == 1, done.stderr  # it deals nothing: what matters is that a dealer was started
        assert not path.exists()
    finally:
        if path.exists():
            path.rmdir()
