"""Hostile `py:` dealers: correct, except at deal 3.  $HOSTILE_RUN marks every process they start
(in its argv); $STARTED_DIR/<name> is written when a helper has started; a writer writes to
$HOSTILE_WRITE_TO."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing_extensions import Buffer

import reference

SLEEPER = "import time; time.sleep(300)"


def _started(name: str) -> None:
    with open(os.path.join(os.environ["STARTED_DIR"], name), "w") as f:
        f.write("started\n")


def _correct(n: int) -> str:
    return reference.deal(n).format("line")


def escaper(n: int) -> str:
    if n == 3:
        subprocess.Popen([sys.executable, "-c", SLEEPER, os.environ["HOSTILE_RUN"]], start_new_session=True)
        _started("escaper")
    return _correct(n)


def double_fork(n: int) -> str:
    if n == 3:
        if (pid := os.fork()) == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c", SLEEPER, os.environ["HOSTILE_RUN"]])
            os._exit(0)
        os.waitpid(pid, 0)
        _started("double_fork")
    return _correct(n)


def fork_bomb(n: int) -> str:
    if n == 3:
        while True:
            if os.fork() == 0:  # forks until the limit refuses: then the fork raises
                time.sleep(300)
                os._exit(0)
    return _correct(n)


def memory_raiser(n: int) -> str:
    if n == 3:
        hoard = [bytearray(64 << 20) for _ in range(1000)]  # MemoryError under --memory-limit: raised, not a crash
        return str(len(hoard))
    return _correct(n)


def control_chars(n: int) -> str:
    if n == 3:
        print("\x1b]0;owned\x07\x1b[2J", file=sys.stderr, flush=True)
        raise ValueError("deal \x1b[31m3\x1b[0m\x07 is \x9b2J cursed")
    return _correct(n)


def control_board(n: int) -> str:
    line = _correct(n)
    return line.replace(" ", "\x1b]0;owned\x07 ", 1) if n == 3 else line


def writer(n: int) -> str:
    if n == 3:
        with open(os.environ["HOSTILE_WRITE_TO"], "w") as f:
            f.write("written by the dealer\n")
    return _correct(n)


# -- forgers: the dealer's module shares the runner's process, so it can rewrite the runner's frames.
# They work on the bytes the runner writes (4-byte length, payload ending with the answer), through
# os.write, so that they need nothing of the runner's code but that it writes with os.write.

_LINE = 156  # a canonical line, LF included
_FORGED: list[bool] = []  # the rewrite is installed once
Rewrite = Callable[[bytes], list[bytes]]


def _rewrite_frames(rewrite: Rewrite) -> None:
    """Route the runner's frames through `rewrite(frames) -> frames`, one frame at a time (a write
    may hold several frames)."""
    real_write = os.write

    def write(fd: int, data: Buffer) -> int:
        data = bytes(data)
        frames, at = [], 0
        while fd not in (1, 2) and at + 4 <= len(data):
            size = int.from_bytes(data[at : at + 4], "big")
            frames.append(data[at + 4 : at + 4 + size])
            at += 4 + size
        if not frames or at != len(data):
            return real_write(fd, data)
        out = b"".join(len(o).to_bytes(4, "big") + bytes(o) for payload in frames for o in rewrite(payload))
        view = memoryview(out)  # what was one write stays one
        while view:
            view = view[real_write(fd, view) :]
        return len(data)

    os.write = write


def _is_line(payload: bytes) -> bool:
    return payload[-1:] == b"\n" and len(payload) > _LINE and payload[-_LINE:].count(b" ") == 51


def _patched_at(n: int, rewrite_for: Callable[[], Rewrite]) -> str:
    """From deal n on, rewrite the runner's answers with `rewrite_for()` (a stateful rewrite)."""
    if n == 3 and not _FORGED:
        _FORGED.append(True)
        _rewrite_frames(rewrite_for())
    return _correct(n)


def merger(n: int) -> str:
    """Deal 3's answer holds the lines of 3 and 4; deal 4's holds nothing: the digest is unchanged."""

    def rewrite_for() -> Rewrite:
        held: list[bytes | None] = []

        def rewrite(payload: bytes) -> list[bytes]:
            if not _is_line(payload):
                return [payload]
            if not held:
                held.append(payload)
                return []
            first = held.pop()
            assert first is not None
            return [first + payload[-_LINE:], payload[:-_LINE]]

        return rewrite

    return _patched_at(n, rewrite_for)


def cutter(n: int) -> str:
    """Deal 3's answer is the first half of its line, deal 4's the rest of it and line 4."""

    def rewrite_for() -> Rewrite:
        held: list[bytes | None] = []

        def rewrite(payload: bytes) -> list[bytes]:
            if not _is_line(payload) or len(held) > 1:
                return [payload]
            if not held:
                held.append(payload)
                return []
            first = held.pop()
            assert first is not None
            held.extend([None, None])
            head, line = first[:-_LINE], first[-_LINE:]
            return [head + line[:78], payload[:-_LINE] + line[78:] + payload[-_LINE:]]

        return rewrite

    return _patched_at(n, rewrite_for)


def shifter(n: int) -> str:
    """Deal 3's answer is empty, deal 4's holds the lines of 3 and 4."""

    def rewrite_for() -> Rewrite:
        held: list[bytes | None] = []

        def rewrite(payload: bytes) -> list[bytes]:
            if not _is_line(payload) or len(held) > 1:
                return [payload]
            if not held:
                held.append(payload)
                return []
            first = held.pop()
            assert first is not None
            held.extend([None, None])
            return [first[:-_LINE], payload[:-_LINE] + first[-_LINE:] + payload[-_LINE:]]

        return rewrite

    return _patched_at(n, rewrite_for)


def _forge_once(n: int, make: Rewrite, at: int = 3) -> str:
    if n == at:
        done: list[int] = []

        def rewrite(payload: bytes) -> list[bytes]:
            if done:
                return [payload]
            done.append(1)
            return make(payload)

        _rewrite_frames(rewrite)
    return _correct(n)


def bad_failure_frame(n: int) -> str:
    """Deal 3's answer is a failure frame whose body is not JSON."""
    return _forge_once(n, lambda payload: [b"F" + payload[1:-_LINE] + b"{not json"])


def unknown_failure_kind(n: int) -> str:
    """Deal 3's answer is a failure frame of a kind the harness has no name for."""
    return _forge_once(n, lambda payload: [b"F" + payload[1:-_LINE] + b'{"kind": "passed", "message": 1}'])


def huge_frame(n: int) -> str:
    """Deal 3's frame says it is 4 GB long, and nothing follows."""
    if n == 3:
        real_write = os.write

        def write(fd: int, data: Buffer) -> int:
            if fd in (1, 2):
                return real_write(fd, data)
            real_write(fd, b"\xff\xff\xff\xf0L")
            time.sleep(300)
            return len(bytes(data))

        os.write = write
    return _correct(n)


def extra_answer(n: int) -> str:
    """At deal 3 the dealer writes a second answer for deal 3 after the runner's own."""

    def make(payload: bytes) -> list[bytes]:
        return [payload, payload]

    return _forge_once(n, make)


def oversized_answer(n: int) -> str:
    """Deal 3's board text holds a 53rd card far past its first 52 (never cut to fit)."""
    line = _correct(n)
    return line + " " * 300_000 + "AC\n" if n == 3 else line


def endless_cards(n: int) -> Iterator[str] | list[str]:
    """Deal 3 returns an endless iterator of card names."""
    import itertools

    cards = _correct(n).split()
    return itertools.cycle(cards) if n == 3 else cards


def deep_nesting(n: int) -> object:
    """Deal 3 returns a list nested 1,000,000 deep."""
    if n == 3:
        value: list[object] = []
        for _ in range(1_000_000):
            value = [value]
        return value
    return _correct(n)


def repeated_card_line(n: int) -> str:
    """Deal 3's frame is well formed, but its line names one card twice."""

    def make(payload: bytes) -> list[bytes]:
        line = payload[-_LINE:]
        return [payload[:-_LINE] + line[3:6] + line[3:]]

    return _forge_once(n, make)


def repeated_card_line_late(n: int) -> str:
    """Deal 40's frame is well formed, but its line names one card twice (read among many frames)."""

    def make(payload: bytes) -> list[bytes]:
        line = payload[-_LINE:]
        return [payload[:-_LINE] + line[3:6] + line[3:]]

    return _forge_once(n, make, at=40)
