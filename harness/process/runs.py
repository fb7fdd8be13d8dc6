"""Running a short-lived program to its end (`run`, or `start` and `Running.finish` with other work
between): its output, its exit status, or its timeout or output cap, after which it is killed with
every descendant; `sweep` kills, in one scan of /proc, what
many runs that ended by themselves left behind."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass

from harness.limits import NO_LIMITS, Limits
from harness.process.child import Child, spawn
from harness.process.trees import live_trees, reap

LIVENESS_S = 0.1  # while waiting for output, how often to look whether the process has ended
STDIN_POLL_S = 0.01  # while its stdin is unread, how often to look whether it has read it (started)


@dataclass(slots=True)
class Run:
    """What one short-lived process did."""

    child: Child
    stdout: bytes
    returncode: int | None  # None: killed by us (timeout or too much output)
    timed_out: bool = False
    overflowed: bool = False
    started: bool = False  # it read its input or wrote: a timeout before that was its start's


class Running:
    """A short-lived program started by `start`, not yet run to its end (`finish`)."""

    def __init__(
        self,
        argv: Sequence[str],
        stdin: bytes | None,
        timeout: float,
        max_output: int,
        limits: Limits,
        startup: float,
        after: Child | None = None,
    ) -> None:
        self.child = spawn(argv, limits=limits, stdin=stdin is not None, drain_stderr=False, after=after)
        self.timeout, self.max_output, self.limits, self.startup = timeout, max_output, limits, startup
        self.stdin_open = False
        if stdin is not None and len(stdin) <= select.PIPE_BUF:
            self.stdin_open = self.child.write(stdin)  # fits the pipe: watched until read, then closed
        elif stdin is not None:
            self.child.write_in_background(stdin, close=True)
        self.spawned = time.monotonic()

    def finish(self, *, sweep: bool = True) -> Run:
        """Run it to its end, or kill it (with every descendant) at the timeout or output cap."""
        self._started()
        child, timeout, stdin_open = self.child, self.timeout, self.stdin_open
        started_at: float | None = None
        out = bytearray()
        result = Run(child, b"", None)
        try:
            while True:
                now = time.monotonic()
                if stdin_open and child.unread_input() in (0, None):
                    child.close_stdin()
                    stdin_open = False
                    started_at = now if child.input_read and started_at is None else started_at
                deadline = None
                if timeout > 0:
                    deadline = started_at + timeout if started_at is not None else self.spawned + self.startup + timeout
                wait = None if deadline is None else deadline - now
                if wait is not None and wait <= 0:
                    result.timed_out = True
                    break
                poll = STDIN_POLL_S if stdin_open else LIVENESS_S
                chunk = child.read(poll if wait is None else min(wait, poll))
                if chunk is None:
                    if not child.alive():  # ended, while what it left behind keeps the pipe open
                        out.extend(child.read(0) or b"")
                        break
                    continue
                if not chunk:
                    break
                started_at = time.monotonic() if started_at is None else started_at
                out.extend(chunk)
                if len(out) > self.max_output:
                    result.overflowed = True
                    break
            result.started = started_at is not None
            if result.timed_out or result.overflowed:
                child.kill()
            else:
                result.returncode = child.wait(max(1.0, timeout))
                if result.returncode is None:
                    child.kill()
                    result.timed_out = True
                else:
                    child.finish(sweep=sweep)
        except BaseException:
            child.kill()
            raise
        result.stdout = bytes(out)
        return result

    def followed_by(self, argv: Sequence[str]) -> Running | None:
        """The next program (`argv`, no stdin, the same timeouts and limits), asked for now and started as soon
        as this one's tree is gone, without waiting for this process to hear of that end; None where the
        spawner is gone (start it afresh).  Where the spawner cannot hold it (no cgroup), it starts now."""
        try:
            return Running(argv, None, self.timeout, self.max_output, self.limits, self.startup, after=self.child)
        except OSError:
            return None

    def resumed(self) -> Running:
        """Itself, taken up by a later call than the one that started it: its time counts from now at the
        earliest, as the time between was the harness's (a process that has ended is read as it ended)."""
        if not self.child.pending:
            self.spawned = max(self.spawned, time.monotonic())
        return self

    def _started(self) -> None:
        """A process asked for after another: from its start, not from the asking, its time counts."""
        if self.child.pending:
            self.child.wait_started()
            self.spawned = time.monotonic()


def start(
    argv: Sequence[str], stdin: bytes | None, timeout: float, max_output: int, limits: Limits, *, startup: float = 0.0
) -> Running:
    """Start a program to be run to its end by `Running.finish` (see `run`): the caller may do other work
    while it runs, and must then finish it (or kill its `child`)."""
    return Running(argv, stdin, timeout, max_output, limits, startup)


def run(
    argv: Sequence[str],
    stdin: bytes | None,
    timeout: float,
    max_output: int,
    limits: Limits,
    *,
    startup: float = 0.0,
    sweep: bool = True,
) -> Run:
    """Run a program to its end, or kill it (with every descendant) at the timeout or output cap.

    Until it shows it has started (it reads its stdin, or writes), it may take `startup` seconds more
    than `timeout`; from then on `timeout` bounds it.  Its stdin is closed once it has read it all."""
    return Running(argv, stdin, timeout, max_output, limits, startup).finish(sweep=sweep)


def sweep(children: Sequence[Child]) -> None:
    """Kill whatever processes that ended by themselves (`finish(sweep=False)`) left outside their process
    groups: one scan of /proc for all of them (their sessions, groups and markers), instead of one each.
    A child whose tree had a cgroup needs none: `finish` killed every member of it, escaped or not."""
    children = [c for c in children if c.cgroup is None]
    if not children:
        return
    me = os.getpid()
    pids = {c.pid for c in children}
    markers = {c.marker for c in children}
    oldest = min(c.started for c in children)
    killed: set[int] = set()
    for _ in range(100):
        doomed = live_trees(me, pids, markers, oldest) - {me}
        for pid in doomed:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        killed |= doomed
        reap(killed)
        if not doomed:
            return


def run_quietly(argv: Sequence[str], timeout: float, *, max_output: int = 1 << 20) -> tuple[int | None, str]:
    """A helper program's exit status (None: timed out or too much output) and its stdout (ASCII)."""
    result = run(argv, None, timeout, max_output, NO_LIMITS)
    return result.returncode, result.stdout.decode("ascii", "replace")
