"""`verify … --cluster tcp://HOST:PORT`: the engine's blocks compared on the workers of a Dask scheduler.

The second `BlockRunner` of the engine (the first is `engine.LocalPool`): the engine still decides
which blocks are wanted and what the verdict is; here each block is a Dask task.  A worker plugin,
registered for the run, starts a comparing process (the engine's own worker, with its pair of
dealers) on a worker the first time one of the run's blocks lands there and keeps it for the next
(one per task the worker runs at once); unregistering the plugin at the end of the run (or the
worker's own end) ends them and their dealers, also in the middle of a block.  Dask decides which
worker runs what: a worker that joins late takes tasks, and the tasks of a worker lost mid-run are
run again on another.

Blocks are submitted in deal order, a few more than the workers' threads at a time, and only while
`outcome.wanted` them, so a block before the smallest failure is never left unchecked.  A worker
that cannot serve the run (no harness, another harness version, other dealer files, a dealer that
cannot start) fails its task with one line naming the worker; the run stops with that line.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from harness.adapters import dealer_build
from harness.compare import BlockResult
from harness.comparing_process import ComparingProcess
from harness.engine import Outcome, Progress, Record, Request, RunnerFactory
from harness.errors import RequestError
from harness.intervals import Block
from harness.version import harness_version

try:
    from distributed import WorkerPlugin
except ImportError:  # the harness works without it; --cluster then says what to install
    WorkerPlugin = object  # type: ignore[misc,assignment]

EXTRA = "pip install 'freecell-harness[cluster]'"
MIN_CONNECT_S = 1.0  # a --startup-timeout of 0 still gives the scheduler this long to answer
CLOSE_S = 5.0  # the most a run waits, at its end, for the scheduler to hear that it is over
POLL_S = 1.0  # how often a run waiting for its tasks looks whether the scheduler still has a worker
AHEAD_PER_THREAD = 2  # tasks submitted per worker thread: each has its next block waiting


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise RequestError(f"--cluster needs Dask distributed, which is not installed: {EXTRA}") from None
    return distributed


class DealerPairs(WorkerPlugin):
    """The worker plugin of one run: its comparing processes on a worker, kept from block to block (one
    per task the worker runs at once); all ended when the run or the worker ends (`teardown`)."""

    def __init__(self, request: Request, identity: dict[str, object]) -> None:
        self.request = request
        self.identity = identity  # `build_identity` on the machine that runs `verify`
        self.address = "?"
        self._free: list[ComparingProcess] = []
        self._open: list[ComparingProcess] = []
        self._lock = threading.Lock()
        self._closed = False
        # The kernel's parent-death signal follows the thread that started a process: they are all started
        # by this one, which lives as long as the plugin (a task's thread may end before the worker does).
        self._starter: ThreadPoolExecutor | None = None

    def __getstate__(self) -> dict[str, object]:
        return {"request": self.request, "identity": self.identity}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["request"], state["identity"])  # type: ignore[misc]

    def setup(self, worker: Any) -> None:
        self.address = str(worker.address)
        self._starter = ThreadPoolExecutor(1, thread_name_prefix="freecell-harness")

    def teardown(self, worker: Any) -> None:
        """The run or the worker ended: end every comparing process, also one comparing a block (its task fails)."""
        with self._lock:
            self._closed = True
            processes, self._open, self._free = self._open, [], []
        for process in processes:
            with contextlib.suppress(Exception):
                process.stop()
        if self._starter is not None:
            self._starter.shutdown(wait=False)

    def compare(self, block: Block) -> BlockResult:
        process = self._take()
        try:
            result = process.compare(block)
        except RequestError as exc:
            self._drop(process)
            raise RequestError(f"on worker {self.address}: {exc}") from None
        except BaseException:
            self._drop(process)
            raise
        with self._lock:
            if not self._closed:
                self._free.append(process)
                return result
        raise RequestError(f"on worker {self.address}: the run has ended")

    def _take(self) -> ComparingProcess:
        with self._lock:
            if self._closed or self._starter is None:
                raise RequestError(f"on worker {self.address}: the run has ended")
            if self._free:
                return self._free.pop()
            starter = self._starter
        self._check_build()
        try:
            process = starter.submit(ComparingProcess, self.request).result()
        except RequestError as exc:
            raise RequestError(f"on worker {self.address}: {exc}") from None
        with self._lock:
            if not self._closed:
                self._open.append(process)
                return process
        process.stop()  # the run ended while its dealers started
        raise RequestError(f"on worker {self.address}: the run has ended")

    def _drop(self, process: ComparingProcess) -> None:
        with self._lock:
            if process in self._open:
                self._open.remove(process)
        with contextlib.suppress(Exception):
            process.stop()

    def _check_build(self) -> None:
        """RequestError unless this worker runs the harness and the dealer files of the machine running `verify`."""
        here = build_identity(self.request)
        if here["harness"] != self.identity["harness"]:
            raise RequestError(
                f"on worker {self.address}: freecell-harness {here['harness']}, but {self.identity['harness']} "
                "runs verify: install the same version on every worker"
            )
        for side in ("implementation", "against"):
            if here[side] != self.identity[side]:
                raise RequestError(
                    f"on worker {self.address}: {side} is another build than on the machine running verify "
                    f"({_shown(here[side])} there, {_shown(self.identity[side])} here)"
                )


def build_identity(request: Request) -> dict[str, object]:
    """What must be the same on every worker as where `verify` runs: the harness, and both dealers' builds."""
    return {
        "harness": harness_version(),
        "implementation": dealer_build(request.impl),
        "against": dealer_build(request.against),
    }


def _shown(build: object) -> str:
    return "nothing readable" if build is None else str(build)[:12]


def _compare_on_worker(plugin: str, block: Block) -> BlockResult:
    """The task of one block: compare it with the pair this worker keeps for the run."""
    from distributed import get_worker

    worker = get_worker()
    pairs = worker.plugins.get(plugin)
    if not isinstance(pairs, DealerPairs):
        raise RequestError(f"on worker {worker.address}: the run's plugin could not be set up there")
    return pairs.compare(block)


def _worker_harness() -> str:
    return harness_version()


class DaskRunner:
    """The engine's blocks as tasks of a Dask scheduler (`verify --cluster`)."""

    def __init__(self, address: str, request: Request) -> None:
        self.address = address
        self.request = request
        self.plugin = f"freecell-harness-{uuid.uuid4().hex}"
        self.client = _connect(address, request.startup_timeout)
        self.pending: dict[Any, Block] = {}  # Dask futures of the blocks in flight
        self.done: queue.Queue[Any] = queue.Queue()  # each future, once it has finished (or was cancelled)
        self.refused: tuple[int, str] | None = None
        try:
            self.workers = self._check_workers()
            self.client.register_plugin(DealerPairs(request, build_identity(request)), self.plugin)
        except BaseException:
            self.client.close(CLOSE_S)
            raise

    def _check_workers(self) -> int:
        timeout = max(MIN_CONNECT_S, self.request.startup_timeout)
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise RequestError(
                f"--cluster {self.address}: the scheduler has no worker (none joined in {timeout:g} s)"
            ) from None
        mine = harness_version()
        answers = self.client.run(_worker_harness, on_error="return")
        for worker, theirs in sorted(answers.items()):
            if isinstance(theirs, BaseException):
                raise RequestError(
                    f"--cluster {self.address}: worker {worker} cannot run the harness "
                    f"({type(theirs).__name__}: {theirs}); install freecell-harness on every worker: {EXTRA}"
                )
            if theirs != mine:
                raise RequestError(
                    f"--cluster {self.address}: worker {worker} has freecell-harness {theirs}, "
                    f"but {mine} runs verify: install the same version on every worker"
                )
        return len(answers)

    def _threads(self) -> int:
        threads: dict[str, int] = self.client.nthreads()
        return max(1, sum(threads.values()))

    def _wanted(self, outcome: Outcome, block: Block) -> bool:
        return outcome.wanted(block) and (self.refused is None or block.first < self.refused[0])

    def run(self, blocks: Iterator[Block], outcome: Outcome, record: Record, progress: Progress) -> None:
        outcome.notes.append(f"on the Dask cluster at {self.address} ({self.workers} workers at the start)")
        exhausted = False
        while True:
            window = AHEAD_PER_THREAD * self._threads()
            while not exhausted and len(self.pending) < window:
                block = next(blocks, None)
                if block is None:
                    exhausted = True
                    break
                if not self._wanted(outcome, block):
                    continue  # ranges need not come in deal order: a later block may lie before the failure
                future = self.client.submit(
                    _compare_on_worker, self.plugin, block, key=f"{self.plugin}-{block.key}", pure=False
                )
                self.pending[future] = block
                future.add_done_callback(self.done.put)
            if not self.pending:
                if self.refused is not None and outcome.verdict.can_change(self.refused[0]):
                    raise RequestError(self.refused[1])
                return
            for future in self._finished():
                block = self.pending.pop(future, None)
                if block is not None and not future.cancelled():
                    self._receive(future, block, outcome, record, progress)

    def _finished(self) -> list[Any]:
        """The tasks in flight that have finished, once one has; RequestError when the scheduler has had no
        worker for --startup-timeout (their blocks would wait for one for ever)."""
        alone_since: float | None = None
        while True:
            try:
                finished = [self.done.get(timeout=POLL_S)]
                while not self.done.empty():
                    finished.append(self.done.get())
                return finished
            except queue.Empty:
                if self.client.nthreads():
                    alone_since = None
                elif alone_since is None:
                    alone_since = time.monotonic()
                elif time.monotonic() - alone_since > max(MIN_CONNECT_S, self.request.startup_timeout):
                    raise RequestError(
                        f"--cluster {self.address}: no worker left (none for {self.request.startup_timeout:g} s); "
                        "start workers, then run the same command again (--resume keeps what was finished)"
                    ) from None

    def _receive(self, future: Any, block: Block, outcome: Outcome, record: Record, progress: Progress) -> None:
        distributed = _distributed()
        try:
            result: BlockResult = future.result()
        except RequestError as exc:
            if self.refused is None or block.first < self.refused[0]:
                self.refused = (block.first, str(exc))
            self._cancel_unwanted(outcome)
            return
        except distributed.KilledWorker as exc:
            raise RequestError(
                f"--cluster {self.address}: deals {block.key} ended every worker that ran them ({exc}): "
                "a dealer that ends the process it runs in cannot be judged"
            ) from None
        except (ImportError, AttributeError) as exc:
            raise RequestError(
                f"--cluster {self.address}: a worker cannot run the harness ({type(exc).__name__}: {exc}); "
                f"install the same freecell-harness on every worker: {EXTRA}"
            ) from None
        except Exception as exc:
            raise RuntimeError(f"on a cluster worker, deals {block.key}: {type(exc).__name__}: {exc}") from exc
        record(result)
        progress(result.checked)
        if result.failure is not None:
            self._cancel_unwanted(outcome)

    def _cancel_unwanted(self, outcome: Outcome) -> None:
        """Tasks of blocks after the known failure or refusal cannot change the verdict: cancel them."""
        unwanted = [f for f, b in self.pending.items() if not self._wanted(outcome, b)]
        for future in unwanted:
            del self.pending[future]
        if unwanted:
            self.client.cancel(unwanted)

    def partial(self, outcome: Outcome) -> Iterator[BlockResult]:
        return iter(())  # a task says nothing until its block is done

    def stop(self, *, at_once: bool) -> None:
        """Cancel what is left and close the run's dealers on every worker (the plugin's teardown)."""
        with contextlib.suppress(Exception):
            if self.pending:
                self.client.cancel(list(self.pending))
            self.pending.clear()
        with contextlib.suppress(Exception):
            self.client.unregister_worker_plugin(self.plugin)
        with contextlib.suppress(Exception):
            self.client.close(CLOSE_S)


def _connect(address: str, startup_timeout: float) -> Any:
    distributed = _distributed()
    timeout = max(MIN_CONNECT_S, startup_timeout)
    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # what matters is said in one line, here
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise RequestError(f"--cluster {address}: no Dask scheduler answered within {timeout:g} s ({exc})") from None
    return client


def cluster_runner(address: str) -> RunnerFactory:
    """The engine's runner for the Dask scheduler at `address` (`engine.run(…, runner=…)`)."""
    return lambda request: DaskRunner(address, request)


__all__ = ["DaskRunner", "DealerPairs", "cluster_runner"]
