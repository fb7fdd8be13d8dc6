"""The version of this harness, as installed: what every report and resume log records."""

from __future__ import annotations

from importlib import metadata


def installed_version(package: str) -> str | None:
    """The installed version of a distribution, or None where it is not installed."""
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def harness_version() -> str:
    return installed_version("freecell-harness") or "unknown"
