"""The one reader of /proc (the process table, a process's environment, its threads' states), for every
part of the harness that looks for or kills processes: the dealer supervisor and the interrupt
handling (loaded first, which is why this module imports nothing but `os`)."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ProcStat:
    """What /proc/PID/stat says of a live process."""

    ppid: int
    pgid: int
    sid: int
    zombie: bool
    started: int  # clock ticks after boot: with the pid, which process this is (pids are reused)


def proc_stat(pid: int | str) -> ProcStat | None:
    """What /proc/PID/stat says of `pid`; None if it is gone."""
    try:  # os.open and os.read: a sweep reads this for every process of the machine
        fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY | os.O_CLOEXEC)
        try:
            stat = os.read(fd, 4096)
        finally:
            os.close(fd)
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2 :].split()  # after the command's name, which may hold anything
    if len(fields) < 20:
        return None
    return ProcStat(int(fields[1]), int(fields[2]), int(fields[3]), fields[0] == b"Z", int(fields[19]))


def process_table() -> dict[int, ProcStat]:
    """Every live process of the machine, by pid."""
    procs = {int(name): proc_stat(name) for name in os.listdir("/proc") if name.isdigit()}
    return {pid: proc for pid, proc in procs.items() if proc is not None}


def tree_of(table: dict[int, ProcStat], roots: set[int]) -> set[int]:
    """`roots` and every process of `table` descended from them."""
    children: dict[int, list[int]] = {}
    for pid, proc in table.items():
        children.setdefault(proc.ppid, []).append(pid)
    found: set[int] = set()
    todo = list(roots)
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(children.get(pid, ()))
    return found


def environ_has_any(pid: int, entries: set[bytes]) -> bool:
    """Whether the environment of `pid` holds one of `entries` ("NAME=value")."""
    try:
        fd = os.open(f"/proc/{pid}/environ", os.O_RDONLY | os.O_CLOEXEC)
        try:
            chunks = []
            while chunk := os.read(fd, 1 << 16):
                chunks.append(chunk)
        finally:
            os.close(fd)
    except OSError:
        return False
    return not entries.isdisjoint(b"".join(chunks).split(b"\0"))


@dataclass(frozen=True, slots=True)
class ThreadState:
    """What /proc says of one thread of a process."""

    busy: bool  # running, waiting for the disk, or sleeping for a set time: not waiting for an event
    ran_ns: int  # CPU time it has had so far


def thread_states(pid: int) -> list[ThreadState]:
    """The state of each thread of `pid` (none if it is gone)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    states = []
    for task in tasks:
        try:
            stat = _read(f"/proc/{pid}/task/{task}/stat")
            wchan = _read(f"/proc/{pid}/task/{task}/wchan")
            schedstat = _read(f"/proc/{pid}/task/{task}/schedstat")
        except OSError:
            continue
        busy = stat[stat.rfind(b")") + 2 :][:1] in (b"R", b"D") or b"nanosleep" in wchan or _timed_wait(pid, task)
        states.append(ThreadState(busy, int(schedstat.split()[0])))
    return states


# The calls that wait for events with a timeout, by the machine's system call numbers: call -> (the
# timeout's argument, 1-based; whether it is a number of milliseconds, -1 for none, else a pointer,
# NULL for none).  A thread in one of them with a timeout sleeps for a set time, as in nanosleep:
# an event loop waiting on its timer, not for input.
_TIMED_WAITS_BY_MACHINE: dict[str, dict[int, tuple[int, bool]]] = {
    # poll, select, epoll_wait, pselect6, ppoll, epoll_pwait, epoll_pwait2
    "x86_64": {
        7: (3, True),
        23: (5, False),
        232: (4, True),
        270: (5, False),
        271: (3, False),
        281: (4, True),
        441: (4, False),
    },
    # epoll_pwait, pselect6, ppoll, epoll_pwait2
    "aarch64": {22: (4, True), 72: (5, False), 73: (3, False), 441: (4, False)},
}
_TIMED_WAITS = _TIMED_WAITS_BY_MACHINE.get(os.uname().machine, {})


def _timed_wait(pid: int, task: str) -> bool:
    """Whether the thread waits in poll, select or epoll with a timeout (False when that cannot be read)."""
    if not _TIMED_WAITS:
        return False
    try:
        fields = _read(f"/proc/{pid}/task/{task}/syscall").split()
        call = _TIMED_WAITS.get(int(fields[0]))
        if call is None:
            return False
        at, milliseconds = call
        value = int(fields[at], 16)
    except (OSError, ValueError, IndexError):  # "running", gone, or not ours to read
        return False
    if milliseconds:  # an int: negative for none
        return value & 0xFFFFFFFF < 0x80000000
    return value != 0


# read, readv and pread64, by the machine's system call numbers (the descriptor is their first argument)
_READS_BY_MACHINE: dict[str, frozenset[int]] = {"x86_64": frozenset({0, 17, 19}), "aarch64": frozenset({63, 65, 67})}
_READS = _READS_BY_MACHINE.get(os.uname().machine, frozenset())


def reads_pipe(pid: int, inode: int) -> bool:
    """Whether a thread of `pid` is blocked reading the pipe `inode` (False when that cannot be read)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for task in tasks:
        try:
            fields = _read(f"/proc/{pid}/task/{task}/syscall").split()
            if int(fields[0]) in _READS and os.readlink(f"/proc/{pid}/fd/{int(fields[1], 16)}") == f"pipe:[{inode}]":
                return True
        except (OSError, ValueError, IndexError):  # "running", gone, or not ours to read
            continue
    return False


def _read(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        return os.read(fd, 4096)
    finally:
        os.close(fd)
