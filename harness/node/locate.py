"""Finding a Node >= 20 (the permission model): $FREECELL_NODE, else `node` on PATH."""

from __future__ import annotations

import functools
import os
import re
import shutil
from pathlib import Path

from harness.errors import RequestError
from harness.process import run_quietly

NODE_ENV = "FREECELL_NODE"
MIN_NODE_MAJOR = 20
VERSION_BYTES = 200  # `node --version` prints one short line; a program printing more is not Node
VERSION_TIMEOUT_S = 10.0


@functools.cache
def _node_major(path: str) -> int:
    """Node's major version, checked by running `path --version`; RequestError if it is not Node."""
    try:
        # bounded: something that floods stdout, or never ends, is not Node
        status, output = run_quietly([path, "--version"], VERSION_TIMEOUT_S, max_output=VERSION_BYTES)
    except OSError as exc:
        raise RequestError(f"${NODE_ENV} or PATH names {path}, which cannot be run: {exc.strerror or exc}") from None
    version = output[:VERSION_BYTES].strip() if status is not None else ""
    m = re.fullmatch(r"v(\d+)\.\d+\.\d+\S*", version)
    if not m:
        shown = (version[:40] + "…" if len(version) > 40 else version).encode("unicode_escape").decode("ascii")
        raise RequestError(
            f"{path} is not Node ({path} --version printed {shown!r}): "
            f"install Node >= {MIN_NODE_MAJOR} or set ${NODE_ENV}"
        )
    if int(m[1]) < MIN_NODE_MAJOR:
        raise RequestError(f"{path} is Node {version}: Node >= {MIN_NODE_MAJOR} is needed (its permission model)")
    return int(m[1])


@functools.cache
def find_node() -> str:
    """Path of a usable Node executable; RequestError (exit 2) if there is none."""
    wanted = os.environ.get(NODE_ENV) or "node"
    path = shutil.which(wanted)
    if path is None or os.path.isdir(path):
        raise RequestError(f"Node not found ({wanted!r}): install Node >= {MIN_NODE_MAJOR} or set ${NODE_ENV}")
    _node_major(path)
    return path


def permission_flags(node: str, *readable: Path) -> list[str]:
    """Node's permission model, allowing reads of `readable` (directories, with all they hold,
    or files) and nothing else: no writes, no child processes, no worker threads, no native add-ons."""
    flag = "--permission" if _node_major(node) >= 22 else "--experimental-permission"
    reads = [f"--allow-fs-read={p.resolve()}{'/*' if p.is_dir() else ''}" for p in readable]
    return [flag, *reads]
