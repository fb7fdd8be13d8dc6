"""Stopping a run at once: Ctrl-C and SIGTERM as one exception, and every child process killed.

Dealer processes run in their own sessions (so a terminal's Ctrl-C does not reach them), which
is why they must be killed by their process groups.  `harness.process.kill_all()` (the process
supervisor) does that for the dealers it started; until every adapter goes through it, the
children of this process found in /proc are killed the same way.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType


@contextlib.contextmanager
def interrupts_raise() -> Iterator[None]:
    """Within: SIGTERM raises KeyboardInterrupt, like Ctrl-C (main thread only)."""

    def terminated(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers; a run in another thread keeps the process's
        return
    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Within: Ctrl-C and SIGTERM are ignored (while the run is being stopped and its verdict kept)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _stat(pid: int) -> tuple[int, int, int] | None:
    """(parent pid, process group, start time) of a live process, from /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), int(fields[2]), int(fields[19])


def descendants(pid: int) -> dict[int, tuple[int, int]]:
    """Every live descendant of `pid`: {pid: (process group, start time)}."""
    table: dict[int, tuple[int, int, int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            table[int(entry.name)] = stat
    found: dict[int, tuple[int, int]] = {}
    parents = {pid}
    while parents:
        children = {p for p, (ppid, _, _) in table.items() if ppid in parents and p not in found}
        for child in children:
            found[child] = table[child][1:]
        parents = children
    return found


def kill_tree(processes: dict[int, tuple[int, int]]) -> None:
    """SIGKILL each process (and the group it leads) that is still the process it was."""
    for pid, (group, started) in processes.items():
        stat = _stat(pid)
        if stat is None or stat[2] != started:
            continue  # gone, or its number reused by another process
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if group == pid:
                os.killpg(pid, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGKILL)


def kill_children() -> None:
    """Kill every process this one started, with the process groups they lead."""
    try:
        supervisor = importlib.import_module("harness.process")
    except ImportError:
        supervisor = None
    kill_all = getattr(supervisor, "kill_all", None)
    if callable(kill_all):
        kill_all()
    kill_tree(descendants(os.getpid()))
