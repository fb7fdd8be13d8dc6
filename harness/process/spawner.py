"""The harness's side of the spawners (`spawner_main`): `start` asks one for a process.

A spawner applies what a dealer inherits (resource limits, environment, cgroups) to itself, once, and
starts each process with `posix_spawn`; so there is one spawner per distinct (limits, environment),
and, since its cgroup is how a tree's members are found, one per live process: a spawner starts a
process only when the last one it started has been released (its tree is gone).
The spawner's cgroup then holds the spawner, that one process and everything it started, escaped or
not.  Spawners are made on first use, kept while idle (up to IDLE_KEPT), and made again after a fork
(a forked process must not share its parent's) or when one was killed from outside.  The spawner run
is `_spawner` (spawner.c) where it was built at install, else `spawner_main.py`, the same program in
Python; FREECELL_HARNESS_SPAWNER=python runs the latter anyway.
"""

from __future__ import annotations

import contextlib
import os
import resource
import select
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

from harness.limits import Limits
from harness.process import supervisor
from harness.process.cgroups import UNJOINABLE, Cgroup
from harness.process.compiled import compiled_spawner

_MAIN = Path(__file__).with_name("spawner_main.py")
IDLE_KEPT = 4  # idle spawners kept for later requests; the oldest beyond this are ended


class SpawnerGone(Exception):
    """The spawner ended (killed from outside) before it answered."""


def _fields(*items: str | int | None) -> bytes:
    """A message to the spawner (the protocol of `spawner_main`): each item ended by a NUL byte, a string
    as its bytes, a number in decimal, None empty.  OSError where a string holds a NUL byte."""
    fields = [os.fsencode(item) if isinstance(item, str) else b"" if item is None else b"%d" % item for item in items]
    if any(b"\0" in field for field in fields):
        raise OSError("embedded null byte")
    return b"\0".join(fields) + b"\0"


def _limits(rlimits: list[tuple[int, int]]) -> list[int]:
    """A list of limits as its fields: its length, then each resource and value."""
    return [len(rlimits), *(number for rlimit in rlimits for number in rlimit)]


def _rlimits(limits: Limits) -> list[tuple[int, int]]:
    return [(resource.RLIMIT_NOFILE, limits.open_files)] if limits.open_files else []


def _memory_rlimit(limits: Limits) -> tuple[int, int] | None:
    """Where no cgroup can bound a tree's memory: each process's private writable memory (RLIMIT_DATA), what
    it has taken, not its address space (RLIMIT_AS), of which a JVM or Go reserves far more than it uses."""
    return (resource.RLIMIT_DATA, limits.memory_mb << 20) if limits.memory_mb else None


def _program() -> list[str]:
    """The spawner to run: the one in C where it was built, unless FREECELL_HARNESS_SPAWNER=python."""
    compiled = compiled_spawner()
    return [compiled] if compiled else [sys.executable, "-I", "-S", str(_MAIN)]


class Spawner:
    """One spawner process, the socket to it, and its cgroup (None: its trees are found in /proc), and the
    one that bounds its trees' memory (the same, another, or None: RLIMIT_DATA bounds each process's)."""

    def __init__(self, limits: Limits, env: dict[str, str]) -> None:
        self.owner = os.getpid()
        self.limits, self.env = limits, env
        self.users = 1  # the processes it started (or was asked for) that are not released yet
        self.gone = False
        self.reading = False  # a read of its socket is under way (or was cut short by an exception)
        self.next_message = b""  # said with the last one read (a process's end, then the next one's start)
        self.cgroup: Cgroup | None = None
        self.memory_cgroup: Cgroup | None = None
        self.refused_before = 0  # forks its cgroup had refused when it started its last process (`started`)
        self.oom_killed_before = 0  # processes killed for its memory limit by then
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = subprocess.Popen(
                [*_program(), str(theirs.fileno())],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                pass_fds=[theirs.fileno()],
                start_new_session=True,  # a Ctrl-C to the terminal's process group is the harness's to handle
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self.pid = self.process.pid
        self.control = ours
        try:  # while its Python starts: the sentinel (on first use), the cgroup, the limits
            mine = supervisor.here()
            name = mine.cgroup_name(next(mine.serial))
            processes = limits.processes + 1 if limits.processes else None  # +1: the spawner
            self.cgroup = Cgroup.make(name, processes, limits.memory_mb)
            if self.cgroup is not None and self.cgroup.bounds_memory:
                self.memory_cgroup = self.cgroup
            elif limits.memory_mb:
                self.memory_cgroup = Cgroup.make_memory(name, limits.memory_mb)
            rlimits = _rlimits(limits)
            unjoined_rlimits: list[tuple[int, int]] = []  # where the spawner could not join the cgroup
            if limits.processes:
                # RLIMIT_NPROC counts every process of the user: allow this many beyond the ones now running.
                nproc = (resource.RLIMIT_NPROC, limits.processes + len(os.listdir("/proc")))
                bounded = self.cgroup is not None and self.cgroup.bounds_processes
                (unjoined_rlimits if bounded else rlimits).append(nproc)
            memory_rlimit = _memory_rlimit(limits)
            if any(not name or "=" in name for name in env):
                raise OSError("illegal environment variable name")
            setup = _fields(
                self.cgroup.procs_file if self.cgroup else None,
                self.memory_cgroup.procs_file if self.memory_cgroup else None,
                supervisor.MARKER_ENV,
                *_limits(rlimits),
                *_limits(unjoined_rlimits),
                *_limits([memory_rlimit] if memory_rlimit else []),
                len(env),
                *(f"{name}={value}" for name, value in env.items()),
            )
            self.control.send(setup)
            answer = self._receive(None)
        except BaseException:
            self.close()
            raise
        if answer.startswith(b"E"):
            self.close()
            raise OSError(answer[1:].decode(errors="replace").partition(":")[2])
        if self.memory_cgroup is not None and answer[2:3] != b"1":
            UNJOINABLE.add(self.memory_cgroup.path.parent)  # not tried again: RLIMIT_DATA bounds memory instead
            if self.memory_cgroup is not self.cgroup:
                self.memory_cgroup.remove()
            self.memory_cgroup = None
        if self.cgroup is not None and answer[:2] != b"J1":
            UNJOINABLE.add(self.cgroup.path.parent)  # not tried again: its trees are found in /proc instead
            self._remove_cgroup()

    def _receive(self, within: float | None) -> bytes:
        """The next message; b"" if there is none within `within` s; SpawnerGone if the spawner ended, or if
        an earlier read was cut short by an exception (Ctrl-C), which may have taken its message: what is
        said next can no longer be told apart, and the caller kills the trees itself."""
        if self.next_message:
            message, self.next_message = self.next_message, b""
            return message
        if self.reading:
            self.gone = True
        if self.gone:
            raise SpawnerGone
        self.reading = True
        if within is not None:
            ready, _, _ = select.select([self.control], [], [], max(0.0, within))
            if not ready:
                self.reading = False
                return b""
        try:
            message = self.control.recv(4096)
        except OSError:
            message = b""
        self.reading = False
        if not message:
            self.gone = True
            raise SpawnerGone
        if message.startswith(b"X"):
            message, _, self.next_message = message.partition(b"\n")
        return message

    def start(self, argv: Sequence[str], marker: str, cpu_s: int | None, fds: Sequence[int]) -> int:
        """Start `argv` (its stdin, stdout, stderr `fds`; 2 of them: stdin is /dev/null); its pid."""
        self.ask(argv, marker, cpu_s, fds)
        return self.started()

    def ask(self, argv: Sequence[str], marker: str, cpu_s: int | None, fds: Sequence[int]) -> None:
        """Ask for `argv` to be started (`start`) without waiting for the answer (`started`).  With a
        cgroup, a request made while the last process started still runs waits for its end: the caller
        reads that one's end (`read_exit`) before this one's start."""
        request = _fields(len(argv), *argv, os.getcwd(), marker, cpu_s or 0)
        try:
            socket.send_fds(self.control, [request], list(fds))
        except OSError:
            self.gone = True
            raise SpawnerGone from None

    def started(self) -> int:
        """The pid of the process asked for; OSError if it could not be started."""
        answer = self._receive(None)
        if answer.startswith(b"P"):
            pid, refused, killed = answer[1:].split()
            self.refused_before, self.oom_killed_before = int(refused), int(killed)
            return int(pid)
        number, _, message = answer[1:].decode(errors="replace").partition(":")
        raise OSError(int(number), message) if int(number) else OSError(message)

    def read_exit(self, pid: int, within: float | None) -> tuple[int, int] | None:
        """(wait status, peak RSS in KiB) once process `pid` ended; None if it has not within `within` s.
        A spawner gone before reporting reads as SIGKILL: the caller kills the tree (it has no parent-death
        signal)."""
        try:
            message = self._receive(within)
        except SpawnerGone:
            return 9, 0
        if not message:
            return None
        ended, wait_status, rss = message[1:].split()
        assert message.startswith(b"X") and int(ended) == pid, message
        return int(wait_status), int(rss)

    def takes_next(self, limits: Limits, env: dict[str, str]) -> bool:
        """Whether it can be asked for another process of these settings while its last one ends: it has a
        cgroup (it clears it before starting the next) and the same limits and environment."""
        return (
            self.cgroup is not None
            and not self.gone
            and self.owner == os.getpid()
            and self.limits == limits
            and self.env == env
        )

    def members(self) -> set[int]:
        """Every member of its cgroup but the spawner: the trees of what it started."""
        assert self.cgroup is not None
        return self.cgroup.members() - {self.pid}

    def close(self) -> None:
        """End the spawner (it kills what it started) and remove its cgroup."""
        self.gone = True
        with contextlib.suppress(OSError):
            self.control.close()
        if self.owner == os.getpid():
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=5)
            self._remove_cgroup()

    def _remove_cgroup(self) -> None:
        """Kill what is left in its cgroup (what a spawner killed from outside had started), remove it (and the
        one that bounds memory)."""
        if self.memory_cgroup is not None and self.memory_cgroup is not self.cgroup:
            for _ in range(1000):
                doomed = self.memory_cgroup.members()
                if not doomed:
                    break
                for pid in doomed:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
            self.memory_cgroup.remove()
        self.memory_cgroup = None
        if self.cgroup is not None:
            for _ in range(1000):
                doomed = self.cgroup.members()
                if not doomed:
                    break
                for pid in doomed:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
            self.cgroup.remove()
            self.cgroup = None


_idle: list[Spawner] = []
_lock = threading.Lock()


def _forget_parent_spawners() -> None:
    """In a forked child: the parent's spawners must see the parent's end, and are not ours to use."""
    global _lock
    _lock = threading.Lock()  # another thread may have held it at the fork
    for spawner in _idle:
        with contextlib.suppress(OSError):
            spawner.control.close()
    _idle.clear()


os.register_at_fork(after_in_child=_forget_parent_spawners)


def acquire(limits: Limits, env: dict[str, str]) -> Spawner:
    """An idle spawner of these settings, else a new one (release it when done)."""
    with _lock:
        for i, spawner in enumerate(_idle):
            if spawner.limits == limits and spawner.env == env:
                del _idle[i]
                spawner.users = 1
                return spawner
    return Spawner(limits, env)


def release(spawner: Spawner) -> None:
    """What `spawner` started is gone: it may start another (or is ended, if it is gone or too many idle)."""
    spawner.users -= 1
    if spawner.users > 0:
        return
    if spawner.gone or spawner.owner != os.getpid():
        spawner.close()
        return
    with _lock:
        _idle.insert(0, spawner)
        surplus = _idle[IDLE_KEPT:]
        del _idle[IDLE_KEPT:]
    for extra in surplus:
        extra.close()


def close_spawners() -> None:
    """End every idle spawner (removing its cgroup): at the end of a run, and of this process."""
    with _lock:
        idle = _idle[:]
        _idle.clear()
    for spawner in idle:
        spawner.close()


supervisor.AFTER_KILL_ALL.append(close_spawners)


def start(
    argv: Sequence[str],
    fds: Sequence[int],
    *,
    limits: Limits,
    env: dict[str, str],
    marker: str,
    cpu_s: int | None,
) -> tuple[Spawner, int]:
    """Start `argv` with the standard streams `fds`; the spawner that started it (release it once the
    process's tree is gone) and its pid.  OSError (FileNotFoundError …) if it cannot be started.

    A spawner that ended (killed from outside: an interrupt kills every descendant of the harness) is
    replaced, and the request made again: it started nothing, or what it started died with it."""
    for attempt in (1, 2):
        spawner = acquire(limits, env)
        try:
            return spawner, spawner.start(argv, marker, cpu_s, fds)
        except SpawnerGone:
            spawner.close()
            if attempt == 2:
                raise OSError(f"the spawner ended before it started {argv[0]}") from None
        except BaseException:
            release(spawner)
            raise
    raise AssertionError("unreachable")
