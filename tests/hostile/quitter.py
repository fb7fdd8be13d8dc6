"""`py:` dealers that leave the process at deal 101: os._exit(0) and sys.exit(0) mid-range."""

import os
import sys

import reference


def os_exit(n: int) -> str:
    if n > 100:
        os._exit(0)
    return reference.deal(n).format("line")


def sys_exit(n: int) -> str:
    if n > 100:
        sys.exit(0)
    return reference.deal(n).format("line")


def hangs(n: int) -> str:
    if n == 7:
        while True:
            pass
    return reference.deal(n).format("line")


def prints(n: int) -> str:
    print("chatter on stdout", n)  # must not disturb the harness
    return reference.deal(n).format("line")


def bomb(n: int) -> str:
    if n == 3:
        hog = [bytearray(1 << 20) for _ in range(100_000)]
        return str(len(hog))
    return reference.deal(n).format("line")


_calls: list[int] = []


def worn_out(n: int) -> str:
    """Leaves its process at its $WORN_OUT_AT-th call (default 40) there, whatever the deal."""
    _calls.append(n)
    if len(_calls) == int(os.environ.get("WORN_OUT_AT", "40")):
        os._exit(0)
    return reference.deal(n).format("line")


def worn_out_hangs(n: int) -> str:
    """Hangs at its $WORN_OUT_AT-th call (default 40) in its process, whatever the deal."""
    _calls.append(n)
    if len(_calls) == int(os.environ.get("WORN_OUT_AT", "40")):
        while True:
            pass
    return reference.deal(n).format("line")


def worn_out_slowly(n: int) -> str:
    """`worn_out`, each deal taking 2 ms: its answers are written one at a time (past FLUSH_S)."""
    import time

    time.sleep(0.002)
    return worn_out(n)
