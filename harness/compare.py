"""Comparing two dealers on one block: digests first, narrowed by digests when they differ, lines last."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

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


Progress = Callable[[int], None]  # called with the deals just found to agree

CHUNK_S = 1.0  # chunks grow fourfold while one takes less than this, so a failure shows up fast
FIRST_CHUNK = 16  # deals in the first digest call, before the dealer's speed is known
PARTS = 8  # a piece whose digest differs is split into this many to narrow it down
LINE_PASS = 64  # pieces this small are compared line by line


class BlockComparer:
    """Compares one dealer with another, block by block; the slower side's work overlaps the other's.

    A block is dealt in chunks that grow while they take under CHUNK_S, so that a failure stops
    the block at its first differing chunk.  That chunk is narrowed by digests (split into PARTS, keep the
    first that differs) from a fresh process, down to LINE_PASS deals compared line by line.  A
    dealer whose answers depend on what it dealt before (stateful) or on chance (non-deterministic)
    is told apart, and said to be so, instead of blaming a deal that was right.
    """

    def __init__(
        self, actual: Dealer, expected: Dealer, *, owns_dealers: bool = True, dialect: str = "classic"
    ) -> None:
        self.actual, self.expected = actual, expected
        self.dialect = dialect  # what a mismatch is diagnosed against
        self.owns_dealers = owns_dealers
        self._side = ThreadPoolExecutor(max_workers=1, thread_name_prefix="impl")
        whole_blocks = actual.whole_blocks_only or expected.whole_blocks_only
        self._chunk = sys.maxsize if whole_blocks else FIRST_CHUNK

    def compare(self, block: Block, progress: Progress | None = None) -> BlockResult:
        deals = block.deals
        done = 0
        while done < len(deals):
            piece = deals[done : done + self._chunk]
            started = time.monotonic()
            same = self._same(piece)
            self._adapt(len(piece), time.monotonic() - started, len(deals))
            if not same:
                failure = diagnosed(self._narrow(deals, done, done + len(piece)), self.dialect, self.actual)
                checked = list(deals).index(failure.deal) + 1
                if progress:
                    progress(checked - done)
                return BlockResult(block.key, checked, failure, block.first)
            done += len(piece)
            if progress:
                progress(len(piece))
        return BlockResult(block.key, len(deals), None, block.first)

    def _adapt(self, size: int, elapsed: float, limit: int) -> None:
        # Only ever grow: a dealer's cost per call (a process started for a program that writes
        # only when its stdin ends) must not shrink chunks into one call per deal.
        if elapsed < CHUNK_S and size >= self._chunk:
            self._chunk = min(4 * size, max(limit, self._chunk))

    def _same(self, deals: Sequence[int]) -> bool:
        pending = self._side.submit(self.actual.block_digest, deals)
        want = self.expected.block_digest(deals)
        got = pending.result()
        return got is not None and got == want

    def _lines(self, deals: Sequence[int]) -> Failure | None:
        pending = self._side.submit(self.actual.lines, deals)
        expected_lines = self.expected.lines(deals)
        return first_difference(deals, pending.result(), expected_lines, self.expected.impl)

    def _narrow(self, deals: Sequence[int], lo: int, hi: int) -> Failure:
        """The first failure in deals[lo:hi], whose digest differed after deals[:lo] in one process."""
        start, stop = lo, hi
        while stop - start > LINE_PASS:
            self.actual.reset()
            step = -(-(stop - start) // PARTS)
            for first in range(start, stop, step):
                if not self._same(deals[first : min(first + step, stop)]):
                    start, stop = first, min(first + step, stop)
                    break
            else:
                return self._history_dependent(deals, lo, hi)
        self.actual.reset()
        failure = self._lines(deals[start:stop])
        if failure is None or (start and failure.kind != "mismatch" and self._right_alone(failure.deal)):
            # A failure that a fresh process shows at a deal that alone is right (a dealer that
            # dies of what it kept) may sit elsewhere after the deals first dealt before it.
            return self._history_dependent(deals, lo, hi)
        return self._alone(failure)

    def _history_dependent(self, deals: Sequence[int], lo: int, hi: int) -> Failure:
        """Every piece agreed alone: re-deal the block up to the piece from a fresh process, as first dealt."""
        self.actual.reset()
        if lo:
            self._side.submit(self.actual.block_digest, deals[:lo]).result()
        failure = self._lines(deals[lo:hi])
        if failure is not None:
            return self._alone(failure, after=deals[:lo])
        first, last = deals[lo], deals[hi - 1]
        return Failure(
            first,
            "error",
            f"the dealer is non-deterministic or stateful: deals {first}-{last} gave other boards when "
            "dealt again from a fresh process (their digest differed, yet every line agreed)",
        )

    def _alone(self, failure: Failure, after: Sequence[int] = ()) -> Failure:
        """A mismatch that is right when its deal is dealt alone, from a fresh process, says so."""
        if failure.kind != "mismatch" or not self._right_alone(failure.deal):
            return failure
        before = f" after deals {after[0]}-{after[-1]} in the same process" if after else ""
        note = (
            f" (dealt{before}; alone, from a fresh process, deal {failure.deal} is right: "
            "the dealer is stateful or non-deterministic)"
        )
        return replace(failure, message=failure.message + note)

    def _right_alone(self, deal: int) -> bool:
        """Whether `deal`, dealt alone from a fresh process, is right."""
        self.actual.reset()
        return self._lines([deal]) is None

    def close(self) -> None:
        self._side.shutdown(wait=False, cancel_futures=True)
        if self.owns_dealers:
            self.actual.close()
            self.expected.close()
