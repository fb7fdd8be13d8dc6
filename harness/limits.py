"""`Limits`: what one dealer process tree may take (memory, CPU, open files, processes).

The one value type of them: the command line's limit options build it, `DealerOptions` holds it,
and `harness.process` applies it to every dealer process it starts (setrlimit, cgroup).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """What one dealer process tree may take; None is no limit.  Exceeding one is a `crash`."""

    memory_mb: int | None = 4096
    cpu_s: float | None = None
    open_files: int | None = 1024
    processes: int | None = 256

    def describe(self) -> str:
        parts = [
            f"memory {self.memory_mb} MB" if self.memory_mb else None,
            f"CPU {self.cpu_s:g} s" if self.cpu_s else None,
            f"{self.open_files} open files" if self.open_files else None,
            f"{self.processes} processes" if self.processes else None,
        ]
        return ", ".join(p for p in parts if p) or "none"


DEFAULT_LIMITS = Limits()
NO_LIMITS = Limits(memory_mb=None, cpu_s=None, open_files=None, processes=None)

DEFAULT_STARTUP_TIMEOUT = 60.0  # seconds more for a process's first answer, until it shows it has started
