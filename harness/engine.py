"""Running a verification: blocks over worker processes, resumable, smallest failure wins.

Each worker process opens both dealers once (so one Node process per worker, not per deal)
and compares the blocks it is sent, one at a time, so memory stays flat however large the
range.  Once a failure is known, blocks that start after it are not sent and those in flight
are stopped, but every block before it is still checked, so the failure reported is the
smallest.  The main process only schedules: Ctrl-C or SIGTERM stops every worker and dealer.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from types import FrameType

from harness.adapters import DealerOptions, open_dealer
from harness.compare import BlockComparer, BlockResult
from harness.errors import RequestError
from harness.failures import Failure
from harness.interrupts import descendants, die_with_parent, interrupts_held, interrupts_raise, kill_children, kill_tree
from harness.plan import ALL, BLOCK_SIZE, Block, Shard, range_blocks, sample_blocks, sample_deals, shard_blocks
from harness.resume import ResumeLog, run_identity


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
            "timeout": self.timeout,
            "encoding": self.encoding,
        }


@dataclass(slots=True)
class Outcome:
    """The verdict so far: deals checked and the smallest failure."""

    checked: int = 0
    first_failure: Failure | None = None
    started: float = field(default_factory=time.perf_counter)
    elapsed_s: float = 0.0
    interrupted: bool = False  # stopped by Ctrl-C or SIGTERM before every block was checked

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

STOP_GRACE_S = 1.0  # a worker told to stop has this long to kill its dealers before it is killed


def _open_comparer(request: Request) -> BlockComparer:
    actual = open_dealer(request.impl, request.options)
    try:
        expected = open_dealer(request.against, request.options)
    except BaseException:
        actual.close()
        raise
    return BlockComparer(actual, expected)


def _worker_main(conn: Connection, request: Request, parent: int) -> None:
    """A worker process: open both dealers once, then compare the blocks it is sent."""

    def terminated(signum: int, frame: FrameType | None) -> None:
        kill_children()  # the dealers' process groups: they live in sessions of their own
        os._exit(128 + signum)

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the main process decides
    signal.signal(signal.SIGTERM, terminated)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    die_with_parent()
    if os.getppid() != parent:  # the parent died before we asked to die with it
        terminated(signal.SIGTERM, None)
    try:
        comparer = _open_comparer(request)
    except RequestError as exc:
        conn.send(("refused", str(exc)))
        return
    except Exception as exc:
        conn.send(("broken", f"{type(exc).__name__}: {exc}"))
        return
    try:
        conn.send(("ready", None))
        while (block := conn.recv()) is not None:
            result = comparer.compare(block, lambda n: conn.send(("progress", n)))
            conn.send(("result", result))
    except (EOFError, BrokenPipeError):
        pass  # the main process has gone
    except Exception as exc:
        conn.send(("broken", f"{type(exc).__name__}: {exc}"))
    finally:
        comparer.close()


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@dataclass(slots=True)
class _Worker:
    process: BaseProcess
    conn: Connection
    ready: bool = False
    block: Block | None = None  # the block it is comparing


class _Workers:
    """Worker processes the main process can stop at once; one block in flight per worker."""

    def __init__(self, request: Request) -> None:
        context = multiprocessing.get_context("fork")
        self.workers: list[_Worker] = []
        self.cancelled: list[_Worker] = []  # stopped because their block lies after the failure
        # Signals wait until each worker has set its own handlers (a Ctrl-C then is the main process's).
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        try:
            for _ in range(request.jobs):
                mine, theirs = context.Pipe()
                process = context.Process(target=_worker_main, args=(theirs, request, os.getpid()), daemon=True)
                self.workers.append(_Worker(process, mine))
                process.start()
                theirs.close()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)

    def run(
        self, blocks: Iterator[Block], outcome: Outcome, record: Callable[[BlockResult], None], progress: Progress
    ) -> None:
        wanted = (b for b in blocks if outcome.wanted(b))
        exhausted = False
        while True:
            for worker in self.workers:
                if worker.ready and worker.block is None and not exhausted:
                    worker.block = next(wanted, None)
                    if worker.block is None:
                        exhausted = True
                    else:
                        worker.conn.send(worker.block)
            listening = [w for w in self.workers if not w.ready or w.block is not None]
            if not listening:
                return
            for conn in wait([w.conn for w in listening]):
                worker = next(w for w in listening if w.conn is conn)
                self._receive(worker, outcome, record, progress)

    def _receive(
        self, worker: _Worker, outcome: Outcome, record: Callable[[BlockResult], None], progress: Progress
    ) -> None:
        try:
            what, value = worker.conn.recv()
        except (EOFError, OSError):
            worker.process.join(STOP_GRACE_S)
            where = f" while checking deals {worker.block.key}" if worker.block else ""
            raise RequestError(
                f"a worker process died{where} ({exit_text(worker.process.exitcode)}): a dealer that ends "
                "the process it runs in (os._exit, a crash of the interpreter) cannot be judged"
            ) from None
        if what == "ready":
            worker.ready = True
        elif what == "progress":
            progress(value)
        elif what == "result":
            worker.block = None
            record(value)
            if value.failure is not None:
                self._cancel_after(outcome)
        elif what == "refused":
            raise RequestError(value)
        else:
            raise RuntimeError(f"in a worker process: {value}")

    def _cancel_after(self, outcome: Outcome) -> None:
        """Blocks in flight that start after the known failure cannot change the verdict: stop them."""
        for worker in list(self.workers):
            if worker.block is not None and not outcome.wanted(worker.block):
                worker.process.terminate()
                self.workers.remove(worker)
                self.cancelled.append(worker)

    def stop(self, *, at_once: bool) -> None:
        """End every worker and every process they started; at once, or after their blocks."""
        everyone = self.workers + self.cancelled
        left_behind = descendants(os.getpid())
        for worker in everyone:
            if at_once or worker.block is not None:
                worker.process.terminate()
            else:
                with contextlib.suppress(OSError):
                    worker.conn.send(None)
        deadline = time.monotonic() + (STOP_GRACE_S if at_once else 10 * STOP_GRACE_S)
        for worker in everyone:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.exitcode is None:
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
        kill_tree(left_behind)  # dealers of a worker that was killed before it could kill them


def exit_text(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit status {code}"


def run(request: Request, *, resume: ResumeLog | None = None, progress: Progress | None = None) -> Outcome:
    """Check every block of the request; RequestError when it cannot be served.

    Ctrl-C or SIGTERM stops every worker and dealer within seconds and returns the verdict so far,
    marked `interrupted` (finished blocks are in the resume log)."""
    outcome = Outcome()
    done = resume.load(request.fingerprint(), run_identity(request.impl, request.against)) if resume else {}
    for result in done.values():
        outcome.add(result)
    blocks = (b for b in request.blocks() if b.key not in done)

    def record(result: BlockResult) -> None:
        outcome.add(result)
        if resume:
            resume.append(result)

    workers = _Workers(request)
    failed = True
    try:
        with interrupts_raise():
            workers.run(blocks, outcome, record, progress or (lambda n: None))
        failed = False
    except KeyboardInterrupt:
        outcome.interrupted = failed = True
    finally:
        with interrupts_held():
            workers.stop(at_once=failed)
    outcome.elapsed_s = time.perf_counter() - outcome.started
    return outcome


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)))
