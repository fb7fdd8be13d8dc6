"""pytest plugin: conformance checks of any dealer, spread over xdist workers block by block.

    pytest tests/conformance -n auto --fc-impl node:dealer.js --fc-range 1-1000000

The dealers come from `--fc-impl`, else the ini option `fc_impl`; a run that names neither has nothing
to check, and a test that asks for them is one usage error (never the harness's own data).
Tests that take the `deal_block` fixture are parametrized with the blocks of `--fc-range`
(this `--fc-shard`'s share), and with each `--fc-impl`; `fc_conformance` compares one block.
Dealers are opened once per session, that is once per xdist worker: one Node process per worker.
Every option is namespaced `--fc-…`, so that it never collides with a project's own options.

This module is loaded into every pytest run of an environment that has the harness, so it stays
thin: the work (`harness.conformance`: requests, dealers, NumPy) is imported only by a run that
gives an `--fc-…` option or has a test that asks for the plugin's fixtures.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from harness.pytest_options import IMPL_INI, OPTIONS, impls_named

if TYPE_CHECKING:
    from harness.conformance import ConformanceSession


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("freecell-harness", "FreeCell conformance (freecell-harness)")
    group.addoption(
        "--fc-impl",
        action="append",
        default=None,
        metavar="IMPL",
        help="implementation under test, repeatable (default: the ini option fc_impl)",
    )
    parser.addini(IMPL_INI, "the implementations under test, one a line (a list in pyproject.toml)", type="linelist")
    for option, default, metavar, help in OPTIONS:
        group.addoption(option, default=default, metavar=metavar, help=help)


def _dest(option: str) -> str:
    return option.removeprefix("--").replace("-", "_")


def pytest_configure(config: pytest.Config) -> None:
    """Bad options, and a dealer that surely cannot be opened, are one usage error before collection;
    a run that gives no `--fc-…` option is checked only if one of its tests uses the plugin."""
    given = bool(impls_named(config)) or any(
        config.getoption(_dest(option)) != default for option, default, _, _ in OPTIONS
    )
    if given:
        from harness import conformance

        conformance.requests(config)


_REFUSED = pytest.StashKey[str]()


def pytest_collection_modifyitems(config: pytest.Config) -> None:
    refused = config.stash.get(_REFUSED, None)
    if refused is not None:
        raise pytest.UsageError(refused)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    wanted = {"deal_block", "conformance_impl"} & set(metafunc.fixturenames)
    if not wanted:
        return
    from harness import conformance

    try:
        requests = conformance.requests(metafunc.config)
    except pytest.UsageError as exc:  # found while collecting: one usage error when collection ends
        metafunc.config.stash[_REFUSED] = str(exc)
        return
    if "deal_block" in wanted and requests:
        blocks = list(requests[0].blocks())
        metafunc.parametrize("deal_block", blocks, ids=[b.key for b in blocks])
    if "conformance_impl" in wanted:
        metafunc.parametrize("conformance_impl", [r.impl for r in requests])


@pytest.fixture(scope="session")
def fc_conformance(request: pytest.FixtureRequest) -> Iterator[ConformanceSession]:
    """One per session (per xdist worker), so each implementation's process lives once per worker."""
    from harness.conformance import ConformanceSession

    session = ConformanceSession(request.config, request.session)
    yield session
    session.close()
