"""IMPL `fixtures`: the golden fixtures, for the deals they cover.

A deal that the fixtures hold only inside the digest of a block (a part of a whole-domain row, when a
range does not start or end on the grid, or while a differing block is narrowed) is answered by the
reference once it has reproduced that block's stored digest: then its lines are the fixtures' lines.
A row of the whole-domain table whose digest was asked for, then asked for chunk after chunk from its
first deal (as the comparer deals a block), is reproduced as it goes: each chunk's digest is the
reference's, hashed on into the row's digest, which is compared with the stored one at the row's last
deal (so that a run stopped mid-row keeps the deals it compared, and no row is dealt twice by the
reference).  A run stopped mid-row has compared those deals with the reference's boards of a row the
fixtures vouch for at its end; `--resume` deals the rest of the row, which the reference then
reproduces whole first.

Corrupted fixtures (a SHA-256 that differs from the manifest, a missing file or manifest) are never
trusted: every deal asked is then answered with an `error` failure naming the bad file, so that
`verify fixtures` exits 1 ("drifted or corrupted fixtures", SPEC.md).  Deals the fixtures do not
cover at all are a request that cannot be served: RequestError (exit 2), saying what they cover.
"""

from __future__ import annotations

import hashlib
import shlex
from collections.abc import Sequence
from pathlib import Path

import reference
from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.errors import RequestError
from harness.failures import Failure
from harness.fixtures.plan import domain_table, domain_tables
from harness.fixtures.store import Fixtures, FixturesError, default_dir, find_fixtures, load_fixtures
from harness.intervals import DOMAIN_BLOCK_SIZE, Interval, as_interval, grid_cell
from reference import get_dialect


class FixturesDealer(Dealer):
    kind, form, package = "fixtures", "fixtures", "freecell-harness"
    whole_blocks_only = bulk = True
    largest_chunk = 1 << 16  # the reference's lines of a chunk are held at once (10 MB)

    @classmethod
    def build_files(cls, argument: str) -> list[Path]:
        from harness.fixtures.store import MANIFEST, default_dir

        return [default_dir() / MANIFEST]  # names every file's SHA-256: other tables, another log

    @classmethod
    def check(cls, argument: str, options: DealerOptions) -> None:
        find_fixtures()

    def __init__(self, options: DealerOptions, directory: Path | None = None) -> None:
        self.impl = "fixtures"
        self.dialect = get_dialect(options.dialect).name
        self.fixtures: Fixtures | None = None
        self.refusal: str | None = None
        # block → None when the reference reproduced its stored digest, else why the reference cannot speak for it
        self._vouches: dict[tuple[int, int], str | None] = {}
        # row of the whole-domain table → (its next deal, the hash of its lines so far), while asked in order
        self._rows_under_way: dict[tuple[int, int], tuple[int, hashlib._Hash]] = {}
        self._row_stops: dict[int, int] | None = None
        self._whole_rows_asked: set[tuple[int, int]] = set()  # rows whose stored digest was asked for
        try:
            self.fixtures = load_fixtures(directory)
        except FixturesError as exc:
            self.refusal = f"corrupted fixtures, not trusted ({exc}); run `freecell-harness fixtures check`"

    def _uncovered(self, fixtures: Fixtures, deals: Sequence[int]) -> RequestError:
        missing = next(n for n in deals if not fixtures.covers(self.dialect, n))
        return RequestError(f"the fixtures do not cover deal {missing}: they hold {fixtures.coverage(self.dialect)}")

    def _vouched(self, fixtures: Fixtures, block: tuple[int, int]) -> str | None:
        """Whether the reference may speak for the fixtures inside `block`, of which they hold only the
        digest: None when the reference reproduces that digest, else why not."""
        if block not in self._vouches:
            stored = fixtures.digest(self.dialect, *block)
            same = reference.block_digest(range(block[0], block[1] + 1), self.dialect) == stored
            self._vouches[block] = None if same else (
                f"the reference disagrees with the fixtures' digest of block {block[0]}-{block[1]}, which "
                f"holds this deal: run `freecell-harness {self._check_command(fixtures, block)}`, which recomputes it"
            )  # fmt: skip
        return self._vouches[block]

    def _row(self, fixtures: Fixtures, first: int, last: int) -> tuple[int, int] | None:
        """The row of the whole-domain table (a block of the grid the requests against the fixtures follow)
        that holds first … last, if the fixtures hold its digest."""
        if self._row_stops is None:  # each block's first deal → the last deal of the longest block from there
            self._row_stops = {}
            for start, stop in fixtures.digests.get(self.dialect, {}):
                self._row_stops[start] = max(stop, self._row_stops.get(start, stop))
        row_first = grid_cell(first, DOMAIN_BLOCK_SIZE).first
        row_last = self._row_stops.get(row_first)
        if row_last is None or not last <= row_last <= row_first + DOMAIN_BLOCK_SIZE - 1:
            return None
        return (row_first, row_last)

    def _distrust(self, fixtures: Fixtures, first: int) -> str | None:
        """Why the reference cannot speak for the fixtures at deal `first`: its row was reproduced in order
        and differed (None: it did not, or was not)."""
        row = self._row(fixtures, first, first)
        return self._vouches.get(row) if row is not None else None

    def _in_order(self, fixtures: Fixtures, span: Interval) -> str | None:
        """The digest of `span`, the next chunk of its row asked in order (the row's digest checked at its
        end: None if it differs); "" if `span` does not continue a row from its first deal."""
        row = self._row(fixtures, span.first, span.last)
        if row is None or row in self._vouches or row not in self._whole_rows_asked:
            return ""
        under_way = self._rows_under_way.pop(row, None)
        if span.first == row[0]:
            under_way = (row[0], hashlib.sha256())
        if under_way is None or under_way[0] != span.first:
            return ""
        lines = reference.canonical_lines(range(span.first, span.last + 1), self.dialect)
        row_hash = under_way[1]
        row_hash.update(lines)
        if span.last < row[1]:
            self._rows_under_way[row] = (span.last + 1, row_hash)
            return hashlib.sha256(lines).hexdigest()
        same = row_hash.hexdigest() == fixtures.digest(self.dialect, *row)
        self._vouches[row] = None if same else (
            f"the reference disagrees with the fixtures' digest of block {row[0]}-{row[1]}, which "
            f"holds this deal: run `freecell-harness {self._check_command(fixtures, row)}`, which recomputes it"
        )  # fmt: skip
        return hashlib.sha256(lines).hexdigest() if same else None

    def _check_command(self, fixtures: Fixtures, block: tuple[int, int]) -> str:
        """The `fixtures check` that recomputes `block`: a row of a whole-domain table is recomputed only
        when named (`--row`), every other row by any check."""
        where = "" if fixtures.directory == default_dir() else f" --dir {shlex.quote(str(fixtures.directory))}"
        table = domain_table(self.dialect) if self.dialect in {t.dialect for t in domain_tables()} else None
        if table is not None and Interval(*block) in table.rows():
            return f"fixtures check{where} --dialect {self.dialect} --row {block[0]}-{block[1]}"
        return f"fixtures check{where}"

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        if self.fixtures is None:
            return [Failure(n, "error", self.refusal or "no fixtures") for n in deals]
        fixtures = self.fixtures
        answers: list[Answer] = []
        for n in deals:
            line = fixtures.line(self.dialect, n)
            if line is None:
                block = fixtures.block_holding(self.dialect, n)
                if block is None:
                    raise self._uncovered(fixtures, deals)
                distrust = self._distrust(fixtures, n) or self._vouched(fixtures, block)
                answers.append(
                    Failure(n, "error", distrust) if distrust else reference.canonical_lines([n], self.dialect)
                )
            else:
                answers.append(line)
        return answers

    def block_digest(self, deals: Sequence[int]) -> str | None:
        if self.fixtures is None:
            return None
        fixtures = self.fixtures
        span = as_interval(deals)
        if span is not None:
            stored = fixtures.digest(self.dialect, span.first, span.last)
            if stored is not None:
                if self._row(fixtures, span.first, span.last) == (span.first, span.last):
                    self._whole_rows_asked.add((span.first, span.last))  # its chunks may follow, in order
                return stored
            block = fixtures.block_holding(self.dialect, span.first, span.last)
            if block is not None:
                if (digest := self._in_order(fixtures, span)) != "":
                    return digest
                if self._distrust(fixtures, span.first) or self._vouched(fixtures, block) is not None:
                    return None
                return reference.block_digest(range(span.first, span.last + 1), self.dialect)
        h = hashlib.sha256()
        for answer in self.lines(deals):
            if isinstance(answer, Failure):
                return None
            h.update(answer)
        return h.hexdigest()
