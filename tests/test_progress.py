from __future__ import annotations

import io

from harness.progress import ProgressBar


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_quiet_when_not_a_terminal() -> None:
    out = io.StringIO()
    bar = ProgressBar(1000, out)
    bar.last -= 1  # as if the last redraw were long ago
    bar(500)
    bar.close()
    assert out.getvalue() == ""


def test_on_a_terminal_it_shows_deals_rate_and_time_left() -> None:
    out = _Terminal()
    bar = ProgressBar(1000, out)
    bar.last -= 1
    bar(500)
    assert "500/1,000 deals" in out.getvalue() and "/s" in out.getvalue() and "s left" in out.getvalue()
