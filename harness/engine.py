"""Running a verification: blocks over worker processes, resumable, smallest failure wins.

The engine decides what is checked and what the verdict is; where the blocks are compared is a
`BlockRunner`: `LocalPool` (worker processes of this machine, the default) or `harness.cluster`'s
Dask runner (the workers of a Dask scheduler).  Both compare a block with the same `BlockComparer`,
opened by `open_comparer`.

Each local worker process opens both dealers once (so one Node process per worker, not per deal)
and compares the blocks it is sent, one at a time, so memory stays flat however large the
range.  Once a failure is known, blocks that start after it are not sent and those in flight
are stopped, but every block before it is still checked, so the failure reported is the
smallest.  The main process only schedules: Ctrl-C or SIGTERM stops every worker and dealer.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Protocol

from harness.adapters import check_impl, dealer_class, open_pair, parse_impl
from harness.compare import BlockComparer, BlockResult
from harness.errors import RequestError, environment_limit
from harness.failures import Failure
from harness.intervals import Block, Interval, merge_intervals
from harness.process import close_spawners, die_with_parent, exit_text
from harness.process.interrupts import interrupts_held, interrupts_raise, kill_children
from harness.process.trees import descendants, kill_tree
from harness.request import Request, default_jobs
from harness.resume import ResumeLog, run_identity
from harness.verdict import Verdict


@dataclass(slots=True)
class Outcome:
    """The verdict so far, and how much of it this run did (a resumed log did the rest)."""

    verdict: Verdict = field(default_factory=Verdict)
    resumed: int = 0  # deals of the verdict that a resume log had already checked
    started: float = field(default_factory=time.perf_counter)
    elapsed_s: float = 0.0
    interrupted: bool = False  # stopped by Ctrl-C or SIGTERM before every block was checked
    notes: list[str] = field(default_factory=list)  # how the dealers had to be run, for the verdict
    # The deals found identical, as intervals (for a run of ranges: a sample's deals are not consecutive),
    # so that an interrupted run's report says exactly what it checked (`Report.covered`).
    agreed: list[Interval] | None = None
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
        if self.agreed is not None and first_deal is not None:
            identical = result.checked - (result.failure is not None)
            if identical > 0:
                self.agreed.append(Interval(first_deal, first_deal + identical - 1))
                if len(self.agreed) % 4096 == 0:
                    self.agreed[:] = merge_intervals(self.agreed)
        before = self.verdict.first_failure
        self.verdict = self.verdict.merge(Verdict(result.checked, result.failure))
        failure = self.verdict.first_failure
        if failure is not None and failure is not before:
            late = [(first, n) for first, n in self._recent if first > failure.deal]
            self._recent = deque(((f, n) for f, n in self._recent if f <= failure.deal), maxlen=self._recent.maxlen)
            self.verdict = Verdict(self.verdict.checked - sum(n for _, n in late), failure)
        if first_deal is not None:
            self._recent.append((first_deal, result.checked))
        self.notes.extend(note for note in result.notes if note not in self.notes)

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

STOP_GRACE_S = 1.0  # a worker told to stop has this long to kill its dealers before it is killed


Record = Callable[[BlockResult], None]  # counts a finished block's result (and logs it for --resume)


class BlockRunner(Protocol):
    """A place to compare blocks: it draws them, has them compared, and records each result.

    It sends only blocks that `outcome.wanted` still (a failure found makes later blocks moot) and
    stops those in flight that no longer are; `stop` ends every process it started for the run."""

    def run(self, blocks: Iterator[Block], outcome: Outcome, record: Record, progress: Progress) -> None:
        """Compare the blocks until none is left that can change the verdict; RequestError when it cannot."""
        ...

    def partial(self, outcome: Outcome) -> Iterator[BlockResult]:
        """What blocks in flight have found to agree so far (for a run stopped before they finished)."""
        ...

    def stop(self, *, at_once: bool) -> None:
        """End what it started for the run: at once (interrupted, failed) or after the blocks in flight."""
        ...


RunnerFactory = Callable[[Request], BlockRunner]


def open_comparer(request: Request) -> BlockComparer:
    """The pair of dealers of a request, opened, as every place that compares blocks uses them."""
    return BlockComparer(*open_pair(request.impl, request.against, request.options), dialect=request.dialect)


def serve_blocks(conn: Connection, request: Request, parent: int) -> None:
    """A worker process (of `LocalPool`, or on a cluster worker): open both dealers once, then compare the
    blocks it is sent over `conn`, answering ("ready"|"progress"|"result"|"refused"|"broken", value)."""

    def terminated(signum: int, frame: FrameType | None) -> None:
        kill_children()  # the dealers' process groups: they live in sessions of their own
        os._exit(128 + signum)

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the main process decides
    signal.signal(signal.SIGTERM, terminated)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    die_with_parent(signal.SIGTERM, parent)  # SIGTERM: `terminated` kills the dealers too
    prepare_dealers(request)
    try:
        comparer = open_comparer(request)
    except RequestError as exc:
        conn.send(("refused", str(exc)))
        return
    except Exception as exc:
        conn.send(_broken(exc))
        return
    comparer.actual.start_early()
    try:
        conn.send(("ready", None))
        while (sent := conn.recv()) is not None:
            block, then = sent  # `then`: the block this worker will likely be sent next (its dealer may start on it)
            result = comparer.compare(block, lambda n: conn.send(("progress", n)), then)
            conn.send(("result", result))
    except (EOFError, BrokenPipeError):
        pass  # the main process has gone
    except RequestError as exc:  # a dealer's answer that only an option can make readable (--suits)
        conn.send(("refused", str(exc)))
    except Exception as exc:
        conn.send(_broken(exc))
    finally:
        comparer.close()


def _broken(exc: Exception) -> tuple[str, str]:
    """What a worker says of an exception of its own: the machine's limit (`refused`: the run cannot be
    served here), or a bug of ours (`broken`)."""
    limit = environment_limit(exc)
    return ("refused", str(limit)) if limit is not None else ("broken", f"{type(exc).__name__}: {exc}")


_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def prepare_dealers(request: Request) -> None:
    """Both dealers' kinds prepare what their first deal would (`Dealer.prepare`: the reference dealer's
    tables, some 30 ms), in a thread, while the dealers start (a `py:` runner imports its module) and the
    other deals its first chunk; a dealer's first deal waits for its own kind's preparing under way."""
    kinds = {dealer_class(parse_impl(impl).kind) for impl in (request.impl, request.against)}
    options = request.options

    def prepare() -> None:
        for cls in kinds:
            with contextlib.suppress(Exception):  # only a head start: the first deal does it again, and says why
                cls.prepare(options)

    threading.Thread(target=prepare, daemon=True).start()


@dataclass(slots=True)
class _Worker:
    process: BaseProcess
    conn: Connection
    ready: bool = False
    block: Block | None = None  # the block it is comparing
    agreed: int = 0  # deals of that block found to agree so far
    queue: deque[Block] = field(default_factory=deque)  # its next blocks, drawn but not yet sent


class LocalPool:
    """The `BlockRunner` of one machine: `request.jobs` worker processes the main process can stop at
    once; one block in flight per worker."""

    def __init__(self, request: Request) -> None:
        context = multiprocessing.get_context("fork")
        self.workers: list[_Worker] = []
        self.cancelled: list[_Worker] = []  # stopped because their block lies after the failure
        # A dealer's answer only an option can make readable, as (the first deal of its block, the message):
        # the earliest block's, as one worker would have met it, however the workers' answers interleave.
        self.refused: tuple[int, str] | None = None
        # Signals wait until each worker has set its own handlers (a Ctrl-C then is the main process's).
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        try:
            for _ in range(request.jobs):
                mine, theirs = context.Pipe()
                process = context.Process(target=serve_blocks, args=(theirs, request, os.getpid()), daemon=True)
                self.workers.append(_Worker(process, mine))
                process.start()
                theirs.close()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)

    def run(self, blocks: Iterator[Block], outcome: Outcome, record: Record, progress: Progress) -> None:
        # Block i goes to worker i mod jobs, whichever is free first: the same blocks in the same
        # processes, in the same order, whatever the load (a dealer may keep state from block to block).
        owners = itertools.cycle(list(self.workers))
        exhausted = False

        def drawn(worker: _Worker) -> None:
            """Blocks drawn (each to its owner) until this worker has one in its queue or none are left."""
            nonlocal exhausted
            while not worker.queue and not exhausted:
                block = next(blocks, None)
                if block is None:
                    exhausted = True
                else:
                    next(owners).queue.append(block)

        def next_block(worker: _Worker) -> Block | None:
            """Its next wanted block: one that cannot change the verdict is skipped, and more are drawn (ranges
            need not come in deal order: a block after the failure may be followed by one before it)."""
            while True:
                drawn(worker)
                if not worker.queue:
                    return None
                block = worker.queue.popleft()
                if self._wanted(outcome, block):
                    return block

        def block_after(worker: _Worker) -> Block | None:
            """The block this worker will be sent next, as far as is known now."""
            drawn(worker)
            return worker.queue[0] if worker.queue and self._wanted(outcome, worker.queue[0]) else None

        while True:
            for worker in self.workers:
                if worker.ready and worker.block is None:
                    worker.block = next_block(worker)
                    if worker.block is not None:
                        worker.conn.send((worker.block, block_after(worker)))
            listening = [w for w in self.workers if not w.ready or w.block is not None]
            if not listening:
                if self.refused is not None and outcome.verdict.can_change(self.refused[0]):
                    raise RequestError(self.refused[1])
                return
            for conn in wait([w.conn for w in listening]):
                worker = next(w for w in listening if w.conn is conn)
                self._receive(worker, outcome, record, progress)

    def _receive(self, worker: _Worker, outcome: Outcome, record: Record, progress: Progress) -> None:
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
            worker.agreed += value
            progress(value)
        elif what == "result":
            worker.block, worker.agreed = None, 0
            record(value)
            if value.failure is not None:
                self._cancel_after(outcome)
        elif what == "refused":
            if worker.block is None:  # its dealer could not be opened: so it is for every worker
                raise RequestError(value)
            if self.refused is None or worker.block.first < self.refused[0]:
                self.refused = (worker.block.first, value)
            worker.block = None
            self.workers.remove(worker)  # its process has ended
            self.cancelled.append(worker)
            self._cancel_after(outcome)
        else:
            raise RuntimeError(f"in a worker process: {value}")

    def _wanted(self, outcome: Outcome, block: Block) -> bool:
        """Whether a block can still change the verdict: it starts before the known failure and refusal."""
        return outcome.wanted(block) and (self.refused is None or block.first < self.refused[0])

    def _cancel_after(self, outcome: Outcome) -> None:
        """Blocks in flight that start after the known failure or refusal cannot change the verdict: stop them."""
        for worker in list(self.workers):
            if worker.block is not None and not self._wanted(outcome, worker.block):
                worker.process.terminate()
                self.workers.remove(worker)
                self.cancelled.append(worker)

    def partial(self, outcome: Outcome) -> Iterator[BlockResult]:
        """What the blocks in flight have found to agree so far (for a run stopped before they finished)."""
        for worker in self.workers:
            if worker.block is not None and worker.agreed and self._wanted(outcome, worker.block):
                yield BlockResult(worker.block.key, worker.agreed, None, worker.block.first)

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


def run(
    request: Request,
    *,
    resume: ResumeLog | None = None,
    progress: Progress | None = None,
    runner: RunnerFactory = LocalPool,
) -> Outcome:
    """Check every block of the request, on the runner's workers (this machine's by default);
    RequestError when it cannot be served.

    Ctrl-C or SIGTERM stops every worker and dealer within seconds and returns the verdict so far,
    marked `interrupted` (finished blocks are in the resume log)."""
    outcome = Outcome(agreed=[] if request.sample is None else None)
    for impl in (request.impl, request.against):  # what cannot be served fails here, in one line
        check_impl(impl, request.options)
    done = resume.load(request.fingerprint(), run_identity(request.impl, request.against)) if resume else {}
    if resume and resume.restarted:
        outcome.notes.append(f"--resume {resume.path}: {resume.restarted}")
    if resume and done:  # in deal order: a block the old run finished past its failure is not counted
        for block in request.blocks():
            if block.key in done:
                outcome.add(resume.counted(block, done[block.key]), block.first)
    outcome.resumed = outcome.checked
    # A block the log has only begun (its first deals agreed, then the run stopped) is dealt on from there.
    begun = {key: r.checked for key, r in done.items() if r.failure is None}
    blocks = (rest for b in request.blocks() if (rest := _unfinished(b, done.get(b.key))) is not None)

    def record(result: BlockResult) -> None:
        outcome.add(result, result.first)
        if resume:
            resume.append(replace(result, checked=result.checked + begun.get(result.key, 0)))

    workers = runner(request)
    failed = True
    try:
        with interrupts_raise():
            workers.run(blocks, outcome, record, progress or (lambda n: None))
        failed = False
    except KeyboardInterrupt:
        outcome.interrupted = failed = True
        for result in list(workers.partial(outcome)):
            record(result)
    finally:
        with interrupts_held():
            workers.stop(at_once=failed)
            close_spawners()  # what the up-front checks started here; a worker's end with it
    outcome.elapsed_s = time.perf_counter() - outcome.started
    return outcome


def _unfinished(block: Block, logged: BlockResult | None) -> Block | None:
    """What is left to check of a block, given what a resume log has of it; None when nothing is."""
    if logged is None:
        return block
    if logged.failure is not None or logged.checked >= len(block):
        return None
    return Block(block.key, block.deals[logged.checked :], None)


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


__all__ = [
    "BlockRunner",
    "LocalPool",
    "Outcome",
    "Progress",
    "Record",
    "Request",
    "RunnerFactory",
    "check_blocks",
    "default_jobs",
    "open_comparer",
    "prepare_dealers",
    "run",
    "serve_blocks",
]
