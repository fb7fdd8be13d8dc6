"""Shared fixtures of the project's own tests."""

from __future__ import annotations

import importlib.util
import os
import shutil
import time
from pathlib import Path

import pytest

from harness.errors import RequestError
from harness.node.locate import find_node
from harness.pytest_options import impls_named
from harness.seeds import require_seed_document, seeds_dir


def pytest_configure(config: pytest.Config) -> None:
    """The dealers this project's own conformance tests check, named here (the plugin itself has no
    default): the golden fixtures and the original freeCodeCamp solution, unless the run names others.
    (Here, not in tests/conformance/conftest.py: a second module named conftest would shadow this one
    for the test modules that import helpers from it.)"""
    if impls_named(config):
        return
    try:
        original = require_seed_document()
    except RequestError:  # no seed here: the conformance tests error in one line, the rest run
        return
    config.option.fc_impl = ["fixtures", f"node:{original}"]


SEEDS = seeds_dir()
IN_CI = bool(os.environ.get("CI"))


def need_tools(*tools: str) -> None:
    """Missing tools fail the test in CI (they are part of the CI machine) and skip it, loudly, elsewhere."""
    missing = [t for t in tools if shutil.which(t) is None]
    if missing and IN_CI:
        pytest.fail(f"required in CI but missing: {', '.join(missing)}")
    if missing:
        pytest.skip(f"TOOLCHAIN MISSING, test not run: {', '.join(missing)}")


def need_compiled_reader() -> None:
    """harness._cardread (the package's one C extension) built: missing fails in CI, skips loudly elsewhere."""
    if importlib.util.find_spec("harness._cardread") is None:
        message = "harness._cardread is not built (install the package where a C compiler is)"
        if IN_CI:
            pytest.fail(f"required in CI: {message}")
        pytest.skip(f"COMPILED READER MISSING, test not run: {message}")


@pytest.fixture
def test_dealers(monkeypatch: pytest.MonkeyPatch) -> Path:
    """tests/dealers importable (py:planted:deal …), with no planted bug left from another test."""
    dealers = Path(__file__).parent / "dealers"
    monkeypatch.syspath_prepend(str(dealers))
    for name in ("PLANTED_DEAL", "PLANTED_ERROR", "DEALT_LOG"):
        monkeypatch.delenv(name, raising=False)
    return dealers


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


@pytest.fixture(scope="session")
def compiler(node: str) -> Path:
    """The TypeScript compiler `setup typescript` installs: missing fails in CI, skips loudly elsewhere."""
    from harness.node.typescript import find_typescript

    try:
        return find_typescript("tests/ts")
    except RequestError as exc:
        if IN_CI:
            pytest.fail(f"TypeScript is required in CI: {exc}")
        pytest.skip(f"TYPESCRIPT MISSING, test not run: {exc}")


def wait_for(condition: object, what: str, limit_s: float = 120) -> None:
    """Polls `condition` until it holds; fails the test naming `what` after `limit_s` seconds."""
    deadline = time.monotonic() + limit_s
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            pytest.fail(f"never happened: {what}")
        time.sleep(0.1)
