"""IMPL `cmd:TEMPLATE` (one process per deal) and `stream:COMMAND` (one long-lived process).

Programs run without a shell (the command line is split like a POSIX shell would, `shlex`), each
in its own process group so that a hang is killed with its children.  Output is read leniently
(`harness.cards`); bytes that are not valid in the chosen encoding are read as U+FFFD and make
that board `invalid-output`, never an exception.

A stream program gets the deal numbers of a block on stdin, one per line, and stdin stays open
so the process lives on to the next block.  A program that only writes its output when its
stdin ends (full buffering) is noticed when its output stalls: its stdin is then closed, and
from then on every block gets a fresh process whose stdin is closed after the numbers.  When a
stream process crashes, hangs or ends early, the deals it left unanswered are replayed one per
process until the one that fails is found (so buffered output lost in the crash cannot shift
the blame), and the rest of the block goes to a fresh process.
"""

from __future__ import annotations

import contextlib
import shlex
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from harness import process
from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.cards import Board, BoardError, BoardFramer, RunawayOutput, canonical_line, read_board
from harness.errors import RequestError
from harness.failures import Failure
from harness.impl_hints import shell_hint

MAX_OUTPUT = 1 << 20  # bytes one deal may print (cmd:), or one board may take (stream:)
STALL_GRACE = 0.25  # seconds of silence before a stream program's stdin is closed to flush it


def split_command(text: str, what: str) -> list[str]:
    """The argument list of a command line; RequestError if it cannot be run."""
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise RequestError(f"{what}: cannot split the command line: {exc}") from None
    if not argv:
        raise RequestError(f"{what}: empty command")
    if hint := shell_hint(argv, text, what.partition(":")[0]):
        raise RequestError(f"{what}: {hint}")
    program = argv[0].replace("{n}", "1")
    if shutil.which(program) is None:
        raise RequestError(f"{what}: program not found or not executable: {program}")
    return argv


def program_files(command: str) -> list[Path]:
    """The files a command line names: its program (found on PATH) and its arguments that are files."""
    with contextlib.suppress(ValueError):
        argv = [a.replace("{n}", "1") for a in shlex.split(command)]
        found = shutil.which(argv[0]) if argv else None
        return [Path(c) for c in ([found] if found else []) + argv[1:]]
    return []


def _judge(number: int, run: process.Run, encoding: str, timeout: float, *, stream: bool) -> Answer:
    """The answer for one deal from a program run just for it."""
    if run.timed_out:
        return Failure(number, "timeout", f"no answer within {timeout:g} s (killed with its children)")
    if run.overflowed:
        return Failure(number, "invalid-output", f"more than {MAX_OUTPUT} bytes of output (killed)")
    assert run.returncode is not None
    if run.returncode != 0:
        return Failure(number, "crash", run.child.describe_exit(encoding))
    if stream:
        framer = BoardFramer(encoding)
        boards = framer.feed(run.stdout)
        end = framer.finish()
        if isinstance(end, bytes):
            boards.append(end)
        elif end is not None and not boards:
            return Failure(number, "invalid-output", str(end))
        if not boards:
            return Failure(number, "crash", f"the program ended (status 0) without answering deal {number}")
        return _answer(number, boards[0])
    text = run.stdout.decode(encoding, "replace")
    if "\ufffd" in text:
        line = next(i for i, ln in enumerate(text.splitlines(), 1) if "\ufffd" in ln)
        return Failure(number, "invalid-output", f"line {line} holds bytes that are not valid {encoding}")
    try:
        return canonical_line(read_board(text))
    except BoardError as exc:
        return Failure(number, "invalid-output", str(exc))


def _answer(number: int, board: Board) -> Answer:
    if isinstance(board, BoardError):
        return Failure(number, "invalid-output", str(board))
    return board


class CommandDealer(Dealer):
    """`cmd:TEMPLATE`: one process per deal; `{n}` is replaced by the deal number (or appended)."""

    kind, form = "cmd", "cmd:TEMPLATE"

    @classmethod
    def build_files(cls, argument: str) -> list[Path]:
        return program_files(argument)

    @classmethod
    def check(cls, argument: str, options: DealerOptions) -> None:
        split_command(argument, f"cmd:{argument}")

    def __init__(self, template: str, options: DealerOptions) -> None:
        self.impl = f"cmd:{template}"
        self.argv = split_command(template, self.impl)
        if not any("{n}" in a for a in self.argv):
            self.argv.append("{n}")
        self.options = options

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        answers: list[Answer] = []
        for number in deals:
            argv = [a.replace("{n}", str(number)) for a in self.argv]
            run = process.run(argv, None, self.options.timeout, MAX_OUTPUT, self.options.limits)
            answers.append(_judge(number, run, self.options.encoding, self.options.timeout, stream=False))
        return answers


class _Ended(Exception):
    """The stream process stopped answering after `answers`; `failure` is at the next deal."""

    def __init__(self, answers: list[Answer], failure: Failure | None) -> None:
        super().__init__(failure.message if failure else "restart")
        self.answers, self.failure = answers, failure


class StreamDealer(Dealer):
    """`stream:COMMAND`: one long-lived process, deal numbers on stdin, boards framed by 52 cards."""

    kind, form = "stream", "stream:COMMAND"

    @classmethod
    def build_files(cls, argument: str) -> list[Path]:
        return program_files(argument)

    @classmethod
    def check(cls, argument: str, options: DealerOptions) -> None:
        split_command(argument, f"stream:{argument}")

    def __init__(self, command: str, options: DealerOptions) -> None:
        self.impl = f"stream:{command}"
        self.argv = split_command(command, self.impl)
        self.options = options
        self.close_stdin = False  # learned: the program writes only when its stdin ends
        self._proc: process.Child | None = None
        self._framer = BoardFramer(options.encoding)

    def _start(self) -> process.Child:
        self._framer = BoardFramer(self.options.encoding)
        self._proc = process.spawn(self.argv, limits=self.options.limits)
        return self._proc

    def _stop(self) -> int | None:
        """End the process (and every descendant); its exit status if it had ended by itself."""
        proc, self._proc = self._proc, None
        if proc is None:
            return None
        returncode = proc.wait(0)
        proc.kill()
        return returncode

    def reset(self) -> None:
        self._stop()

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        answers: list[Answer] = []
        todo = list(deals)
        while todo:
            try:
                answers.extend(self._batch(todo))
                todo = []
            except _Ended as ended:
                answers.extend(ended.answers)
                todo = todo[len(ended.answers) :]
                if ended.failure is None:
                    continue
                isolated = self._isolate(todo, ended.failure)
                answers.extend(isolated)
                todo = todo[len(isolated) :]
        return answers

    def _isolate(self, todo: list[int], failure: Failure) -> list[Answer]:
        return process.pin_failure(todo, failure, self._alone)

    def _alone(self, number: int) -> Answer:
        run = process.run(self.argv, f"{number}\n".encode(), self.options.timeout, MAX_OUTPUT, self.options.limits)
        return _judge(number, run, self.options.encoding, self.options.timeout, stream=True)

    def _batch(self, batch: list[int]) -> list[Answer]:
        proc = self._proc if self._proc is not None and self._proc.alive() else self._start()
        data = "".join(f"{n}\n" for n in batch).encode()
        writer = proc.write_in_background(data, close=self.close_stdin)
        stdin_closed = self.close_stdin
        answers: list[Answer] = []
        timeout = self.options.timeout
        last_board = last_byte = time.monotonic()
        while len(answers) < len(batch):
            now = time.monotonic()
            waits = [STALL_GRACE] if not stdin_closed else []
            if timeout > 0:
                waits.append(max(0.0, last_board + timeout - now))
            chunk = proc.read(min([*waits, process.LIVENESS_S]))
            now = time.monotonic()
            if chunk is None and not proc.alive():  # ended, while what it left behind keeps stdout open
                chunk = proc.read(0) or b""
            if chunk is not None:
                if not chunk:
                    self._ended(batch, answers, None)
                last_byte = now
                for board in self._framer.feed(chunk):
                    if len(answers) < len(batch):
                        answers.append(_answer(batch[len(answers)], board))
                    last_board = now
                    if isinstance(board, RunawayOutput):  # framing is lost: start afresh
                        self._stop()
                        raise _Ended(answers, None)
                continue
            if not stdin_closed and not writer.is_alive() and now - last_byte >= STALL_GRACE:
                proc.close_stdin()
                stdin_closed = self.close_stdin = True
                continue
            if timeout > 0 and now - last_board >= timeout:
                self._ended(
                    batch,
                    answers,
                    Failure(
                        batch[len(answers)], "timeout", f"no answer within {timeout:g} s (killed with its children)"
                    ),
                )
        if stdin_closed:
            self._stop()
        return answers

    def _ended(self, batch: list[int], answers: list[Answer], failure: Failure | None) -> NoReturn:
        """The process stopped answering: raise _Ended with what it did answer."""
        unfinished = self._framer.finish()
        proc = self._proc
        returncode = self._stop()
        if isinstance(unfinished, bytes) and failure is None:
            answers.append(unfinished)  # the last board's last line had no newline
            unfinished = None
            if len(answers) == len(batch):
                raise _Ended(answers, None)
        number = batch[len(answers)]
        if failure is None:
            if returncode not in (0, None) and proc is not None:
                failure = Failure(number, "crash", proc.describe_exit(self.options.encoding))
            elif unfinished is not None:
                failure = Failure(number, "invalid-output", str(unfinished))
            else:
                failure = Failure(number, "crash", f"the program ended (status 0) before answering deal {number}")
        raise _Ended(answers, failure)

    def close(self) -> None:
        self._stop()
