"""The version of this harness: what every report and resume log records.  `VERSION` is the one place it is
written (pyproject.toml reads it from here); the installed metadata says the same, and is not read for it:
importing `importlib.metadata` costs a command some 30 ms."""

from __future__ import annotations

VERSION = "0.1.0"


def installed_version(package: str) -> str | None:
    """The installed version of a distribution, or None where it is not installed."""
    if package == "freecell-harness":
        return VERSION
    from importlib import metadata

    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def harness_version() -> str:
    return VERSION
