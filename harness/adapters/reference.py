"""IMPL `reference`: the project's Python reference dealer."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sys
import threading
from collections.abc import Sequence

import reference
from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.errors import HarnessError
from harness.intervals import as_interval
from reference.cards import LINE_BYTES, canonical_line

WINDOW = 4096  # deals dealt at once where a dealer is compared a few at a time (`_from_window`)
PLAIN_DEALS = 4096  # deals of short runs a process deals one by one before NumPy is loaded (`_plain`)
STORED_ROWS_FROM = 10_000  # deals in the smallest row of the fixtures' digest tables: fewer are never looked up
# Held while `prepare` builds, in a worker's thread, what the first deal would: a first deal meanwhile waits
# for it instead of building the same tables beside it (the other dealer of the worker goes on meanwhile).
_preparing = threading.Lock()


def _after_fork() -> None:
    global _preparing
    _preparing = threading.Lock()  # a thread of the parent may have held it at the fork


os.register_at_fork(after_in_child=_after_fork)


def numpy_loaded() -> bool:
    """Whether this process has loaded NumPy (for a `stream:` or `py:` dealer, or a long run)."""
    return "numpy" in sys.modules


def _prepared() -> None:
    """Wait for a `prepare` under way, if any."""
    with _preparing:
        pass


class ReferenceDealer(Dealer):
    kind, form, package = "reference", "reference", "freecell-harness"
    bulk = True
    stores_row_digests = True

    def __init__(self, options: DealerOptions) -> None:
        self.impl = "reference"
        self.dialect = reference.get_dialect(options.dialect)
        self._window: tuple[int, bytes] = (0, b"")  # a first deal, and the lines of it and the next ones
        self._plain_left = PLAIN_DEALS

    def _short_run(self, deals: Sequence[int]) -> bytes | None:
        """The lines of `deals` when they are a short run within the domain (`_plain`, else `_from_window`);
        None for anything else (the direct path, which also says why a deal is outside the domain)."""
        span = as_interval(deals)
        if span is None or len(deals) >= WINDOW:
            return None
        last = next((hi for lo, hi in self.dialect.intervals() if lo <= span.first <= hi), None)
        if last is None or span.last > last:
            return None
        plain = self._plain(deals) if self._plain_left >= len(deals) else None
        return plain if plain is not None else self._from_window(span.first, span.last, last)

    def _plain(self, deals: Sequence[int]) -> bytes | None:
        """The lines of a short run dealt one by one in plain Python (some 25 us a deal), while NumPy is not
        loaded and fewer than PLAIN_DEALS deals have been: a run of a `cmd:` dealer (some 0.5 ms a deal)
        then starts without NumPy's import and the dealing tables, some 0.1 s, which a run of a few hundred
        deals would feel.  Where NumPy is loaded (a `stream:` or `py:` dealer's process needs it), windows
        are cheaper from the start; None then."""
        if numpy_loaded():
            self._plain_left = 0
            return None
        self._plain_left -= len(deals)
        return b"".join(canonical_line(reference.deal(n, self.dialect).cards) for n in deals)

    def _from_window(self, first: int, last: int, domain_last: int) -> bytes:
        """The lines of the short run first … last, cut from WINDOW deals dealt at once: a slow dealer is
        compared a few deals at a time, and dealing costs some 1 ms a call whatever its size, so WINDOW
        deals are dealt at once and the next short runs are cut from them."""
        start, data = self._window
        if not start <= first <= last < start + len(data) // LINE_BYTES:
            start = first
            data = reference.canonical_lines(range(start, min(start + WINDOW - 1, domain_last) + 1), self.dialect)
            self._window = (start, data)
        return data[(first - start) * LINE_BYTES : (last + 1 - start) * LINE_BYTES]

    @classmethod
    def prepare(cls, options: DealerOptions) -> None:
        if not numpy_loaded():
            return  # the first short runs are dealt one by one (`_plain`): the tables wait for a longer one
        with _preparing:  # the fixtures' digest tables are read at the first whole row (a run of 10,000 deals)
            reference.block_digest((1,), options.dialect)  # the first deal builds the dialect's dealing tables

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        _prepared()
        data = self._short_run(deals)
        if data is None:
            data = reference.canonical_lines(deals, self.dialect)
        return [data[i : i + LINE_BYTES] for i in range(0, len(data), LINE_BYTES)]

    def stored_digest(self, deals: Sequence[int]) -> str | None:
        """The deals' digest when the golden fixtures store it (`stored_digest`), else None."""
        return stored_digest(self.dialect.name, deals)

    def block_digest(self, deals: Sequence[int]) -> str:
        """The deals' digest: a whole row of a digest table of the golden fixtures is read, not recomputed."""
        stored = stored_digest(self.dialect.name, deals)
        if stored is not None:
            return stored
        _prepared()
        data = self._short_run(deals)
        return reference.block_digest(deals, self.dialect) if data is None else hashlib.sha256(data).hexdigest()


def stored_digest(dialect: str, deals: Sequence[int]) -> str | None:
    """The reference's digest of `deals` as the golden fixtures store it, when they are a whole row of one of
    their digest tables (the whole-domain tables, the classic 10,000-deal rows) and the fixtures are intact
    (every table's SHA-256 as the manifest says); else None."""
    if len(deals) < STORED_ROWS_FROM or (span := as_interval(deals)) is None:
        return None
    _prepared()
    return stored_tables(dialect).get(span)


@functools.cache
def stored_tables(dialect: str) -> dict[tuple[int, int], str]:
    """The dialect's digest tables of the golden fixtures, once per process; none when they are missing or
    not intact."""
    from harness.fixtures.store import load_fixtures

    with contextlib.suppress(HarnessError, OSError):
        return load_fixtures(digests_of=dialect).digests.get(dialect, {})
    return {}
