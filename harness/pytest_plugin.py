"""pytest plugin: conformance checks of any dealer, spread over xdist workers block by block.

    pytest tests/conformance -n auto --impl node:dealer.js --deal-range 1-1000000

Tests that take the `deal_block` fixture are parametrized with the blocks of `--deal-range`
(this `--shard`'s share), and with each `--impl`; `conformance` compares one block.  Dealers are
opened once per session, that is once per xdist worker: one Node process per worker.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from harness.adapters import DealerOptions, open_dealer
from harness.compare import BlockComparer
from harness.errors import RequestError
from harness.plan import ALL, BLOCK_SIZE, Block, Shard, range_blocks, shard_blocks
from harness.report import board_diff, diagnosis_line
from harness.seeds import default_seed_document

DEFAULT_RANGE = "1-20000"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("freecell-harness", "FreeCell conformance (freecell-harness)")
    group.addoption(
        "--impl",
        action="append",
        default=None,
        metavar="IMPL",
        help="implementation under test, repeatable (default: fixtures and the original JS solution)",
    )
    group.addoption("--against", default="reference", metavar="IMPL", help="what it is compared with")
    group.addoption("--deal-range", default=DEFAULT_RANGE, metavar="A-B", help=f"deals to check ({DEFAULT_RANGE})")
    group.addoption("--dialect", default="classic", help="classic, fcpro or xp")
    group.addoption("--shard", default=None, metavar="K/N", help="this machine's share of the blocks")
    group.addoption("--deal-block-size", type=int, default=BLOCK_SIZE, metavar="N", help="deals per test")
    group.addoption("--deal-timeout", type=float, default=10.0, metavar="SECONDS", help="per deal")


def _impls(config: pytest.Config) -> list[str]:
    return config.getoption("impl") or ["fixtures", f"node:{default_seed_document()}"]


_BLOCKS = pytest.StashKey[list[Block]]()


def pytest_configure(config: pytest.Config) -> None:
    """Bad options are a usage error, said once, before anything is collected."""
    from harness.cli import parse_range
    from reference import DIALECTS

    dialect = config.getoption("dialect")
    try:
        if dialect not in DIALECTS:
            raise RequestError(f"--dialect {dialect!r}: choose one of {', '.join(DIALECTS)}")
        first, last = parse_range(config.getoption("deal_range"), dialect)
        shard = Shard.parse(config.getoption("shard")) if config.getoption("shard") else ALL
    except RequestError as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[_BLOCKS] = list(shard_blocks(range_blocks(first, last, config.getoption("deal_block_size")), shard))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "deal_block" in metafunc.fixturenames:
        blocks = metafunc.config.stash[_BLOCKS]
        metafunc.parametrize("deal_block", blocks, ids=[b.key for b in blocks])
    if "conformance_impl" in metafunc.fixturenames:
        metafunc.parametrize("conformance_impl", _impls(metafunc.config))


class Conformance:
    """Compares blocks of `impl` with `against`; a failure fails the test with the board diff."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.options = DealerOptions(dialect=config.getoption("dialect"), timeout=config.getoption("deal_timeout"))
        self._comparers: dict[str, BlockComparer] = {}

    def comparer(self, impl: str) -> BlockComparer:
        if impl not in self._comparers:
            try:
                actual = open_dealer(impl, self.options)
                expected = open_dealer(self.config.getoption("against"), self.options)
            except RequestError as exc:
                problem = str(exc)
            else:
                self._comparers[impl] = BlockComparer(actual, expected, dialect=self.options.dialect)
                return self._comparers[impl]
            pytest.fail(f"cannot open {impl}: {problem}", pytrace=False)
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
def conformance(pytestconfig: pytest.Config) -> Iterator[Conformance]:
    """One per session (per xdist worker), so each implementation's process lives once per worker."""
    checker = Conformance(pytestconfig)
    yield checker
    checker.close()
