"""One supervised process tree (`Child`, started by `spawn`).

Every dealer process (a `cmd:` run, a `stream:` program, the Node driver, the `py:` runner) is
started by a spawner (`harness.process.spawner`: a small process that starts it with posix_spawn,
so that no start forks this large process) in a session of its own, under the resource limits
(`Limits`) the spawner set on itself and so passed on, in the spawner's cgroup where one can be made
(pids v1, else v2), which holds nothing else of the harness while this tree lives, and with a marker
in its environment that its descendants inherit.  `Child.kill` kills the whole tree: its process
group, every member of the cgroup but the spawner, and, without a cgroup, every process carrying its
marker that escaped into a session of its own (found in /proc wherever it was reparented).

It has no parent-death signal (a process started by posix_spawn cannot ask for one): what stands in
for it is that the spawner kills everything it started when the harness process's end of its socket
closes (even at SIGKILL), that the harness kills the tree itself when its spawner was killed from
outside, and the sentinel (`harness.process.sentinel`), which kills what the harness process leaves
when it ends in any way.
"""

from __future__ import annotations

import array
import collections
import contextlib
import fcntl
import os
import select
import signal
import termios
import threading
import time
from collections.abc import Callable, Sequence
from typing import BinaryIO

from harness.limits import NO_LIMITS, Limits
from harness.process import spawner, supervisor
from harness.process.environment import dealer_environment
from harness.process.exits import exit_text, limit_in_words
from harness.process.proc import proc_stat, reads_pipe, thread_states
from harness.process.trees import live_trees, reap

STDERR_QUOTED = 400  # characters of stderr quoted in a crash: its beginning and its end
STDERR_HEAD_BYTES = 4096  # the beginning of stderr, always kept (a panic's message comes before its backtrace)
_GAP = " … "
_READ = 1 << 20


# -- one child process ---------------------------------------------------------------------------


def _cpu_seconds(limits: Limits) -> int | None:
    return max(1, int(limits.cpu_s + 0.999)) if limits.cpu_s else None


class Child:
    """One supervised process tree: pipes to its stdin/stdout, a bounded tail of its stderr.

    Its stderr is drained by a thread of its own, or, with `drain_stderr=False` (a short-lived process,
    whose caller reads its stdout to the end), by `read` beside its stdout."""

    _spawner: spawner.Spawner

    def __init__(
        self,
        argv: Sequence[str],
        *,
        limits: Limits = NO_LIMITS,
        stdin: bool = True,
        env: dict[str, str] | None = None,
        drain_stderr: bool = True,
        after: Child | None = None,
    ) -> None:
        mine = supervisor.here()
        serial = next(mine.serial)
        cpu_s = _cpu_seconds(limits)
        self.limits = limits
        marker = mine.marker(serial)
        self.marker = f"{supervisor.MARKER_ENV}={marker}".encode()
        environment = _environment(env)
        theirs: list[int] = []  # the ends the process gets: closed here once it has them
        ours: list[int] = []
        try:
            if stdin:
                stdin_read, stdin_write = os.pipe()
                theirs.append(stdin_read)
                ours.append(stdin_write)
            for _ in ("stdout", "stderr"):
                read_end, write_end = os.pipe()
                ours.append(read_end)
                theirs.append(write_end)
            self._after: Child | None = None
            if after is not None and after._spawner.takes_next(limits, environment):
                after._spawner.users += 1
                self._spawner, self.pid, self._after = after._spawner, 0, after
                try:
                    self._spawner.ask(argv, marker, cpu_s, theirs)
                except spawner.SpawnerGone:
                    spawner.release(self._spawner)
                    raise OSError(f"the spawner ended before it started {argv[0]}") from None
                except OSError:  # not to be asked for (a NUL byte in argv)
                    spawner.release(self._spawner)
                    raise
            else:
                self._spawner, self.pid = spawner.start(
                    argv, theirs, limits=limits, env=environment, marker=marker, cpu_s=cpu_s
                )
        except BaseException:
            for fd in ours:
                os.close(fd)
            raise
        finally:
            for fd in theirs:
                os.close(fd)
        self.cgroup = self._spawner.cgroup  # the spawner's, which holds nothing else while this tree lives
        # The forks its cgroup refused before this tree began (counted by the spawner then, not here
        # later, when this tree may have run into the limit already): any more were this tree's.
        self._process_limit_hits = 0 if self._after is not None else self._spawner.refused_before
        self._memory_limit_kills = 0 if self._after is not None else self._spawner.oom_killed_before
        # Reentrant: a signal handler that kills every child (a worker's SIGTERM) may run in a thread
        # that was waiting for this one.
        self._status_lock = threading.RLock()
        # When it started, so that a reused pid is not taken for one of its tree (needed without a cgroup).
        self.started = 0 if self.cgroup is not None else (stat.started if (stat := proc_stat(self.pid)) else 0)
        self.stdin: BinaryIO | None = open(ours.pop(0), "wb") if stdin else None  # noqa: SIM115 (closed by close_pipes)
        self.stdout_fd, self._stderr_fd = ours
        self.returncode: int | None = None
        self.peak_rss_kb = 0
        self.written = 0  # bytes of stdin handed to the pipe so far
        self.input_read = False  # it has read some of its stdin: it has started
        self._done = False  # its tree is gone: its pid may belong to another process now
        self._stderr_head = bytearray()  # its first STDERR_HEAD_BYTES bytes
        self._stderr: collections.deque[bytes] = collections.deque(maxlen=64)  # the last chunks after them
        self._stderr_dropped = False  # chunks between the head and the last ones were let go
        self._stderr_open = True
        self._stderr_thread: threading.Thread | None = None
        if drain_stderr:
            self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
            self._stderr_thread.start()
        with mine.lock:
            mine.children.add(self)

    @property
    def pending(self) -> bool:
        """Asked for after `after` (spawn's argument), and not known to have started yet (`wait_started`)."""
        return self._after is not None

    def wait_started(self) -> None:
        """For a process asked for after another (`after`): wait for that one's end, then for this one's
        start; OSError if it could not be started (its pipes are then closed, and it is forgotten)."""
        after = self._after
        if after is None:
            return
        after.wait()
        try:
            self.pid = self._spawner.started()
        except (OSError, spawner.SpawnerGone) as exc:
            self._after = None
            self._done = True
            self.close_pipes()
            spawner.release(self._spawner)
            supervisor.forget(self)
            if isinstance(exc, OSError):
                raise
            raise OSError("the spawner ended before it started the program") from None
        self._after = None
        self._process_limit_hits = self._spawner.refused_before
        self._memory_limit_kills = self._spawner.oom_killed_before

    def _drain_stderr(self) -> None:
        while self._read_stderr():
            pass
        with contextlib.suppress(OSError):
            os.close(self._stderr_fd)  # here, at its end: closed while being read, its number could be reused

    def _read_stderr(self) -> bool:
        """Keep the next chunk of its stderr; False at its end."""
        try:
            chunk = os.read(self._stderr_fd, _READ)
        except (OSError, ValueError):
            chunk = b""
        if not chunk:
            self._stderr_open = False
            return False
        room = STDERR_HEAD_BYTES - len(self._stderr_head)
        self._stderr_head += chunk[: max(0, room)]
        rest = chunk[max(0, room) :]
        if rest:
            self._stderr_dropped |= len(self._stderr) == self._stderr.maxlen
            self._stderr.append(rest)
        return True

    # -- talking to it --

    def read(self, within: float | None) -> bytes | None:
        """The next chunk of stdout; b"" at its end; None if nothing came within `within` s."""
        deadline = None if within is None else time.monotonic() + max(0.0, within)
        while True:
            watched = [self.stdout_fd]
            if self._stderr_thread is None and self._stderr_open:
                watched.append(self._stderr_fd)
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select(watched, [], [], wait)
            if self.stdout_fd in ready:
                try:
                    return os.read(self.stdout_fd, _READ)
                except OSError:
                    return b""
            if not ready:
                return None
            self._read_stderr()

    def write(self, data: bytes, *, close: bool = False) -> bool:
        """Write to stdin; False if the process no longer reads it."""
        try:
            assert self.stdin is not None
            self.stdin.write(data)
            self.stdin.flush()
            self.written += len(data)
            if close:
                self.stdin.close()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def write_in_background(self, data: bytes | Callable[[], bytes], *, close: bool) -> threading.Thread:
        """Feed stdin from a thread, so that a big input cannot deadlock against the output; `data` may be
        what makes the bytes (made in that thread)."""

        def write() -> None:
            self.write(data() if callable(data) else data, close=close)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        return writer

    def close_stdin(self) -> None:
        if self.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                self.stdin.close()

    def unread_input(self) -> int | None:
        """Bytes written to its stdin that it has not read yet; None when that cannot be told (closed)."""
        try:
            assert self.stdin is not None
            count = array.array("i", [0])
            fcntl.ioctl(self.stdin.fileno(), termios.FIONREAD, count)
        except (AssertionError, OSError, ValueError):
            return None
        unread = count[0]
        if unread < self.written:
            self.input_read = True
        return unread

    def reading_input(self) -> bool:
        """Whether a thread of its tree is blocked reading its stdin (a state, like `waiting`)."""
        try:
            assert self.stdin is not None
            inode = os.fstat(self.stdin.fileno()).st_ino
        except (AssertionError, OSError, ValueError):
            return False
        return any(reads_pipe(pid, inode) for pid in self._tree(os.getpid()) | {self.pid})

    def waiting(self) -> int | None:
        """If every thread of its tree is blocked waiting for an event (such as more input) — none runs,
        waits for the disk, or sleeps for a set time — the CPU time its threads have had so far, in
        nanoseconds; else None.  A state, not a measure of time: a busy machine does not fake it, and
        two looks that find the same CPU time show that no thread ran in between (a thread caught
        between two bursts of work, waiting on a lock, has run by the next look)."""
        if not self.alive():
            return None
        ran = 0
        for pid in self._tree(os.getpid()) | {self.pid}:
            for thread in thread_states(pid):
                if thread.busy:
                    return None
                ran += thread.ran_ns
        return ran

    def _settle_stderr(self, settle: float) -> None:
        """Wait up to `settle` s for the end of its stderr (what it left behind may hold it open)."""
        if self._stderr_thread is not None:
            self._stderr_thread.join(timeout=settle)
            return
        deadline = time.monotonic() + settle
        while self._stderr_open:
            ready, _, _ = select.select([self._stderr_fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return
            self._read_stderr()

    def stderr_text(self, encoding: str = "utf-8", *, settle: float = 0.2) -> str:
        """Its stderr on one line: all of it, or its beginning and its end (STDERR_QUOTED characters in
        all), so that the first words (a panic's message) and the last (the error at the end) both show."""
        self._settle_stderr(settle)
        head, tail = bytes(self._stderr_head), b"".join(self._stderr)
        if self._stderr_dropped:  # its middle is gone: the beginning from the head, the end from the tail
            begin, end = (" ".join(_decoded(part, encoding).split()) for part in (head, tail))
        else:
            begin = end = " ".join(_decoded(head + tail, encoding).split())
            if len(begin) <= STDERR_QUOTED:
                return begin
        begin = begin[: STDERR_QUOTED * 3 // 5]  # more of the beginning: where a message says what went wrong
        return begin + _GAP + end[len(end) - (STDERR_QUOTED - len(begin) - len(_GAP)) :]

    def stderr_lines(self, *, settle: float = 0.2) -> list[str]:
        """What is kept of its stderr (its beginning and its last chunks), as lines."""
        self._settle_stderr(settle)
        return (bytes(self._stderr_head) + b"".join(self._stderr)).decode("utf-8", "replace").splitlines()

    # -- its end --

    def alive(self) -> bool:
        return self.wait(0) is None

    def wait(self, within: float | None = None) -> int | None:
        """Its exit status once it ends (negative: the signal); None if still running after `within` s."""
        with self._status_lock:
            if self._after is not None:
                self.wait_started()
            if self.returncode is None:
                ended = self._spawner.read_exit(self.pid, within)
                if ended is None:
                    return None
                self.returncode = os.waitstatus_to_exitcode(ended[0])
                self.peak_rss_kb = ended[1]
            return self.returncode

    def kill(self) -> None:
        """Kill it and every descendant (group, cgroup, escapers carrying its marker); reap them."""
        if self._after is not None:
            self._after.kill()  # it starts once that one has ended
            with contextlib.suppress(OSError):
                self.wait_started()
        if self._done:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)  # in case it left its own process group
            self.wait()
        self._kill_rest()

    def finish(self, *, sweep: bool = True) -> int:
        """After it ended by itself: kill what it left behind; its exit status.  `sweep=False` kills its
        process group (and cgroup) only: the caller then sweeps /proc for escapers with `sweep`, once
        for many children."""
        code = self.wait()
        assert code is not None
        if not self._done:
            if self.cgroup is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.pid, signal.SIGKILL)
                if not sweep:
                    self._release()
                    return code
            self._kill_rest()  # a cgroup holds every process it left, in its group or not
        return code

    def _kill_rest(self) -> None:
        if self.cgroup is not None and not self._spawner.gone:
            self._release()  # the spawner killed every other member of the cgroup before it said it ended
            return
        me = os.getpid()
        killed: set[int] = set()
        for _ in range(1000):
            doomed = self._tree(me) - {me}
            for pid in doomed:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            if not doomed:
                break
            if self.cgroup is None:
                killed |= doomed
                killed.discard(self.pid)
                reap(killed)
        self._release()

    def _release(self) -> None:
        """Its tree is gone (or left to a sweep): release its pipes and its spawner, forget it."""
        self._done = True
        self.close_pipes()
        spawner.release(self._spawner)
        supervisor.forget(self)

    def _tree(self, me: int) -> set[int]:
        """Every live process of its tree but itself: its cgroup's members, else a scan of /proc."""
        if self.cgroup is not None:
            return self._spawner.members()
        return live_trees(me, {self.pid}, {self.marker}, self.started)

    def close_pipes(self) -> None:
        if self.stdin is not None:
            with contextlib.suppress(OSError):
                self.stdin.close()
        self._settle_stderr(1.0)
        fds, self.stdout_fd = [self.stdout_fd], -1
        if self._stderr_thread is None:
            fds, self._stderr_fd, self._stderr_open = [*fds, self._stderr_fd], -1, False
        for fd in fds:
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def describe_exit(self, encoding: str = "utf-8", stdout: str = "") -> str:
        """How it ended, with the limit it ran into and its last words, for a `crash` message; `stdout`: what
        it printed that is no board (a JVM says there that it could not reserve its memory), read for a
        limit too, and quoted when it said nothing on stderr."""
        code = self.returncode
        assert code is not None
        stderr = self.stderr_text(encoding)
        printed = " ".join(stdout.split())[-STDERR_QUOTED:]
        limit = self.limit_hit(f"{stderr} {printed}")
        said = f"; stderr: {stderr}" if stderr else (f"; no stderr; stdout: {printed}" if printed else "; no stderr")
        return exit_text(code) + (f"; {limit}" if limit else "") + said

    def limit_hit(self, stderr: str) -> str | None:
        """Which of its limits it ran into, if its end shows one."""
        code, limits = self.returncode, self.limits
        if limits.cpu_s and code == -signal.SIGXCPU:
            return f"over the CPU-time limit (--cpu-limit {limits.cpu_s:g} s)"
        memory_cgroup = self._spawner.memory_cgroup
        memory = bool(limits.memory_mb) and (
            self.peak_rss_kb >= (limits.memory_mb or 0) * 1024 * 0.9
            or bool(memory_cgroup and memory_cgroup.oom_kills() > self._memory_limit_kills)
        )
        processes = bool(self.cgroup and self.cgroup.limit_hits() > self._process_limit_hits)
        return limit_in_words(limits, stderr, memory_seen=memory, processes_seen=processes)


def _decoded(raw: bytes, encoding: str) -> str:
    try:
        return raw.decode(encoding, "replace")
    except UnicodeError:  # stderr need not be in stdout's encoding (utf-16 wants its BOM)
        return raw.decode("utf-8", "replace")


def _environment(env: dict[str, str] | None) -> dict[str, str]:
    """A dealer's environment (`dealer_environment`) but for a marker of ours: the harness may run as a
    dealer, and its dealers carry their own."""
    environment = dealer_environment(env)
    if supervisor.MARKER_ENV in environment:
        environment = {k: v for k, v in environment.items() if k != supervisor.MARKER_ENV}
    return environment


def start_spawner(limits: Limits = NO_LIMITS, env: dict[str, str] | None = None) -> None:
    """Start, and keep idle, the spawner the next process of these limits and environment will be started
    by, so that its start (a Python's) overlaps other work; OSError if it cannot be started."""
    spawner.release(spawner.acquire(limits, _environment(env)))


def spawn(
    argv: Sequence[str],
    *,
    limits: Limits = NO_LIMITS,
    stdin: bool = True,
    env: dict[str, str] | None = None,
    drain_stderr: bool = True,
    after: Child | None = None,
) -> Child:
    """Start `argv` supervised; OSError if it cannot be started.

    With `after` (a process of the same limits and environment, which has ended or is about to), it is
    asked for at once and started as soon as `after` has ended and its tree is gone, where that one's
    spawner can (it has a cgroup): it is then `pending` until `wait_started`; else it is started now."""
    return Child(argv, limits=limits, stdin=stdin, env=env, drain_stderr=drain_stderr, after=after)
