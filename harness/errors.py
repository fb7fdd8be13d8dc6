"""The harness's exceptions, under one base, and the exit status each one means (SPEC.md).

Only `harness.cli` prints them and picks the exit status; everything else raises.
"""

from __future__ import annotations

from typing import Final

# Where a bug of ours is reported; the lead sets the project URL here when it has one.
REPORT_BUGS_TO: Final = "the freecell-harness issue tracker"


class HarnessError(Exception):
    """Base of every exception the harness raises on purpose."""

    exit_status = 3


class RequestError(HarnessError):
    """A bad deal number or range, an unreadable file, a missing tool: one line, exit 2."""

    exit_status = 2


class BoardError(HarnessError, ValueError):
    """Not a board of 52 distinct cards in a known shape: the message says why (`harness.cards`).
    `cards`: the 52 it holds in dealing order (card indices), when it is laid out as a board but a card
    repeats: what it gave can still be shown."""

    def __init__(self, message: str, cards: tuple[int, ...] | None = None) -> None:
        super().__init__(message)
        self.cards = cards


class HarnessBug(HarnessError):
    """The harness itself went wrong (a bug of ours, not of the request or the dealer): exit 3."""

    exit_status = 3


def bug_message(exc: BaseException) -> str:
    """The one line said when the harness itself fails: what, that it is ours, and where to report it."""
    return (
        f"internal error (a bug in freecell-harness, not in your dealer or request): {type(exc).__name__}: {exc}; "
        f"please report it to {REPORT_BUGS_TO} with the command line (FREECELL_DEBUG=1 shows the traceback)"
    )
