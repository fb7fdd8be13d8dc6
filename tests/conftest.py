"""Shared fixtures of the project's own tests."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

from harness.errors import RequestError
from harness.node.locate import find_node
from harness.seeds import seeds_dir

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
