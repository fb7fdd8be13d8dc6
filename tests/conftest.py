"""Shared fixtures of the project's own tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.errors import RequestError
from harness.node.locate import find_node
from harness.seeds import seeds_dir

SEEDS = seeds_dir()
IN_CI = bool(os.environ.get("CI"))


@pytest.fixture(scope="session")
def node() -> str:
    """A Node >= 18 executable.  Missing Node fails the test in CI and skips it, loudly, elsewhere."""
    try:
        return find_node()
    except RequestError as exc:
        if IN_CI:
            pytest.fail(f"Node is required in CI: {exc}")
        pytest.skip(f"NODE MISSING, test not run: {exc}")


@pytest.fixture(scope="session")
def seeds() -> Path:
    """../shared/seeds; missing fails the test (the seeds are part of every checkout's surroundings)."""
    if not SEEDS.is_dir():
        pytest.fail(f"the seed documents are missing: expected {SEEDS}")
    return SEEDS
