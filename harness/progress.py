"""A progress line on a terminal (deals, deals per second, time left); nothing when not a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() and total > 0
        self.total, self.done = total, 0
        self.started = self.last = time.perf_counter()

    def __call__(self, checked: int) -> None:
        self.done += checked
        now = time.perf_counter()
        if not self.enabled or now - self.last < 0.2:
            return
        self.last = now
        rate = self.done / max(now - self.started, 1e-9)
        left = (self.total - self.done) / rate if rate else 0.0
        filled = int(30 * min(self.done / self.total, 1.0))
        bar = "█" * filled + "·" * (30 - filled)
        self.stream.write(f"\r{bar} {self.done:>12,}/{self.total:,} deals {rate:>11,.0f}/s  {left:6.0f} s left ")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * 100 + "\r")
            self.stream.flush()
