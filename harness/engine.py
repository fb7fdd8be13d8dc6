"""Running a verification: blocks over worker processes, resumable, smallest failure wins.

Each worker process opens both dealers once (so one Node process per worker, not per deal)
and compares the blocks it is sent.  At most a few blocks per worker are in flight, so memory
stays flat however large the range; once a failure is known, blocks that start after it are
not sent, but every block before it is still checked, so the failure reported is the smallest.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from harness.adapters import check_impl, open_pair
from harness.compare import BlockComparer, BlockResult
from harness.errors import RequestError
from harness.failures import Failure
from harness.intervals import Block
from harness.request import Request, default_jobs
from harness.resume import ResumeLog
from harness.verdict import Verdict


@dataclass(slots=True)
class Outcome:
    """The verdict so far, and how much of it this run did (a resumed log did the rest)."""

    verdict: Verdict = field(default_factory=Verdict)
    resumed: int = 0  # deals of the verdict that a resume log had already checked
    started: float = field(default_factory=time.perf_counter)
    elapsed_s: float = 0.0
    # Recently counted blocks (first deal, deals): blocks finish out of order in a pool, so some that
    # start after a failure found later were counted; they are taken back (at most the pool's window).
    _recent: deque[tuple[int, int]] = field(default_factory=lambda: deque(maxlen=4096))

    @property
    def checked(self) -> int:
        return self.verdict.checked

    @property
    def first_failure(self) -> Failure | None:
        return self.verdict.first_failure

    def add(self, result: BlockResult, first_deal: int | None = None) -> None:
        """Count a block's result; `first_deal` (its first deal number) lets a later failure before the
        block take its deals back out of `checked`, which counts deals up to the first failure only."""
        if first_deal is not None and not self.verdict.can_change(first_deal):
            return
        before = self.verdict.first_failure
        self.verdict = self.verdict.merge(Verdict(result.checked, result.failure))
        failure = self.verdict.first_failure
        if failure is not None and failure is not before:
            late = [(first, n) for first, n in self._recent if first > failure.deal]
            self._recent = deque(((f, n) for f, n in self._recent if f <= failure.deal), maxlen=self._recent.maxlen)
            self.verdict = Verdict(self.verdict.checked - sum(n for _, n in late), failure)
        if first_deal is not None:
            self._recent.append((first_deal, result.checked))

    @property
    def conformant(self) -> bool:
        return self.verdict.conformant

    @property
    def checked_this_run(self) -> int:
        return max(0, self.checked - self.resumed)

    def wanted(self, block: Block) -> bool:
        """Whether a block can still change the verdict: only if it starts before the known failure."""
        return self.verdict.can_change(block.first)


Progress = Callable[[int], None]  # called with the deals just checked

# Per worker process: the comparer, opened once by the initializer.
_worker_comparer: BlockComparer | None = None


def _open_comparer(request: Request) -> BlockComparer:
    return BlockComparer(*open_pair(request.impl, request.against, request.options), dialect=request.dialect)


# What stopped the initializer from opening it: raised again by every task, so that the parent
# gets the request error itself (one line, exit 2) rather than a broken pool.
_worker_error: RequestError | None = None


def _init_worker(request: Request) -> None:
    global _worker_comparer, _worker_error
    try:
        _worker_comparer = _open_comparer(request)
    except RequestError as exc:  # e.g. a node: file that does not compile: only Node can tell
        _worker_error = exc


def _compare_in_worker(block: Block) -> BlockResult:
    if _worker_error is not None:
        raise _worker_error
    assert _worker_comparer is not None
    return _worker_comparer.compare(block)


def run(request: Request, *, resume: ResumeLog | None = None, progress: Progress | None = None) -> Outcome:
    """Check every block of the request; RequestError when it cannot be served."""
    outcome = Outcome()
    done = resume.load(request.fingerprint()) if resume else {}
    for result in done.values():
        outcome.add(result)
    outcome.resumed = outcome.checked
    blocks = (b for b in request.blocks() if b.key not in done)

    def record(result: BlockResult) -> None:
        outcome.add(result, result.first)
        if resume:
            resume.append(result)
        if progress:
            progress(result.checked)

    if request.jobs <= 1:
        _run_here(request, blocks, outcome, record)
    else:
        for impl in (request.impl, request.against):  # what cannot be served fails here, in one line
            check_impl(impl, request.options)
        _run_in_pool(request, blocks, outcome, record)
    outcome.elapsed_s = time.perf_counter() - outcome.started
    return outcome


def _run_here(
    request: Request, blocks: Iterator[Block], outcome: Outcome, record: Callable[[BlockResult], None]
) -> None:
    comparer = _open_comparer(request)
    try:
        check_blocks(comparer, blocks, outcome, record)
    finally:
        comparer.close()


def check_blocks(
    comparer: BlockComparer,
    blocks: Iterable[Block],
    outcome: Outcome | None = None,
    record: Callable[[BlockResult], None] | None = None,
) -> Outcome:
    """Compare blocks in this process, in order, skipping those that can no longer change the verdict."""
    outcome = outcome if outcome is not None else Outcome()
    for block in blocks:
        if outcome.wanted(block):
            result = comparer.compare(block)
            if record is not None:
                record(result)
            else:
                outcome.add(result, result.first)
    return outcome


def _run_in_pool(
    request: Request, blocks: Iterator[Block], outcome: Outcome, record: Callable[[BlockResult], None]
) -> None:
    window = 3 * request.jobs
    in_flight: set[Future[BlockResult]] = set()
    try:
        with ProcessPoolExecutor(request.jobs, initializer=_init_worker, initargs=(request,)) as pool:
            for block in blocks:
                if not outcome.wanted(block):
                    continue
                if len(in_flight) >= window:
                    finished, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
                    for future in finished:
                        record(future.result())
                in_flight.add(pool.submit(_compare_in_worker, block))
            for future in in_flight:
                record(future.result())
    except BrokenProcessPool as exc:
        raise RequestError(f"a worker process died: {exc}") from None


__all__ = ["Outcome", "Progress", "Request", "check_blocks", "default_jobs", "run"]
