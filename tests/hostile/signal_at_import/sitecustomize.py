"""Sends this process a signal while it imports a given module: an interrupt at a known moment of the
start-up, however fast or slow the machine.  Python loads this file itself (`sitecustomize`) when its
directory is on PYTHONPATH.

$SIGNAL_AT_IMPORT is `SIGNAL:MODULE:FLAG`: the first process that looks for MODULE (importing it, or
finding it as `py:` dealers are found) sends itself SIGNAL, once: FLAG, a file it creates, tells every
other process (workers, dealers) that it was sent."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

_WANTED = os.environ.get("SIGNAL_AT_IMPORT", "")


class _SignalAtImport:
    def __init__(self, signal_name: str, module: str, flag: str) -> None:
        self.signal, self.module, self.flag = getattr(signal, signal_name), module, flag

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname == self.module:
            try:
                os.close(os.open(self.flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                return None
            os.kill(os.getpid(), self.signal)
        return None  # the import itself goes on as usual


if _WANTED:
    sys.meta_path.insert(0, _SignalAtImport(*_WANTED.split(":", 2)))
