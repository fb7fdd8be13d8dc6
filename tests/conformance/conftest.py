"""The dealers this project's main job checks, named here (the plugin itself has no default): the
golden fixtures and the original freeCodeCamp JavaScript solution, unless the run names others."""

from __future__ import annotations

import pytest

from harness.errors import RequestError
from harness.pytest_options import impls_named
from harness.seeds import require_seed_document


def pytest_configure(config: pytest.Config) -> None:
    if impls_named(config):
        return
    try:
        original = require_seed_document()
    except RequestError as exc:
        raise pytest.UsageError(f"freecell-harness: {exc}") from None
    config.option.fc_impl = ["fixtures", f"node:{original}"]
