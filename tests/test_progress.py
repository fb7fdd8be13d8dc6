"""Progress: a redrawn line on a terminal, plain lines elsewhere, nothing with --quiet; a slow
dealer still gets a line every tick (driven here by a fake clock, not by waiting)."""

from __future__ import annotations

import io

import pytest

from harness import progress
from harness.progress import ProgressBar


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    fake = _Clock()
    monkeypatch.setattr(progress, "clock", fake)
    return fake


def test_on_a_terminal_it_shows_deals_rate_and_time_left(clock: _Clock) -> None:
    out = _Terminal()
    bar = ProgressBar(1000, out)
    clock.now += 1
    bar(500)
    bar.close()
    assert "500/1,000 deals" in out.getvalue() and "500/s" in out.getvalue() and "s left" in out.getvalue()


@pytest.mark.parametrize(
    ("stream", "enabled", "seconds", "expected"),
    [
        (_Terminal, True, 1.0, "\r"),  # a slow dealer: no deal finished, yet the line is redrawn
        (io.StringIO, True, 10.0, "progress: 0/1,000 deals"),  # CI logs: one plain line
        (io.StringIO, True, 5.0, ""),  # not yet ten seconds
        (_Terminal, False, 30.0, ""),  # --quiet
    ],
)
def test_time_alone_brings_a_line_where_one_is_wanted(
    clock: _Clock, stream: type[io.StringIO], enabled: bool, seconds: float, expected: str
) -> None:
    out = stream()
    bar = ProgressBar(1000, out, enabled=enabled)
    bar._stopped.set()  # the ticker thread stops; its tick is called by hand below
    if bar._ticker is not None:
        bar._ticker.join()
    clock.now += seconds
    bar.tick()
    text = out.getvalue()
    assert text.startswith(expected) if expected else text == ""
