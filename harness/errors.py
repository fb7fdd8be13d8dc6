"""The harness's exceptions, under one base, and the exit status each one means (SPEC.md).

Only `harness.cli` prints them and picks the exit status; everything else raises.
"""

from __future__ import annotations

import errno
import resource
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


def environment_limit(exc: BaseException) -> RequestError | None:
    """The machine's limit that `exc` (or what caused it) shows the harness itself ran into, as the one line
    that names it: too few file descriptors is the environment, not a bug of ours (exit 2, not 3)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, OSError) and seen.errno == errno.EMFILE:
            allowed = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
            return RequestError(
                f"too few open files allowed: the harness ran out of file descriptors at the limit of this "
                f"process (ulimit -n {allowed}); allow more, e.g. `ulimit -n 1024`"
            )
        if isinstance(seen, OSError) and seen.errno == errno.ENFILE:
            return RequestError("the system's table of open files is full (ENFILE): close some programs and try again")
        if isinstance(seen, OSError) and seen.errno in (errno.ENOSPC, errno.EDQUOT):
            return RequestError(f"no space left where the harness writes ({seen.strerror}): free some and try again")
        seen = seen.__cause__ or seen.__context__
    return None
