"""The one module that starts subprocesses, and sees that nothing they start outlives them.

Every dealer process (a `cmd:` run, a `stream:` program, the Node driver, the `py:` runner) is
started by `spawn` in a session of its own, under resource limits (`Limits`, set with setrlimit
in the child), in a cgroup of its own where one can be made (pids v1, else v2), with a marker in
its environment that its descendants inherit.  `Child.kill` kills the whole tree: its process
group, every member of its cgroup, and every process carrying its marker that escaped into a
session of its own (found in /proc wherever it was reparented).  A sentinel process per harness
process watches a pipe: when the harness process ends in any way (even SIGKILL), it kills
whatever still carries the harness's marker.  The sentinel is detached (a double fork), so that
no sweep of this process's descendants kills it before it has done its work.  This process is
never made a subreaper: a library user's process would inherit every orphan below it, and never
reap them.  `kill_all` kills every live tree at once (for Ctrl-C and SIGTERM).

`pin_failure` is the one policy for pinning a crash or hang of a long-lived process to its deal.
"""

from __future__ import annotations

import array
import atexit
import collections
import contextlib
import ctypes
import ctypes.util
import fcntl
import functools
import itertools
import os
import re
import resource
import select
import signal
import subprocess
import sys
import termios
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from harness.failures import Failure
from harness.limits import NO_LIMITS, Limits
from harness.proc import proc_stat as _proc
from harness.proc import process_table as _process_table
from harness.proc import tree_of as _descendants

MARKER_ENV = "FREECELL_HARNESS_DEALER"  # "<harness token>:<child serial>", inherited by descendants
STDERR_TAIL = 400  # characters of stderr quoted in a crash
LIVENESS_S = 0.1  # while waiting for output, how often to look whether the process has ended
STDIN_POLL_S = 0.01  # while its stdin is unread, how often to look whether it has read it (started)
PIN_WINDOW = 256  # deals re-dealt one at a time, from a fresh start, to pin a failure
_READ = 1 << 20
_PR_SET_PDEATHSIG = 1
_CGROUP_PIDS = Path("/sys/fs/cgroup/pids")  # the pids hierarchy of cgroup v1 (hybrid systems)

MemoryRule = Literal["address-space", "data"]


# -- Linux supervisor mechanisms -----------------------------------------------------------------


@functools.cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")  # runs a helper program once: cached
    return ctypes.CDLL(name, use_errno=True) if name else None


def _prctl(option: int, value: int) -> bool:
    libc = _libc()
    return libc is not None and int(libc.prctl(option, value, 0, 0, 0)) == 0


def die_with_parent(sig: int = signal.SIGKILL, parent: int | None = None) -> bool:
    """Ask the kernel to send `sig` to this process when the thread that started it ends.

    The kernel sends it only for a death after the asking: with `parent` (its pid, taken before the
    fork), a parent already gone gets this process `sig` now.
    """
    asked = _prctl(_PR_SET_PDEATHSIG, sig)
    if parent is not None and os.getppid() != parent:
        os.kill(os.getpid(), sig)
    return asked


def _environ_has_any(pid: int, entries: set[bytes]) -> bool:
    try:
        data = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return False
    return not entries.isdisjoint(data.split(b"\0"))


def _live_trees(me: int, leaders: set[int], markers: set[bytes], oldest: int) -> set[int]:
    """Every live process led by one of `leaders` (its group or session) or carrying one of `markers`
    (started no earlier than `oldest`, so that a reused pid is not taken), with its descendants; never `me`
    as a root."""
    table = _process_table()
    roots = {
        pid
        for pid, proc in table.items()
        if not proc.zombie
        and pid != me
        and (proc.pgid in leaders or proc.sid in leaders or (proc.started >= oldest and _environ_has_any(pid, markers)))
    }
    return {pid for pid in _descendants(table, roots) if not table[pid].zombie}


@functools.cache
def _own_cgroup2() -> Path | None:
    """This process's own cgroup v2, if the harness may make cgroups under it and move processes there."""
    try:
        own = next(line[3:] for line in Path("/proc/self/cgroup").read_text().splitlines() if line.startswith("0::"))
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except (OSError, StopIteration):
        return None
    for line in mounts:
        fields = line.split()
        if "-" in fields[:-1] and fields[fields.index("-") + 1] == "cgroup2" and fields[3] == "/":
            path = Path(fields[4]) / own.strip().lstrip("/")
            if os.access(path, os.W_OK) and os.access(path / "cgroup.procs", os.W_OK):
                return path
    return None


def _cgroup_roots() -> list[Path]:
    """Where a dealer's cgroup may be made, best first: the pids cgroup v1 bounds its processes;
    a cgroup v2 under our own lists them (and bounds them only where `pids` is delegated to it)."""
    roots = [_CGROUP_PIDS] if os.access(_CGROUP_PIDS, os.W_OK) else []
    own = _own_cgroup2()
    return roots + ([own] if own is not None else [])


_UNJOINABLE: set[Path] = set()  # roots whose cgroups a child was once made but could not join (a container's)


class _Cgroup:
    """A cgroup for one child: lists every process of its tree, escaped or not; may bound their number."""

    def __init__(self, path: Path, limit: int | None) -> None:
        self.path = path
        path.mkdir()
        self.bounds_processes = False
        try:
            if not (path / "cgroup.procs").exists():
                raise NotADirectoryError(f"{path} is not a cgroup")
            if limit and (path / "pids.max").exists():
                (path / "pids.max").write_text(f"{limit}\n")
                self.bounds_processes = True
        except OSError:
            path.rmdir()
            raise

    @classmethod
    def make(cls, name: str, limit: int | None) -> _Cgroup | None:
        for root in _cgroup_roots():
            if root in _UNJOINABLE:
                continue
            try:
                return cls(root / name, limit)
            except OSError:
                continue
        return None

    def kill(self) -> None:
        """Kill every member at once, where the kernel offers it (cgroup v2's cgroup.kill)."""
        if (self.path / "cgroup.kill").exists():
            with contextlib.suppress(OSError):
                (self.path / "cgroup.kill").write_text("1\n")

    def holds(self, pid: int) -> bool:
        """Whether `pid` (running, or ended and not yet reaped) joined it."""
        try:
            lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
        except OSError:
            return False
        return any(line.endswith(f"/{self.path.name}") for line in lines)

    def members(self) -> set[int]:
        try:
            return {int(p) for p in (self.path / "cgroup.procs").read_text().split()}
        except (OSError, ValueError):
            return set()

    def hit_limit(self) -> bool:
        try:
            return any(
                line.split()[0] == "max" and int(line.split()[1]) > 0
                for line in (self.path / "pids.events").read_text().splitlines()
            )
        except (OSError, ValueError, IndexError):
            return False

    def remove(self) -> None:
        for _ in range(100):
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.01)  # the last members are still being torn down by the kernel


# A sentinel outlives the harness process that started it only to kill what that process left.
_SENTINEL = """
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
if os.fork():
    os._exit(0)
entry, roots, prefix = sys.argv[1].encode(), sys.argv[2].split(os.pathsep), sys.argv[3]
sys.stdin.buffer.read()
def cgroups():
    found = []
    for root in roots:
        try:
            found += [os.path.join(root, n) for n in os.listdir(root) if n.startswith(prefix)]
        except OSError:
            pass
    return found
for _ in range(200):
    found = False
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                env = f.read().split(b"\\0")
        except OSError:
            continue
        if any(e.startswith(entry) for e in env):
            found = True
            try:
                os.kill(int(name), signal.SIGKILL)
            except OSError:
                pass
    for group in cgroups():
        try:
            members = open(group + "/cgroup.procs").read().split()
        except OSError:
            members = []
        for pid in members:
            found = True
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
    if not found:
        break
    time.sleep(0.02)
for group in cgroups():
    for _ in range(50):
        try:
            os.rmdir(group)
            break
        except FileNotFoundError:
            break
        except OSError:
            time.sleep(0.02)
"""


class _Supervisor:
    """This process's supervision state: its token, live children, sentinel.  Rebuilt after fork."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.token = f"{self.pid}-{time.time_ns()}"
        self.serial = itertools.count(1)
        self.children: weakref.WeakSet[Child] = weakref.WeakSet()
        self.lock = threading.Lock()
        self.sentinel_pipe: int | None = None
        self._start_sentinel()

    def _start_sentinel(self) -> None:
        read_end, write_end = os.pipe()
        try:
            launcher = subprocess.Popen(
                [
                    sys.executable,
                    "-I",
                    "-S",
                    "-c",
                    _SENTINEL,
                    f"{MARKER_ENV}={self.token}:",
                    os.pathsep.join(map(str, _cgroup_roots())),
                    self.cgroup_name(0)[:-1],
                ],
                stdin=read_end,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                env={},
            )
        except OSError:
            os.close(write_end)
            return
        finally:
            os.close(read_end)
        launcher.wait()  # the sentinel itself is its child, adopted by init (or the nearest subreaper)
        os.set_inheritable(write_end, False)
        self.sentinel_pipe = write_end  # closed by the kernel when this process ends, however

    def cgroup_name(self, serial: int) -> str:
        return f"freecell-harness-{self.token}-{serial}"


_supervisor: _Supervisor | None = None
_supervisor_lock = threading.Lock()


def _forget_parent_supervisor() -> None:
    """In a forked child: the parent's sentinel must see its end when the parent ends, not ours."""
    global _supervisor, _supervisor_lock
    _supervisor_lock = threading.Lock()  # another thread may have held it at the fork
    supervisor = _supervisor
    if supervisor is not None and supervisor.pid != os.getpid():
        if supervisor.sentinel_pipe is not None:
            with contextlib.suppress(OSError):
                os.close(supervisor.sentinel_pipe)
        _supervisor = None


os.register_at_fork(after_in_child=_forget_parent_supervisor)


def _here() -> _Supervisor:
    global _supervisor
    with _supervisor_lock:
        if _supervisor is None or _supervisor.pid != os.getpid():
            _supervisor = _Supervisor()
            atexit.register(kill_all)
            with contextlib.suppress(Exception):
                import multiprocessing.util

                # Pool workers leave through os._exit, which skips atexit: finalizers still run.
                multiprocessing.util.Finalize(None, kill_all, exitpriority=100)
        return _supervisor


def kill_all() -> None:
    """Kill every live process tree this process started (Ctrl-C, SIGTERM, exit)."""
    supervisor = _supervisor
    if supervisor is None or supervisor.pid != os.getpid():
        return
    for child in list(supervisor.children):
        child.kill()


# -- one child process ---------------------------------------------------------------------------


def _limit_setter(limits: Limits, memory: MemoryRule, cgroup: _Cgroup | None, pdeathsig: bool) -> Callable[[], None]:
    """What the child runs between fork and exec (only async-signal-safe-ish calls)."""
    rules: list[tuple[int, int]] = []
    if limits.memory_mb:
        kind = resource.RLIMIT_AS if memory == "address-space" else resource.RLIMIT_DATA
        rules.append((kind, limits.memory_mb << 20))
    if limits.open_files:
        rules.append((resource.RLIMIT_NOFILE, limits.open_files))
    # RLIMIT_NPROC counts every process of the user: allow this many beyond the ones now running.
    nproc = (resource.RLIMIT_NPROC, limits.processes + len(os.listdir("/proc"))) if limits.processes else None
    if nproc and not (cgroup and cgroup.bounds_processes):
        rules.append(nproc)
        nproc = None
    procs_file = str(cgroup.path / "cgroup.procs") if cgroup else None
    libc = _libc() if pdeathsig else None
    cpu = limits.cpu_s

    def in_child() -> None:
        try:
            if procs_file:
                fd = os.open(procs_file, os.O_WRONLY)
                os.write(fd, str(os.getpid()).encode())
                os.close(fd)
        except OSError:  # the kernel refused: the parent sees it is not a member, and scans /proc
            if nproc:
                rules.append(nproc)
        for kind, value in rules:
            _soft, hard = resource.getrlimit(kind)
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(kind, (value, value))
        if cpu:
            seconds = max(1, int(cpu + 0.999))
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
        if libc is not None:
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)

    return in_child


class Child:
    """One supervised process tree: pipes to its stdin/stdout, a bounded tail of its stderr."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        limits: Limits = NO_LIMITS,
        memory: MemoryRule = "address-space",
        stdin: bool = True,
        env: dict[str, str] | None = None,
    ) -> None:
        supervisor = _here()
        serial = next(supervisor.serial)
        self.limits = limits
        self.marker = f"{MARKER_ENV}={supervisor.token}:{serial}".encode()
        self.cgroup = _Cgroup.make(supervisor.cgroup_name(serial), limits.processes)
        environment = dict(os.environ if env is None else env)
        environment[MARKER_ENV] = f"{supervisor.token}:{serial}"
        on_main_thread = threading.current_thread() is threading.main_thread()
        try:
            self.proc = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                env=environment,
                # A thread's end would fire PR_SET_PDEATHSIG: only the main thread's children get it.
                preexec_fn=_limit_setter(limits, memory, self.cgroup, on_main_thread),
            )
        except BaseException:
            if self.cgroup:
                self.cgroup.remove()
            raise
        self.pid = self.proc.pid
        self.started = proc.started if (proc := _proc(self.pid)) is not None else 0
        if self.cgroup is not None and not self.cgroup.holds(self.pid):
            _UNJOINABLE.add(self.cgroup.path.parent)  # each join costs the kernel a migration: not tried again
            self.cgroup.remove()  # it could not join: its tree is found in /proc instead
            self.cgroup = None
        self.stdin: BinaryIO | None = self.proc.stdin  # type: ignore[assignment]
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self.stdout_fd = self.proc.stdout.fileno()
        self.returncode: int | None = None
        self.peak_rss_kb = 0
        self.written = 0  # bytes of stdin handed to the pipe so far
        self.input_read = False  # it has read some of its stdin: it has started
        self._done = False  # its tree is gone: its pid may belong to another process now
        self._stderr: collections.deque[bytes] = collections.deque(maxlen=64)
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()
        with supervisor.lock:
            supervisor.children.add(self)

    def _drain_stderr(self) -> None:
        pipe = self.proc.stderr
        assert pipe is not None
        with contextlib.suppress(OSError, ValueError):
            while chunk := pipe.read1(_READ):  # type: ignore[attr-defined]
                self._stderr.append(chunk)

    # -- talking to it --

    def read(self, within: float | None) -> bytes | None:
        """The next chunk of stdout; b"" at its end; None if nothing came within `within` s."""
        ready, _, _ = select.select([self.stdout_fd], [], [], None if within is None else max(0.0, within))
        if not ready:
            return None
        try:
            return os.read(self.stdout_fd, _READ)
        except OSError:
            return b""

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

    def write_in_background(self, data: bytes, *, close: bool) -> threading.Thread:
        """Feed stdin from a thread, so that a big input cannot deadlock against the output."""
        writer = threading.Thread(target=self.write, args=(data,), kwargs={"close": close}, daemon=True)
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
            try:
                tasks = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for task in tasks:
                try:
                    stat = Path(f"/proc/{pid}/task/{task}/stat").read_bytes()
                    wchan = Path(f"/proc/{pid}/task/{task}/wchan").read_bytes()
                    schedstat = Path(f"/proc/{pid}/task/{task}/schedstat").read_bytes()
                except OSError:
                    continue
                if stat[stat.rfind(b")") + 2 :][:1] in (b"R", b"D") or b"nanosleep" in wchan:
                    return None
                ran += int(schedstat.split()[0])
        return ran

    def stderr_text(self, encoding: str = "utf-8", *, settle: float = 0.2) -> str:
        """The last STDERR_TAIL characters of its stderr, on one line."""
        self._stderr_thread.join(timeout=settle)
        raw = b"".join(self._stderr)
        try:
            text = raw.decode(encoding, "replace")
        except UnicodeError:  # stderr need not be in stdout's encoding (utf-16 wants its BOM)
            text = raw.decode("utf-8", "replace")
        return " ".join(text.split())[-STDERR_TAIL:]

    def stderr_lines(self, *, settle: float = 0.2) -> list[str]:
        """What is kept of its stderr (the last chunks), as lines."""
        self._stderr_thread.join(timeout=settle)
        return b"".join(self._stderr).decode("utf-8", "replace").splitlines()

    # -- its end --

    def alive(self) -> bool:
        return self.wait(0) is None

    def wait(self, within: float | None = None) -> int | None:
        """Its exit status once it ends (negative: the signal); None if still running after `within` s."""
        if self.returncode is not None:
            return self.returncode
        deadline = None if within is None else time.monotonic() + within
        while True:
            try:
                pid, status, usage = os.wait4(self.pid, os.WNOHANG if deadline is not None else 0)
            except ChildProcessError:
                self.returncode = self.proc.wait()
                return self.returncode
            if pid:
                self.returncode = self.proc.returncode = os.waitstatus_to_exitcode(status)
                self.peak_rss_kb = usage.ru_maxrss
                return self.returncode
            if deadline is not None and time.monotonic() >= deadline:
                return None
            time.sleep(0.005)

    def kill(self) -> None:
        """Kill it and every descendant (group, cgroup, escapers carrying its marker); reap them."""
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
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
            if sweep or self.cgroup is not None:
                self._kill_rest()
            else:
                self._release()
        return code

    def _kill_rest(self) -> None:
        me = os.getpid()
        if self.cgroup is not None:
            self.cgroup.kill()
        killed: set[int] = set()
        for _ in range(1000):
            doomed = self._tree(me) - {me}
            for pid in doomed:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            killed |= doomed
            killed.discard(self.pid)
            _reap(killed)
            if not doomed:
                break
        self._release()

    def _release(self) -> None:
        """Its tree is gone (or left to a sweep): release its pipes and cgroup, forget it."""
        self._done = True
        self.close_pipes()
        if self.cgroup:
            self.cgroup.remove()
        supervisor = _supervisor
        if supervisor is not None and supervisor.pid == os.getpid():
            with supervisor.lock:
                supervisor.children.discard(self)

    def _tree(self, me: int) -> set[int]:
        """Every live process of its tree but itself: its cgroup's members, else a scan of /proc."""
        if self.cgroup is not None:
            return self.cgroup.members()
        return _live_trees(me, {self.pid}, {self.marker}, self.started)

    def close_pipes(self) -> None:
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        self._stderr_thread.join(timeout=1)
        if self.proc.stderr is not None:
            with contextlib.suppress(OSError):
                self.proc.stderr.close()

    def describe_exit(self, encoding: str = "utf-8") -> str:
        """How it ended, with the limit it ran into and its last words, for a `crash` message."""
        code = self.returncode
        assert code is not None
        stderr = self.stderr_text(encoding)
        limit = self.limit_hit(stderr)
        return exit_text(code) + (f"; {limit}" if limit else "") + (f"; stderr: {stderr}" if stderr else "; no stderr")

    def limit_hit(self, stderr: str) -> str | None:
        """Which of its limits it ran into, if its end shows one."""
        code, limits = self.returncode, self.limits
        if limits.cpu_s and code == -signal.SIGXCPU:
            return f"over the CPU-time limit (--cpu-limit {limits.cpu_s:g} s)"
        memory = bool(limits.memory_mb) and self.peak_rss_kb >= (limits.memory_mb or 0) * 1024 * 0.9
        processes = bool(self.cgroup and self.cgroup.hit_limit())
        return limit_in_words(limits, stderr, memory_seen=memory, processes_seen=processes)


def limit_in_words(limits: Limits, text: str, *, memory_seen: bool = False, processes_seen: bool = False) -> str | None:
    """The limit a dealer ran into, as its error text shows (a MemoryError, EMFILE, EAGAIN from fork) or as
    the supervisor saw (its peak memory, its cgroup's process limit)."""
    if limits.memory_mb and (memory_seen or _MEMORY_WORDS.search(text)):
        return f"over the memory limit (--memory-limit {limits.memory_mb} MB)"
    if limits.open_files and _FILES_WORDS.search(text):
        return f"over the open-files limit (--max-open-files {limits.open_files})"
    if limits.processes and (processes_seen or _FORK_WORDS.search(text)):
        return f"over the process limit (--max-processes {limits.processes})"
    return None


_MEMORY_WORDS = re.compile(
    r"MemoryError|bad_alloc|out of memory|Cannot allocate memory|allocation failed|ENOMEM|heap limit"
    r"|Invalid typed array length|Array buffer allocation",
    re.I,
)
_FILES_WORDS = re.compile(r"Too many open files|EMFILE")
_FORK_WORDS = re.compile(r"fork|Resource temporarily unavailable|EAGAIN", re.I)


def _reap(pids: set[int]) -> None:
    """Wait for those of killed `pids` that are our children; reaping one may make its orphans ours."""
    progress = True
    while pids and progress:
        progress = False
        for pid in list(pids):
            for _ in range(200):
                try:
                    if os.waitpid(pid, os.WNOHANG)[0]:
                        pids.discard(pid)
                        progress = True
                        break
                except ChildProcessError:
                    break
                time.sleep(0.001)


def memory_words(text: str) -> bool:
    """Whether an error message says memory ran out (e.g. an allocation refused under the limit)."""
    return _MEMORY_WORDS.search(text) is not None


def exit_text(returncode: int | None) -> str:
    """How a process ended, in a few words: `killed by SIGKILL`, `exited with status 3`."""
    if returncode is None:
        return "still running"
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exited with status {returncode}"


def spawn(
    argv: Sequence[str],
    *,
    limits: Limits = NO_LIMITS,
    memory: MemoryRule = "address-space",
    stdin: bool = True,
    env: dict[str, str] | None = None,
) -> Child:
    """Start `argv` supervised; OSError if it cannot be started."""
    return Child(argv, limits=limits, memory=memory, stdin=stdin, env=env)


# -- one run to its end --------------------------------------------------------------------------


@dataclass(slots=True)
class Run:
    """What one short-lived process did."""

    child: Child
    stdout: bytes
    returncode: int | None  # None: killed by us (timeout or too much output)
    timed_out: bool = False
    overflowed: bool = False
    started: bool = False  # it read its input or wrote: a timeout before that was its start's


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
    child = spawn(argv, limits=limits, stdin=stdin is not None)
    stdin_open = False
    if stdin is not None and len(stdin) <= select.PIPE_BUF:
        stdin_open = child.write(stdin)  # fits the pipe: watched until read, then closed
    elif stdin is not None:
        child.write_in_background(stdin, close=True)
    spawned = time.monotonic()
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
                deadline = started_at + timeout if started_at is not None else spawned + startup + timeout
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
            if len(out) > max_output:
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


def sweep(children: Sequence[Child]) -> None:
    """Kill whatever processes that ended by themselves (`finish(sweep=False)`) left outside their process
    groups: one scan of /proc for all of them (their sessions, groups and markers), instead of one each."""
    if not children:
        return
    me = os.getpid()
    pids = {c.pid for c in children}
    markers = {c.marker for c in children}
    oldest = min(c.started for c in children)
    killed: set[int] = set()
    for _ in range(100):
        doomed = _live_trees(me, pids, markers, oldest) - {me}
        for pid in doomed:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        killed |= doomed
        _reap(killed)
        if not doomed:
            return


def run_quietly(argv: Sequence[str], timeout: float, *, max_output: int = 1 << 20) -> tuple[int | None, str]:
    """A helper program's exit status (None: timed out or too much output) and its stdout (ASCII)."""
    result = run(argv, None, timeout, max_output, NO_LIMITS)
    return result.returncode, result.stdout.decode("ascii", "replace")


# -- the one policy for pinning a failure to its deal ---------------------------------------------


def pin_failure(
    todo: Sequence[int],
    failure: Failure,
    alone: Callable[[int], Failure | bytes],
    again: Callable[[Sequence[int]], list[Failure | bytes]] | None = None,
) -> list[Failure | bytes]:
    """A long-lived process failed (`failure`) before answering `todo[0]`: the answers from
    `todo[0]` up to and including the failure, pinned to its deal.

    `alone(n)` deals `n` alone from a fresh start.  `again(todo)`, for a process that can be
    made to answer one deal at a time, deals what the failed process had dealt again from a fresh
    start, then `todo` one at a time, and returns the answers up to and including the first
    failure (none if it failed earlier): the failure is then at the very deal it happened in.
    That deal is dealt alone too, and if it answers, the failure came from what the dealer kept
    of the deals before it, and says so.  A failure `again` does not reproduce stays at `todo[0]`.

    Without `again`, buffered output lost in a crash could shift the blame, so the unanswered
    deals are re-dealt one at a time, each from a fresh start, until one fails: the answers up to
    and including that failure.  If every one answers alone, the process failed from what the
    deals did together: the failure stays at `todo[0]`, saying so.
    """
    if again is not None:
        answers = again(todo)
        failed = answers[-1] if answers else None
        if not isinstance(failed, Failure):
            note = " (dealt again the same way from a fresh start, it did not fail: not reproducible)"
            return [Failure(todo[0], failure.kind, failure.message + note)]
        by_itself = alone(failed.deal)
        if isinstance(by_itself, Failure):
            return [*answers[:-1], by_itself]
        note = f" (alone, deal {failed.deal} answers: the dealer keeps state from deal to deal)"
        return [*answers[:-1], Failure(failed.deal, failed.kind, failed.message + note)]
    answers = []
    for number in todo[:PIN_WINDOW]:
        answer = alone(number)
        answers.append(answer)
        if isinstance(answer, Failure):
            return answers
    if failure.kind == "timeout":  # a slow moment is not state: say only what was seen
        note = " (dealt again alone, each from a fresh process, every deal answered: the timeout did not recur)"
    else:
        note = " (and alone every deal answered: the dealer keeps state from deal to deal)"
    return [Failure(todo[0], failure.kind, failure.message + note)]
