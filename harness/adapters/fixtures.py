"""IMPL `fixtures`: the golden fixtures, for the deals they cover.

A deal that the fixtures hold only inside the digest of a block (a part of a whole-domain row, when a
range does not start or end on the grid, or while a differing block is narrowed) is answered by the
reference once it has reproduced that block's stored digest: then its lines are the fixtures' lines.

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
from harness.intervals import Interval, as_interval
from reference import get_dialect


class FixturesDealer(Dealer):
    kind, form, package = "fixtures", "fixtures", "freecell-harness"
    whole_blocks_only = True

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
                distrust = self._vouched(fixtures, block)
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
                return stored
            block = fixtures.block_holding(self.dialect, span.first, span.last)
            if block is not None:
                if self._vouched(fixtures, block) is not None:
                    return None
                return reference.block_digest(range(span.first, span.last + 1), self.dialect)
        h = hashlib.sha256()
        for answer in self.lines(deals):
            if isinstance(answer, Failure):
                return None
            h.update(answer)
        return h.hexdigest()
