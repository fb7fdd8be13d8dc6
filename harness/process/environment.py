"""What the harness sets in its own environment for itself alone, and gives each dealer back as it was."""

from __future__ import annotations

import os

_BEFORE: dict[str, str | None] = {}  # name → its value before we set it (None: unset)


def set_for_this_process(name: str, value: str) -> None:
    """Set `name` in this process's environment only: a dealer's environment has it as it was."""
    _BEFORE.setdefault(name, os.environ.get(name))
    os.environ[name] = value


def as_it_was(env: dict[str, str]) -> dict[str, str]:
    """`env` with what `set_for_this_process` set given back its earlier value (or taken out)."""
    for name, before in _BEFORE.items():
        if before is None:
            env.pop(name, None)
        else:
            env[name] = before
    return env
