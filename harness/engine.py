"""Running a verification: blocks over worker processes, resumable, smallest failure wins.

Each worker process opens both dealers once (so one Node process per worker, not per deal)
and compares the blocks it is sent.  At most a few blocks per worker are in flight, so memory
stays flat however large the range; once a failure is known, blocks that start after it are
not sent, but every block before it is still checked, so the failure reported is the smallest.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from harness.adapters import DealerOptions, open_dealer
from harness.compare import BlockComparer, BlockResult
from harness.errors import RequestError
from harness.failures import Failure
from harness.plan import ALL, BLOCK_SIZE, Block, Shard, range_blocks, sample_blocks, sample_deals, shard_blocks
from harness.resume import ResumeLog


@dataclass(frozen=True, slots=True)
class Request:
    """One `verify`: what to compare with what, over which deals, spread how."""

    impl: str
    against: str = "reference"
    dialect: str = "classic"
    ranges: tuple[tuple[int, int], ...] = ()
    sample: int | None = None
    seed: int = 0
    jobs: int = 1
    shard: Shard = ALL
    timeout: float = 10.0
    encoding: str = "utf-8"
    block_size: int = BLOCK_SIZE

    @property
    def options(self) -> DealerOptions:
        return DealerOptions(dialect=self.dialect, timeout=self.timeout, encoding=self.encoding)

    def blocks(self) -> Iterator[Block]:
        """This shard's blocks, lazily, in deal order."""

        def every_block() -> Iterator[Block]:
            for first, last in self.ranges:
                yield from range_blocks(first, last, self.block_size)
            if self.sample is not None:
                yield from sample_blocks(sample_deals(self.dialect, self.sample, self.seed), self.block_size)

        return shard_blocks(every_block(), self.shard)

    def fingerprint(self) -> dict[str, object]:
        """What must match for a resume log to belong to this run."""
        return {
            "implementation": self.impl,
            "against": self.against,
            "dialect": self.dialect,
            "ranges": [list(r) for r in self.ranges],
            "sample": self.sample,
            "seed": self.seed if self.sample is not None else None,
            "shard": str(self.shard),
            "block_size": self.block_size,
        }


@dataclass(slots=True)
class Outcome:
    """The verdict so far: deals checked and the smallest failure."""

    checked: int = 0
    first_failure: Failure | None = None
    started: float = field(default_factory=time.perf_counter)
    elapsed_s: float = 0.0

    def add(self, result: BlockResult) -> None:
        self.checked += result.checked
        if result.failure and (self.first_failure is None or result.failure.deal < self.first_failure.deal):
            self.first_failure = result.failure

    @property
    def conformant(self) -> bool:
        return self.first_failure is None

    def wanted(self, block: Block) -> bool:
        """Whether a block can still change the verdict: only if it starts before the known failure."""
        return self.first_failure is None or block.first < self.first_failure.deal


Progress = Callable[[int], None]  # called with the deals just checked

# Per worker process: the comparer, opened once by the initializer.
_worker_comparer: BlockComparer | None = None


def _open_comparer(request: Request) -> BlockComparer:
    actual = open_dealer(request.impl, request.options)
    try:
        expected = open_dealer(request.against, request.options)
    except BaseException:
        actual.close()
        raise
    return BlockComparer(actual, expected, dialect=request.dialect)


def _init_worker(request: Request) -> None:
    global _worker_comparer
    _worker_comparer = _open_comparer(request)


def _compare_in_worker(block: Block) -> BlockResult:
    assert _worker_comparer is not None
    return _worker_comparer.compare(block)


def run(request: Request, *, resume: ResumeLog | None = None, progress: Progress | None = None) -> Outcome:
    """Check every block of the request; RequestError when it cannot be served."""
    outcome = Outcome()
    done = resume.load(request.fingerprint()) if resume else {}
    for result in done.values():
        outcome.add(result)
    blocks = (b for b in request.blocks() if b.key not in done)

    def record(result: BlockResult) -> None:
        outcome.add(result)
        if resume:
            resume.append(result)
        if progress:
            progress(result.checked)

    if request.jobs <= 1:
        _run_here(request, blocks, outcome, record)
    else:
        _open_comparer(request).close()  # a request that cannot be served fails here, in one line
        _run_in_pool(request, blocks, outcome, record)
    outcome.elapsed_s = time.perf_counter() - outcome.started
    return outcome


def _run_here(
    request: Request, blocks: Iterator[Block], outcome: Outcome, record: Callable[[BlockResult], None]
) -> None:
    comparer = _open_comparer(request)
    try:
        for block in blocks:
            if outcome.wanted(block):
                record(comparer.compare(block))
    finally:
        comparer.close()


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


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)))
