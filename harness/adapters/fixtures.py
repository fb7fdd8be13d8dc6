"""IMPL `fixtures`: the golden fixtures, for the deals they cover.

Corrupted fixtures (a SHA-256 that differs from the manifest, a missing file or manifest) are never
trusted: every deal asked is then answered with an `error` failure naming the bad file, so that
`verify fixtures` exits 1 ("drifted or corrupted fixtures", SPEC.md).  Deals the fixtures do not
cover at all are a request that cannot be served: RequestError (exit 2), saying what they cover.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.errors import RequestError
from harness.failures import Failure
from harness.fixtures.store import Fixtures, FixturesError, find_fixtures, load_fixtures
from harness.intervals import as_interval
from reference import get_dialect


class FixturesDealer(Dealer):
    whole_blocks_only = True

    @classmethod
    def check(cls, argument: str, options: DealerOptions) -> None:
        find_fixtures()

    def __init__(self, options: DealerOptions, directory: Path | None = None) -> None:
        self.impl = "fixtures"
        self.dialect = get_dialect(options.dialect).name
        self.fixtures: Fixtures | None = None
        self.refusal: str | None = None
        try:
            self.fixtures = load_fixtures(directory)
        except FixturesError as exc:
            self.refusal = f"corrupted fixtures, not trusted ({exc}); run `freecell-harness fixtures check`"

    def _uncovered(self, fixtures: Fixtures, deals: Sequence[int]) -> RequestError:
        missing = next(n for n in deals if not fixtures.covers(self.dialect, n))
        return RequestError(f"the fixtures do not cover deal {missing}: they hold {fixtures.coverage(self.dialect)}")

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        if self.fixtures is None:
            return [Failure(n, "error", self.refusal or "no fixtures") for n in deals]
        fixtures = self.fixtures
        if not all(fixtures.covers(self.dialect, n) for n in deals):
            raise self._uncovered(fixtures, deals)
        answers: list[Answer] = []
        for n in deals:
            line = fixtures.line(self.dialect, n)
            if line is None:
                # Reached only when a stored block digest differed: the fixtures hold no line to show.
                a, b = fixtures.block_holding(self.dialect, n) or (n, n)
                line_or_failure: Answer = Failure(n, "error", f"the fixtures hold only the digest of block {a}-{b}")
            else:
                line_or_failure = line
            answers.append(line_or_failure)
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
        h = hashlib.sha256()
        for n in deals:
            line = fixtures.line(self.dialect, n)
            if line is None:
                if not fixtures.covers(self.dialect, n):
                    raise self._uncovered(fixtures, deals)
                raise RequestError(
                    f"the fixtures hold deal {n} only inside a block digest, not this block: "
                    f"they hold {fixtures.coverage(self.dialect)}"
                )
            h.update(line)
        return h.hexdigest()
