"""Stopping a run at once: Ctrl-C and SIGTERM as one exception, and every child process killed.

From the entry point's first instruction (`take_over_at_start`), Ctrl-C and SIGTERM are held while
the command line is imported and read, so that neither an import's traceback nor a bare exit 143
can be all a user sees; a command releases them once it can say it was interrupted (verify, once its
request is known, so that the report it was asked for says `"interrupted": true`), and from then on
each raises KeyboardInterrupt.

Dealer processes run in their own sessions (so a terminal's Ctrl-C does not reach them), which
is why they must be killed by their process groups.  The supervisor's `kill_all()` does that for the
dealers it started; the other children of this process found in /proc are killed the same way.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, NoReturn, TypeAlias

from harness.process.trees import descendants, kill_tree

_STOPPING = (signal.SIGINT, signal.SIGTERM)
_Handler: TypeAlias = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None
_taken_over: dict[int, _Handler] = {}  # signal → its handler before `take_over_at_start`
_owner = 0  # the process that took them over
_holding = False
_held = False


def _stop(signum: int, frame: FrameType | None) -> None:
    global _held
    if os.getpid() != _owner:  # a child forked a moment ago, before `_give_back` ran in it
        _as_a_forked_child(signum)
        return
    if _holding:
        _held = True
        return
    raise KeyboardInterrupt


def take_over_at_start() -> None:
    """The entry point's first instruction: Ctrl-C and SIGTERM are held from now until `release()`.
    A signal ignored at the start stays ignored (a job started in the background ignores Ctrl-C).
    Run as the command, the package's first lines held them already (`harness._hold_at_start`): one
    that came since is held here."""
    global _holding, _owner, _held
    if _taken_over or threading.current_thread() is not threading.main_thread():
        return
    _holding, _owner = True, os.getpid()
    package = sys.modules.get("harness")
    early: dict[int, _Handler] = getattr(package, "_handlers_at_start", {})
    for s in _STOPPING:
        previous = early.get(s, signal.getsignal(s))
        if previous is not signal.SIG_IGN:
            _taken_over[s] = previous
            signal.signal(s, _stop)
    _held = bool(getattr(package, "_held_at_start", ()))
    os.register_at_fork(after_in_child=_give_back)


def _give_back() -> None:
    """In a forked child (a worker): Ctrl-C ignored, as its parent decides what a Ctrl-C to the whole process
    group does, and kills it; SIGTERM's handler from before, so that it ends it (held, it never would)."""
    global _holding, _held
    for s in _taken_over:
        signal.signal(s, signal.SIG_IGN if s == signal.SIGINT else _taken_over[s])
    _taken_over.clear()
    _holding = _held = False


def _as_a_forked_child(signum: int) -> None:
    if signum == signal.SIGTERM:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


def release() -> None:
    """From now on Ctrl-C and SIGTERM raise KeyboardInterrupt; one held until now is raised at once."""
    global _holding, _held
    _holding = False
    if _held:
        _held = False
        raise KeyboardInterrupt


def hold() -> bool:
    """From now on Ctrl-C and SIGTERM are held (the command has done its work: the entry point ends it);
    whether one came, and was held, since `take_over_at_start`'s last `release()`."""
    global _holding
    _holding = bool(_taken_over)
    return _held


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Within: Ctrl-C and SIGTERM are held, not raised: one that comes is raised by a `released()` within,
    or by the next `release()`.  Nothing changes in a process whose entry point did not take them over."""
    global _holding
    before = _holding
    _holding = bool(_taken_over)
    try:
        yield
    finally:
        _holding = before


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Within: Ctrl-C and SIGTERM wait (blocked in this thread, held where the entry point took them over), and
    one that came is raised as KeyboardInterrupt once it ends, in the caller's code.  Around a fork: CPython runs
    Python at-fork hooks (logging's, among others) in the forking thread, and an exception that a signal handler
    raises in one is printed as "Exception ignored" and lost, so that a SIGTERM that came while a worker was
    forked was never acted on (`fixtures check --all` went on for hours)."""
    global _held
    in_main = threading.current_thread() is threading.main_thread()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING) if in_main else None
    before = _holding
    try:
        with held():
            yield
    finally:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # one that came is handled from here on
    if _held and not before:
        _held = False
        raise KeyboardInterrupt


@contextlib.contextmanager
def released() -> Iterator[None]:
    """Within: Ctrl-C and SIGTERM raise KeyboardInterrupt (one held until now, at once); held again after."""
    global _holding
    before = _holding
    release()
    try:
        yield
    finally:
        _holding = before


def end_interrupted(status: int) -> NoReturn:
    """End an interrupted command at once: its output flushed and every child killed, without waiting for
    what the interpreter's exit would (a process pool's threads and queues take seconds to wind down)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            if stream is not None:
                stream.flush()
    kill_children()
    os._exit(status)


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


def kill_children() -> None:
    """Kill every process this one started, with the process groups they lead."""
    supervisor = sys.modules.get("harness.process.supervisor")  # not loaded: this process started no dealer
    if supervisor is not None:
        supervisor.kill_all()
    kill_tree(descendants(os.getpid()))
