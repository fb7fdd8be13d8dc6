"""Which build of a dealer a matrix row profiled: SPEC.md's `dealer_build`, asked of the adapters.

Until the adapters answer it (`harness.adapters.dealer_build`), a stand-in: the SHA-256 of the files
the IMPL names (a `stream:`/`cmd:` program and the files among its arguments; a `node:` file; a `py:`
module's source), or of the harness version for the built-in dealers; None where nothing can be read.
"""

from __future__ import annotations

import hashlib
import importlib.util
import shlex
import shutil
from pathlib import Path


def dealer_build(impl: str) -> str | None:
    """The build of `impl`, as seen from the current directory."""
    import harness.adapters

    asked = getattr(harness.adapters, "dealer_build", None)
    if asked is None:
        return _stand_in(impl)
    found: str | None = asked(impl)
    return found


def _stand_in(impl: str) -> str | None:
    from harness.report import harness_version

    kind, _, argument = impl.partition(":")
    files: list[Path] = []
    if kind in ("stream", "cmd"):
        try:
            words = shlex.split(argument)
        except ValueError:
            return None
        if words and (program := shutil.which(words[0]) or (words[0] if Path(words[0]).is_file() else None)):
            files.append(Path(program))
        files += [Path(w) for w in words[1:] if "{n}" not in w and Path(w).is_file()]
    elif kind == "node":
        files.append(Path(argument.partition("#")[0]))
    elif kind == "py":
        module = argument.partition(":")[0]
        here = [p for p in (Path(*module.split(".")).with_suffix(".py"), Path(*module.split("."), "__init__.py"))]
        if found := next((p for p in here if p.is_file()), None):  # py: dealers import from the current directory
            files.append(found)
        else:
            try:
                spec = importlib.util.find_spec(module)
            except (ImportError, ValueError):
                spec = None
            if spec is not None and spec.origin and Path(spec.origin).is_file():
                files.append(Path(spec.origin))
    else:
        return hashlib.sha256(f"freecell-harness {harness_version()}".encode()).hexdigest()
    digest = hashlib.sha256()
    try:
        for path in files:
            digest.update(path.read_bytes())
    except OSError:
        return None
    return digest.hexdigest() if files else None
