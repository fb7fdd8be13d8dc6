"""Sends this process a signal while it imports a given module, or its process group one (as a terminal's
Ctrl-C) once it has forked N children: an interrupt at a known moment, however fast or slow the machine.
Python loads this file itself (`sitecustomize`) when its directory is on PYTHONPATH.

$SIGNAL_AT_IMPORT is `SIGNAL:MODULE:FLAG` or `SIGNAL:fork=N:FLAG`: the first process that looks for MODULE
(importing it, or finding it as `py:` dealers are found), or that forks its N-th child, sends SIGNAL,
once: FLAG, a file it creates, tells every other process (workers, dealers) that it was sent."""

from __future__ import annotations

import _thread
import os
import signal
import sys
import time
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import CodeType, FrameType, ModuleType

_WANTED = os.environ.get("SIGNAL_AT_IMPORT", "")


class _SignalAtImport:
    def __init__(self, signal_name: str, module: str, flag: str) -> None:
        self.signal, self.module, self.flag = getattr(signal, signal_name), module, flag

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname == self.module and _first(self.flag):
            os.kill(os.getpid(), self.signal)
        return None  # the import itself goes on as usual


def _first(flag: str) -> bool:
    try:
        os.close(os.open(flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def _signal_group_soon(signum: int, forking_thread: int, hook: CodeType) -> None:
    """The signal, once the forking thread is out of its fork hook (a signal raised there is lost)."""
    while _in(sys._current_frames().get(forking_thread), hook):
        time.sleep(0.001)
    os.killpg(os.getpgid(0), signum)


def _in(frame: FrameType | None, code: CodeType) -> bool:
    while frame is not None:
        if frame.f_code is code:
            return True
        frame = frame.f_back
    return False


def _signal_group_at_fork(signal_name: str, count: int, flag: str) -> None:
    forks = 0

    def forked() -> None:
        nonlocal forks
        forks += 1
        if forks == count and _first(flag):
            _thread.start_new_thread(_signal_group_soon, (getattr(signal, signal_name), _thread.get_ident(), code))

    code = forked.__code__
    os.register_at_fork(after_in_parent=forked)


if _WANTED:
    _signal, _when, _flag = _WANTED.split(":", 2)
    if _when.startswith("fork="):
        _signal_group_at_fork(_signal, int(_when.removeprefix("fork=")), _flag)
    else:
        sys.meta_path.insert(0, _SignalAtImport(_signal, _when, _flag))
