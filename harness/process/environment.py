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


_last: tuple[dict[bytes, bytes], dict[str, str | None], dict[str, str]] | None = None


def dealer_environment(env: dict[str, str] | None) -> dict[str, str]:
    """What a dealer gets: `env`, or this process's environment as it was (`as_it_was`).  For the latter,
    the same dict as last time while this process's environment has not changed (read once, not per deal):
    the caller must not change it."""
    global _last
    if env is not None:
        return as_it_was(dict(env))
    data = getattr(os.environ, "_data", None)  # CPython's mapping of bytes behind os.environ
    if _last is not None and _last[0] == data and _last[1] == _BEFORE:
        return _last[2]
    made = as_it_was(dict(os.environ))
    _last = (dict(data), dict(_BEFORE), made) if isinstance(data, dict) else None
    return made
