"""What a dealer *is*, apart from how it is named: the files a build of it is made of, hashed.

    dealer_identity("stream:./fc")   # {"./fc": "3f2a…"}: what a resume log's header records
    dealer_build("stream:./fc")      # "9b1c…": one SHA-256 for every report (SPEC, `dealer_build`)

`dealer_build` hashes the contents only, never the paths: the same program under another path, on
another machine, is the same build; a program rebuilt, or a script or module it is given edited,
is another.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
from pathlib import Path

from harness.adapters.registry import ImplSpec, dealer_class, parse_impl
from harness.errors import RequestError
from harness.files import open_regular


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes (RequestError if it cannot be read as a regular file)."""
    h = hashlib.sha256()
    with open_regular(path, "dealer file") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def _harness_version() -> str:
    from harness.reports.report import harness_version

    return harness_version()


def dealer_identity(impl: str | ImplSpec) -> dict[str, str]:
    """What the dealer named by `impl` is: {file: sha256} of the files a build of it is made of (its
    kind says which), else the version of its package, else the harness's."""
    spec = parse_impl(impl)
    cls = dealer_class(spec.kind)
    files = [f for f in cls.build_files(spec.argument) if f.is_file()]
    if files:
        return {str(f): file_sha256(f) for f in files}
    if cls.package is not None and cls.package != "freecell-harness":
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            return {cls.package: importlib.metadata.version(cls.package)}
    return {str(spec): f"freecell-harness {_harness_version()}"}


def dealer_build(impl: str | ImplSpec) -> str | None:
    """One SHA-256 (hex) for the build of the dealer `impl` names: of its files' contents, in an order
    that does not depend on their paths (for a built-in dealer, of its package and version); None
    only when nothing of it can be read (a module that cannot be found, a file that cannot be read)."""
    spec = parse_impl(impl)
    cls = dealer_class(spec.kind)
    if cls.takes_argument():
        files = [f for f in cls.build_files(spec.argument) if f.is_file()]
        try:
            digests = sorted(file_sha256(f) for f in files)
        except RequestError:
            return None
        if not digests:
            return None
        parts = [f"file {digest}" for digest in digests]
    else:
        parts = [f"{spec.kind} " + " ".join(dealer_identity(spec).values())]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()
