"""Comparing two dealers on one block: digests first, lines only when the digests differ."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from harness.adapters.base import Answer, Dealer
from harness.diagnosis import diagnosed
from harness.failures import Failure
from harness.intervals import Block


@dataclass(frozen=True, slots=True)
class BlockResult:
    key: str
    checked: int  # deals of the block that were compared
    failure: Failure | None  # the block's smallest failing deal
    first: int | None = None  # the block's first deal number (unknown for results read from a resume log)


def differing_cards(expected: str, actual: str) -> list[int]:
    """1-based positions, in dealing order, where two canonical lines differ."""
    return [i + 1 for i, (e, a) in enumerate(zip(expected.split(), actual.split(), strict=False)) if e != a]


def mismatch_message(positions: list[int]) -> str:
    if len(positions) == 1:
        return f"card {positions[0]} differs"
    shown = [str(p) for p in positions[:6]]
    more = len(positions) - len(shown)
    tail = f" and {more} more" if more else f" and {shown.pop()}"
    return f"cards {', '.join(shown)}{tail} differ"


def _text(answer: Answer) -> str | None:
    return None if isinstance(answer, Failure) else answer.decode("ascii", "replace").rstrip("\n")


def first_difference(
    deals: Sequence[int], actual: list[Answer], expected: list[Answer], against: str
) -> Failure | None:
    """The first deal where `actual` is not `expected`, as a Failure; None if they agree."""
    for number, got, want in zip(deals, actual, expected, strict=True):
        if isinstance(want, Failure):
            # The implementation compared against failed: nothing can be judged at this deal.
            return Failure(number, "error", f"{against} failed here ({want.kind}: {want.message})", None, _text(got))
        if isinstance(got, Failure):
            return Failure(number, got.kind, got.message, _text(want), got.actual)
        if got != want:
            e, a = _text(want), _text(got)
            assert e is not None and a is not None
            return Failure(number, "mismatch", mismatch_message(differing_cards(e, a)), e, a)
    return None


class BlockComparer:
    """Compares one dealer with another, block by block; the slower side's work overlaps the other's."""

    def __init__(
        self, actual: Dealer, expected: Dealer, *, owns_dealers: bool = True, dialect: str = "classic"
    ) -> None:
        self.actual, self.expected = actual, expected
        self.dialect = dialect  # what a mismatch is diagnosed against
        self.owns_dealers = owns_dealers
        self._side = ThreadPoolExecutor(max_workers=1, thread_name_prefix="impl")

    def compare(self, block: Block) -> BlockResult:
        deals = block.deals
        pending = self._side.submit(self.actual.block_digest, deals)
        want = self.expected.block_digest(deals)
        got = pending.result()
        if got is not None and got == want:
            return BlockResult(block.key, len(deals), None, block.first)
        pending_lines = self._side.submit(self.actual.lines, deals)
        expected_lines = self.expected.lines(deals)
        failure = first_difference(deals, pending_lines.result(), expected_lines, self.expected.impl)
        if failure is None:
            # Digests differed yet every line agrees: the digest path itself is wrong somewhere.
            failure = Failure(deals[0], "error", f"block {block.key}: digests differ but every line agrees")
        failure = diagnosed(failure, self.dialect, self.actual)
        return BlockResult(block.key, list(deals).index(failure.deal) + 1, failure, block.first)

    def close(self) -> None:
        self._side.shutdown(wait=False, cancel_futures=True)
        if self.owns_dealers:
            self.actual.close()
            self.expected.close()
