"""How a process ended, in the words every message uses (`harness.process.exits.exit_text`, its one home)."""

from __future__ import annotations

import pytest

from harness.process import exit_text


@pytest.mark.parametrize(
    ("returncode", "text"),
    [
        (None, "still running"),
        (0, "exited with status 0"),
        (3, "exited with status 3"),
        (-9, "killed by SIGKILL"),
        (-15, "killed by SIGTERM"),
        (-200, "killed by signal 200"),
    ],
)
def test_exit_text(returncode: int | None, text: str) -> None:
    assert exit_text(returncode) == text
