"""How a process ended, in the words every message uses: `exit_text` (`killed by SIGKILL`, `exited with
status 3`), and the limit a dealer ran into, named by the option that sets it (`limit_in_words`)."""

from __future__ import annotations

import re
import signal

from harness.limits import Limits


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
    r"|insufficient memory|Native memory allocation"  # a JVM that could not reserve its heap, on stdout
    r"|Invalid typed array length|Array buffer allocation",
    re.I,
)
_FILES_WORDS = re.compile(r"Too many open files|EMFILE")
_FORK_WORDS = re.compile(r"fork|Resource temporarily unavailable|EAGAIN", re.I)


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
