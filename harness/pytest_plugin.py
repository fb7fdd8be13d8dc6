"""pytest plugin: conformance checks of any dealer, spread over xdist workers block by block.

    pytest tests/conformance -n auto --fc-impl node:dealer.js --fc-range 1-1000000

Tests that take the `deal_block` fixture are parametrized with the blocks of `--fc-range`
(this `--fc-shard`'s share), and with each `--fc-impl`; `fc_conformance` compares one block.
Dealers are opened once per session, that is once per xdist worker: one Node process per worker.
Every option is namespaced `--fc-…`, so that it never collides with a project's own options.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from harness.adapters import check_impl, open_pair
from harness.compare import BlockComparer
from harness.errors import RequestError
from harness.intervals import BLOCK_SIZE, Block
from harness.report import board_diff, diagnosis_line
from harness.request import Request
from harness.seeds import require_seed_document


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("freecell-harness", "FreeCell conformance (freecell-harness)")
    group.addoption(
        "--fc-impl",
        action="append",
        default=None,
        metavar="IMPL",
        help="implementation under test, repeatable (default: fixtures and the original JS solution)",
    )
    group.addoption("--fc-against", default="reference", metavar="IMPL", help="what it is compared with")
    group.addoption(
        "--fc-range",
        default=None,
        metavar="A-B",
        help="deals to check (default: as verify's, 1-32000 and a window around every boundary of the dialect)",
    )
    group.addoption("--fc-dialect", default="classic", metavar="D", help="classic, fcpro or xp")
    group.addoption("--fc-shard", default=None, metavar="K/N", help="this machine's share of the blocks")
    group.addoption("--fc-block-size", default=str(BLOCK_SIZE), metavar="N", help="deals per test")
    group.addoption("--fc-timeout", default="10", metavar="SECONDS", help="per deal (0.01 … 86400)")


_REQUESTS = pytest.StashKey[list[Request]]()


def _impls(config: pytest.Config) -> list[str]:
    impls: list[str] | None = config.getoption("fc_impl")
    return impls or ["fixtures", f"node:{require_seed_document()}"]


def pytest_configure(config: pytest.Config) -> None:
    """Bad options, and a dealer that surely cannot be opened, are one usage error before collection."""
    try:
        requests = [
            Request.from_text(
                impl,
                against=config.getoption("fc_against"),
                dialect=config.getoption("fc_dialect"),
                ranges=[r] if (r := config.getoption("fc_range")) else [],
                jobs=1,
                shard=config.getoption("fc_shard"),
                timeout=config.getoption("fc_timeout"),
                block_size=config.getoption("fc_block_size"),
                range_option="--fc-range",
            )
            for impl in _impls(config)
        ]
        if requests and not hasattr(config, "workerinput"):  # checked once, by the xdist controller
            for impl in {*(r.impl for r in requests), requests[0].against}:
                check_impl(impl, requests[0].options)
    except RequestError as exc:
        raise pytest.UsageError(f"freecell-harness: {exc}") from None
    config.stash[_REQUESTS] = requests


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    requests = metafunc.config.stash[_REQUESTS]
    if "deal_block" in metafunc.fixturenames and requests:
        blocks = list(requests[0].blocks())
        metafunc.parametrize("deal_block", blocks, ids=[b.key for b in blocks])
    if "conformance_impl" in metafunc.fixturenames:
        metafunc.parametrize("conformance_impl", [r.impl for r in requests])


class ConformanceSession:
    """Compares blocks of each implementation with `--fc-against`; a failure fails the test with the board diff.

    A dealer that cannot be opened stops the whole session with one usage error, not one failure per block.
    """

    def __init__(self, config: pytest.Config) -> None:
        self.requests = {r.impl: r for r in config.stash[_REQUESTS]}
        self._comparers: dict[str, BlockComparer] = {}

    def comparer(self, impl: str) -> BlockComparer:
        if impl not in self._comparers:
            request = self.requests.get(impl) or next(iter(self.requests.values()))
            try:
                self._comparers[impl] = BlockComparer(
                    *open_pair(impl, request.against, request.options), dialect=request.dialect
                )
            except RequestError as exc:
                pytest.exit(f"freecell-harness: cannot open {impl}: {exc}", returncode=pytest.ExitCode.USAGE_ERROR)
        return self._comparers[impl]

    def check(self, impl: str, block: Block) -> None:
        comparer = self.comparer(impl)
        result = comparer.compare(block)
        f = result.failure
        if f is not None:
            pytest.fail(
                f"{impl} against {comparer.expected.impl}: first {f.kind} at deal {f.deal} "
                f"(block {block.key}): {f.message}\n{diagnosis_line(f)}{board_diff(f.expected, f.actual)}",
                pytrace=False,
            )

    def close(self) -> None:
        for comparer in self._comparers.values():
            comparer.close()


@pytest.fixture(scope="session")
def fc_conformance(pytestconfig: pytest.Config) -> Iterator[ConformanceSession]:
    """One per session (per xdist worker), so each implementation's process lives once per worker."""
    session = ConformanceSession(pytestconfig)
    yield session
    session.close()
