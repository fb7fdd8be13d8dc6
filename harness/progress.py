"""Progress of a run: a redrawn line on a terminal (at least every second, however slow the
dealer), a plain line every PLAIN_EVERY_S seconds elsewhere (CI logs), nothing with --quiet."""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

TICK_S = 1.0  # a terminal's line is redrawn at least this often
REDRAW_S = 0.2  # and at most this often
PLAIN_EVERY_S = 10.0  # seconds between plain lines when not on a terminal
clock = time.perf_counter  # (tests drive it by hand)


class ProgressBar:
    def __init__(self, total: int, stream: TextIO | None = None, *, enabled: bool = True) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = self.stream.isatty()
        self.enabled = enabled and total > 0
        self.total, self.done = total, 0
        self.started = self.last = clock()
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._ticker: threading.Thread | None = None
        if self.enabled:
            self._ticker = threading.Thread(target=self._tick, name="progress", daemon=True)
            self._ticker.start()

    def __call__(self, checked: int) -> None:
        with self._lock:
            self.done += checked
            if self.enabled and self.terminal and clock() - self.last >= REDRAW_S:
                self._draw()

    def _tick(self) -> None:
        while not self._stopped.wait(TICK_S / 4):
            self.tick()

    def tick(self) -> None:
        """Draw if nothing was drawn for a tick (a second on a terminal, PLAIN_EVERY_S elsewhere)."""
        every = TICK_S if self.terminal else PLAIN_EVERY_S
        with self._lock:
            if self.enabled and clock() - self.last >= every:
                self._draw()

    def text(self) -> str:
        now = clock()
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        left = f"{(self.total - self.done) / rate:6.0f} s left" if rate else "  ? s left"
        return f"{self.done:>12,}/{self.total:,} deals {rate:>11,.0f}/s {elapsed:6.0f} s  {left}"

    def _draw(self) -> None:
        self.last = clock()
        if self.terminal:
            filled = int(30 * min(self.done / self.total, 1.0))
            bar = "█" * filled + "·" * (30 - filled)
            self.stream.write(f"\r{bar} {self.text()} ")
        else:
            self.stream.write(f"progress: {' '.join(self.text().split())}\n")
        self.stream.flush()

    def close(self) -> None:
        self._stopped.set()
        if self._ticker is not None:
            self._ticker.join()
        if self.enabled and self.terminal:
            self.stream.write("\r" + " " * 110 + "\r")
            self.stream.flush()
