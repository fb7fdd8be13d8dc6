"""The conformance checks of the pytest plugin: the `Request`s its `--fc-…` options make, and the
`ConformanceSession` that compares one block of an implementation with `--fc-against`.

`harness.pytest_plugin` (loaded into every pytest run of an environment that has the harness)
imports this only when a run uses it: options, dealers and NumPy stay unloaded otherwise.
"""

from __future__ import annotations

from typing import NoReturn

import pytest

from harness.adapters import check_impl, open_pair
from harness.compare import BlockComparer
from harness.errors import RequestError
from harness.intervals import Block
from harness.pytest_options import IMPL_INI, impls_named, in_plugin_words
from harness.reports.report import board_diff, diagnosis_line
from harness.request import Request

_REQUESTS = pytest.StashKey[list[Request]]()


def _impls(config: pytest.Config) -> list[str]:
    impls = impls_named(config)
    if not impls:
        raise RequestError(
            f"no dealer to check: name it with --fc-impl IMPL or with the ini option {IMPL_INI} "
            f'(`{IMPL_INI} = ["IMPL"]` under [tool.pytest.ini_options] in pyproject.toml, or in pytest.ini)'
        )
    return impls


def requests(config: pytest.Config) -> list[Request]:
    """One request per `--fc-impl`, made and checked once per session; a bad option, or a dealer that
    surely cannot be opened, is one `pytest.UsageError`."""
    if _REQUESTS in config.stash:
        return config.stash[_REQUESTS]
    try:
        made = [
            Request.from_text(
                impl,
                against=config.getoption("fc_against"),
                dialect=config.getoption("fc_dialect"),
                ranges=[r] if (r := config.getoption("fc_range")) else [],
                jobs=1,
                shard=config.getoption("fc_shard"),
                timeout=config.getoption("fc_timeout"),
                block_size=config.getoption("fc_block_size"),
                cards=config.getoption("fc_cards"),
                suits=config.getoption("fc_suits"),
            )
            for impl in _impls(config)
        ]
        if made and not hasattr(config, "workerinput"):  # checked once, by the xdist controller
            for impl in {*(r.impl for r in made), made[0].against}:
                check_impl(impl, made[0].options)
    except RequestError as exc:
        raise pytest.UsageError(f"freecell-harness: {in_plugin_words(str(exc))}") from None
    config.stash[_REQUESTS] = made
    return made


class ConformanceSession:
    """Compares blocks of each implementation with `--fc-against`; a failure fails the test with the board diff.

    What the `fc_conformance` fixture gives a test: `fc_conformance.check(conformance_impl, deal_block)`.
    A dealer that cannot be opened, or whose answers only `--fc-cards`/`--fc-suits` can make readable, stops
    the whole session with one usage error, not one failure per block.
    """

    def __init__(self, config: pytest.Config, session: pytest.Session | None = None) -> None:
        self.requests = {r.impl: r for r in requests(config)}
        self._comparers: dict[str, BlockComparer] = {}
        # An xdist worker: pytest.exit there is an INTERNALERROR of the controller (pytest-xdist #1239).
        self._worker_session = session if hasattr(config, "workerinput") else None

    def _stop(self, message: str) -> NoReturn:
        """End the whole session with one usage error: what stops one block would stop every other.
        In an xdist worker, this test fails saying why, and the worker, then the run, stops after it."""
        said = f"freecell-harness: {in_plugin_words(message)}"
        if self._worker_session is None:
            pytest.exit(said, returncode=pytest.ExitCode.USAGE_ERROR)
        self._worker_session.shouldstop = said
        raise pytest.fail.Exception(said, pytrace=False) from None  # the error it was raised in: said

    def comparer(self, impl: str) -> BlockComparer:
        """The comparer of `impl` with its `--fc-against`, opened on first use."""
        if impl not in self._comparers:
            request = self.requests.get(impl) or next(iter(self.requests.values()))
            try:
                self._comparers[impl] = BlockComparer(
                    *open_pair(impl, request.against, request.options), dialect=request.dialect
                )
            except RequestError as exc:
                self._stop(f"cannot open {impl}: {exc}")
        return self._comparers[impl]

    def check(self, impl: str, block: Block) -> None:
        """Fail the calling test, with the first differing board, unless `impl` deals `block` as expected;
        stop the session if its answers cannot be read without an option (bare-number suits: `--fc-suits`)."""
        comparer = self.comparer(impl)
        try:
            result = comparer.compare(block)
        except RequestError as exc:
            self._stop(str(exc))
        f = result.failure
        if f is not None:
            pytest.fail(
                f"{impl} against {comparer.expected.impl}: first {f.kind} at deal {f.deal} "
                f"(block {block.key}): {f.message}\n{diagnosis_line(f)}{board_diff(f.expected, f.actual)}",
                pytrace=False,
            )

    def close(self) -> None:
        """Close every dealer the session opened."""
        for comparer in self._comparers.values():
            comparer.close()
