"""The harness's side of the spawner (`spawner_main`): one spawner per harness process, started on first
use and again after a fork (a forked process must not share its parent's); `start` asks it for one
process and returns it as a `Started`."""

from __future__ import annotations

import contextlib
import marshal
import os
import select
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

_MAIN = Path(__file__).with_name("spawner_main.py")


@dataclass(frozen=True, slots=True)
class Plan:
    """How to start one process: what the spawner's child does before it execs."""

    argv: Sequence[str]
    env: dict[str, str]
    rlimits: Sequence[tuple[int, int]]  # each set as both soft and hard limit (never above the hard one)
    cpu_s: int | None  # RLIMIT_CPU: SIGXCPU at this many seconds, SIGKILL a second later
    nproc: tuple[int, int] | None  # RLIMIT_NPROC, set only where the cgroup could not be joined
    cgroup_procs: str | None  # the cgroup.procs file of the cgroup to join


@dataclass(frozen=True, slots=True)
class Started:
    """A process the spawner started: its pid, the read end of its status pipe, whether it joined its cgroup."""

    pid: int
    status: int
    joined: bool


class _Spawner:
    """One spawner process and the socket to it."""

    def __init__(self) -> None:
        self.owner = os.getpid()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-I", "-S", str(_MAIN), str(theirs.fileno())],
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
        self.control = ours

    def send(self, plan: Plan, fds: Sequence[int]) -> None:
        request = {
            "argv": list(plan.argv),
            "env": plan.env,
            "cwd": os.getcwd(),
            "rlimits": [list(r) for r in plan.rlimits],
            "cpu_s": plan.cpu_s,
            "nproc": list(plan.nproc) if plan.nproc else None,
            "cgroup_procs": plan.cgroup_procs,
        }
        socket.send_fds(self.control, [marshal.dumps(request)], list(fds))


_spawner: _Spawner | None = None
_lock = threading.Lock()


def _forget_parent_spawner() -> None:
    """In a forked child: the parent's spawner must see the parent's end, and is not ours to use."""
    global _spawner, _lock
    _lock = threading.Lock()  # another thread may have held it at the fork
    if _spawner is not None and _spawner.owner != os.getpid():
        _spawner.control.close()
        _spawner = None


os.register_at_fork(after_in_child=_forget_parent_spawner)


def _here(*, again: bool = False) -> _Spawner:
    global _spawner
    with _lock:
        if again and _spawner is not None:
            _spawner.control.close()
            _spawner = None
        if _spawner is None:
            _spawner = _Spawner()
        return _spawner


def start(plan: Plan, stdin: int, stdout: int, stderr: int) -> Started:
    """Start `plan` with the given standard streams; OSError (FileNotFoundError …) if it cannot be started.

    A spawner that ended (killed from outside: an interrupt kills every descendant of the harness) is
    replaced, and the request made again: it started nothing, or what it started died with it."""
    again = False
    while True:
        started = _attempt(_here(again=again), plan, (stdin, stdout, stderr))
        if started is not None:
            return started
        if again:
            raise OSError(f"the spawner ended before it started {plan.argv[0]}")
        again = True


def _attempt(spawner: _Spawner, plan: Plan, streams: tuple[int, int, int]) -> Started | None:
    """`plan` started by `spawner`; None if the spawner was gone, or went before it started it."""
    status_read, status_write = os.pipe()
    exec_read, exec_write = os.pipe()
    try:
        try:
            spawner.send(plan, [*streams, status_write, exec_write])
        except OSError:
            return None
        finally:
            os.close(status_write)
            os.close(exec_write)
        failure = _read_all(exec_read)  # nothing after "+" (it joined its cgroup): it runs the program now
        joined = failure.startswith(b"+")
        failure = failure[joined:]
        if failure:
            number, _, message = failure.decode(errors="replace").partition(":")
            raise OSError(int(number), message) if int(number) else OSError(message)
        line = _read_line(status_read)
        if not line.startswith(b"P "):
            os.close(status_read)
            return None
        return Started(int(line[2:]), status_read, joined)
    except BaseException:
        with contextlib.suppress(OSError):
            os.close(status_read)
        raise
    finally:
        os.close(exec_read)


def _read_all(fd: int) -> bytes:
    data = b""
    while chunk := os.read(fd, 4096):
        data += chunk
    return data


def _read_line(fd: int) -> bytes:
    """One line of a status pipe, read a byte at a time so that nothing after it is taken."""
    line = b""
    while not line.endswith(b"\n"):
        byte = os.read(fd, 1)
        if not byte:
            break
        line += byte
    return line.strip()


def read_exit(status: int, within: float | None) -> tuple[int, int] | None:
    """From a status pipe whose `P` line was read: (wait status, peak RSS in KiB) once the process ended;
    None if it has not within `within` s.  A spawner gone before reporting reads as killed by SIGKILL."""
    if within is not None:
        ready, _, _ = select.select([status], [], [], max(0.0, within))
        if not ready:
            return None
    line = os.read(status, 4096).strip()  # the one line left, written at once: read at once
    if not line.startswith(b"X "):
        return 9, 0  # the spawner was killed, and the process with it (its parent-death signal)
    wait_status, rss = line[2:].split()
    return int(wait_status), int(rss)
