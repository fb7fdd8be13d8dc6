"""The one Linux call of supervision the standard library lacks: prctl's parent-death signal."""

from __future__ import annotations

import ctypes
import functools
import os
import signal

PR_SET_PDEATHSIG = 1


@functools.cache
def libc() -> ctypes.CDLL | None:
    try:  # the C library this process already runs on
        loaded = ctypes.CDLL(None, use_errno=True)
        loaded.prctl  # noqa: B018
        return loaded
    except (OSError, AttributeError):
        from ctypes.util import find_library

        name = find_library("c")  # runs a helper program
        return ctypes.CDLL(name, use_errno=True) if name else None


def die_with_parent(sig: int = signal.SIGKILL, parent: int | None = None) -> bool:
    """Ask the kernel to send `sig` to this process when the thread that started it ends.

    The kernel sends it only for a death after the asking: with `parent` (its pid, taken before the
    fork), a parent already gone gets this process `sig` now.
    """
    c = libc()
    asked = c is not None and int(c.prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)) == 0
    if parent is not None and os.getppid() != parent:
        os.kill(os.getpid(), sig)
    return asked
