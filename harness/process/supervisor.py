"""This process's supervision state: its token, the marker its dealers carry, its live process trees and
its sentinel; `kill_all` kills every live tree at once (Ctrl-C, SIGTERM, exit).  Rebuilt after a fork.

This process is never made a subreaper: a library user's process would inherit every orphan below
it, and never reap them.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import threading
import time
import weakref
from collections.abc import Callable
from typing import Protocol

from harness.process.cgroups import PREFIX, cgroup_roots, own_memory_cgroup1, sweep_abandoned
from harness.process.sentinel import start_sentinel

MARKER_ENV = "FREECELL_HARNESS_DEALER"  # "<harness token>:<child serial>", inherited by descendants


class Supervised(Protocol):
    """A live process tree this process started."""

    def kill(self) -> None: ...


class Supervisor:
    """This process's token, live process trees and sentinel."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.token = f"{self.pid}-{time.time_ns()}"
        self.serial = itertools.count(1)
        self.children: weakref.WeakSet[Supervised] = weakref.WeakSet()
        self.lock = threading.RLock()  # reentrant: `kill_all` may run in a signal handler of a thread holding it
        roots = [*cgroup_roots(), *filter(None, [own_memory_cgroup1()])]  # the memory cgroups' too
        sweep_abandoned(roots)
        self.sentinel_pipe = start_sentinel(f"{MARKER_ENV}={self.token}:", roots, self.cgroup_name(0)[:-1])

    def cgroup_name(self, serial: int) -> str:
        return f"{PREFIX}{self.token}-{serial}"

    def marker(self, serial: int) -> str:
        """The value of MARKER_ENV that the tree of child `serial` carries."""
        return f"{self.token}:{serial}"


_supervisor: Supervisor | None = None
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


def here() -> Supervisor:
    """This process's supervisor, started (with its sentinel) on first use."""
    global _supervisor
    with _supervisor_lock:
        if _supervisor is None or _supervisor.pid != os.getpid():
            _supervisor = Supervisor()
            atexit.register(kill_all)
            with contextlib.suppress(Exception):
                import multiprocessing.util

                # Pool workers leave through os._exit, which skips atexit: finalizers still run.
                multiprocessing.util.Finalize(None, kill_all, exitpriority=100)
        return _supervisor


def forget(child: Supervised) -> None:
    """`child`'s tree is gone: no longer this process's to kill."""
    supervisor = _supervisor
    if supervisor is not None and supervisor.pid == os.getpid():
        with supervisor.lock:
            supervisor.children.discard(child)


AFTER_KILL_ALL: list[Callable[[], None]] = []  # what kill_all does next (the spawner module ends its idle spawners)


def kill_all() -> None:
    """Kill every live process tree this process started (Ctrl-C, SIGTERM, exit), and end its idle spawners."""
    supervisor = _supervisor
    if supervisor is None or supervisor.pid != os.getpid():
        return
    for child in list(supervisor.children):
        child.kill()
    for ending in AFTER_KILL_ALL:
        ending()
