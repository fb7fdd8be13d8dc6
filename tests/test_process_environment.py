"""What the harness sets in its own environment for itself (OPENBLAS_NUM_THREADS=1, so that NumPy starts
no spinning threads) reaches no dealer: each gets the variable as the user had it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from harness.limits import NO_LIMITS
from harness.process import environment, run

PRINT_IT = ["sh", "-c", 'printf %s "${FREECELL_TEST_VARIABLE-unset}"']


@pytest.mark.parametrize("users", [None, "", "4"])
def test_a_dealer_gets_the_variable_as_the_user_had_it(users: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(environment, "_BEFORE", {})  # what earlier cases set is forgotten
    monkeypatch.setenv("FREECELL_TEST_VARIABLE", users or "")  # and taken back after this one
    if users is None:
        monkeypatch.delenv("FREECELL_TEST_VARIABLE")
    environment.set_for_this_process("FREECELL_TEST_VARIABLE", "1")
    assert os.environ["FREECELL_TEST_VARIABLE"] == "1"
    done = run(PRINT_IT, None, 30, 1 << 10, NO_LIMITS)
    assert done.stdout.decode() == ("unset" if users is None else users)


def test_the_command_line_sets_openblas_threads_for_itself_only(tmp_path: os.PathLike[str]) -> None:
    """`cmd:` runs `sh` printing the variable as its board: the verdict quotes what the dealer saw."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    impl = """cmd:sh -c 'echo "${OPENBLAS_NUM_THREADS-unset}"' {n}"""
    done = subprocess.run(
        [sys.executable, "-m", "harness", "verify", impl, "--range", "1-1", "-q"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 1 and "unset" in done.stdout, (done.stdout, done.stderr)
