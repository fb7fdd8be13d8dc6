"""The spawner built in C at install (`spawner.c`, the executable `_spawner` beside this module): it starts
the dealers' processes and, run as `_spawner --sentinel …`, is the sentinel.  FREECELL_HARNESS_SPAWNER=python
runs the Python ones (`spawner_main.py`, the sentinel's script) anyway."""

from __future__ import annotations

import os
from pathlib import Path

COMPILED = Path(__file__).with_name("_spawner")  # where a C compiler was at install


def compiled_spawner() -> str | None:
    """The compiled spawner's path, or None: not built, or FREECELL_HARNESS_SPAWNER=python."""
    if os.environ.get("FREECELL_HARNESS_SPAWNER") != "python" and os.access(COMPILED, os.X_OK):
        return str(COMPILED)
    return None
