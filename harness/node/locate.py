"""Finding a Node >= 18: $FREECELL_NODE, else `node` on PATH."""

from __future__ import annotations

import functools
import os
import re
import shutil

from harness.errors import RequestError
from harness.process import run_quietly

NODE_ENV = "FREECELL_NODE"
MIN_NODE_MAJOR = 18


@functools.cache
def find_node() -> str:
    """Path of a usable Node executable; RequestError (exit 2) if there is none."""
    wanted = os.environ.get(NODE_ENV) or "node"
    path = shutil.which(wanted)
    if path is None:
        raise RequestError(f"Node not found ({wanted!r}): install Node >= {MIN_NODE_MAJOR} or set ${NODE_ENV}")
    try:
        status, output = run_quietly([path, "--version"], timeout=30)
    except OSError as exc:
        raise RequestError(f"cannot run {path} --version: {exc}") from None
    version = output.strip() if status is not None else ""
    m = re.fullmatch(r"v(\d+)\.\d+\.\d+.*", version)
    if not m or int(m[1]) < MIN_NODE_MAJOR:
        raise RequestError(f"{path} is Node {version or '(no version)'}: Node >= {MIN_NODE_MAJOR} is needed")
    return path
