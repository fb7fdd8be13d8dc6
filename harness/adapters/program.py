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

import collections
import contextlib
import os
import select
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn

from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.cards import Board, BoardError, BoardFramer, RunawayOutput, canonical_line, read_board
from harness.errors import RequestError
from harness.failures import Failure

MAX_OUTPUT = 1 << 20  # bytes one deal may print (cmd:), or one board may take (stream:)
STDERR_TAIL = 400  # characters of stderr quoted in a crash
STALL_GRACE = 0.25  # seconds of silence before a stream program's stdin is closed to flush it
ISOLATE_LIMIT = 2000  # deals replayed one by one to find the one that crashed or hung a stream
_READ = 1 << 20


def split_command(text: str, what: str) -> list[str]:
    """The argument list of a command line; RequestError if it cannot be run."""
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise RequestError(f"{what}: cannot split the command line: {exc}") from None
    if not argv:
        raise RequestError(f"{what}: empty command")
    program = argv[0].replace("{n}", "1")
    if shutil.which(program) is None:
        raise RequestError(f"{what}: program not found or not executable: {program}")
    return argv


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def _exit_text(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exited with status {returncode}"


def _tail(data: bytes | collections.deque[bytes], encoding: str) -> str:
    raw = data if isinstance(data, bytes) else b"".join(data)
    try:
        text = raw.decode(encoding, "replace")
    except UnicodeError:  # stderr need not be in stdout's encoding (utf-16 wants its BOM)
        text = raw.decode("utf-8", "replace")
    text = " ".join(text.split())
    return text[-STDERR_TAIL:]


def _crash_message(returncode: int, stderr: str) -> str:
    return f"{_exit_text(returncode)}" + (f"; stderr: {stderr}" if stderr else "; no stderr")


@dataclass(slots=True)
class _Run:
    """What one short-lived process did."""

    stdout: bytes
    stderr: bytes
    returncode: int | None  # None: killed by us (timeout or too much output)
    timed_out: bool = False
    overflowed: bool = False


def _run_once(argv: list[str], stdin: bytes | None, timeout: float) -> _Run:
    """Run a program to its end, or kill it (with its children) at the timeout or output cap."""
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    if stdin is not None:
        assert proc.stdin is not None
        threading.Thread(target=_write_all, args=(proc.stdin, stdin, True), daemon=True).start()
    assert proc.stdout is not None and proc.stderr is not None
    out, err = bytearray(), collections.deque[bytes](maxlen=64)
    open_fds = {proc.stdout.fileno(): out, proc.stderr.fileno(): None}
    deadline = time.monotonic() + timeout if timeout > 0 else None
    run = _Run(b"", b"", None)
    try:
        while open_fds:
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                run.timed_out = True
                break
            ready, _, _ = select.select(list(open_fds), [], [], wait)
            for fd in ready:
                chunk = os.read(fd, _READ)
                if not chunk:
                    del open_fds[fd]
                elif open_fds[fd] is None:
                    err.append(chunk)
                else:
                    out.extend(chunk)
            if len(out) > MAX_OUTPUT:
                run.overflowed = True
                break
        if run.timed_out or run.overflowed:
            _kill_group(proc)
            proc.wait()
        else:
            run.returncode = proc.wait(timeout=max(1.0, timeout))
    finally:
        _kill_group(proc)  # children left behind by a program that has ended
        proc.stdout.close()
        proc.stderr.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    run.stdout, run.stderr = bytes(out), b"".join(err)
    return run


def _write_all(pipe: object, data: bytes, close: bool) -> None:
    """Feed a pipe from a thread, so that a big block cannot deadlock against the program's output."""
    try:
        pipe.write(data)  # type: ignore[attr-defined]
        pipe.flush()  # type: ignore[attr-defined]
        if close:
            pipe.close()  # type: ignore[attr-defined]
    except (BrokenPipeError, OSError, ValueError):
        pass  # the program has gone: its exit status tells the story


def _judge(number: int, run: _Run, encoding: str, timeout: float, *, stream: bool) -> Answer:
    """The answer for one deal from a program run just for it."""
    if run.timed_out:
        return Failure(number, "timeout", f"no answer within {timeout:g} s (killed with its children)")
    if run.overflowed:
        return Failure(number, "invalid-output", f"more than {MAX_OUTPUT} bytes of output (killed)")
    assert run.returncode is not None
    if run.returncode != 0:
        return Failure(number, "crash", _crash_message(run.returncode, _tail(run.stderr, encoding)))
    if stream:
        framer = BoardFramer(encoding)
        boards = framer.feed(run.stdout)
        end = framer.finish()
        if not boards:
            why = str(end) if end else "no board in the output"
            return Failure(number, "invalid-output", why)
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
            run = _run_once(argv, None, self.options.timeout)
            answers.append(_judge(number, run, self.options.encoding, self.options.timeout, stream=False))
        return answers


class _StderrTail(threading.Thread):
    def __init__(self, pipe: object) -> None:
        super().__init__(daemon=True)
        self.pipe = pipe
        self.chunks: collections.deque[bytes] = collections.deque(maxlen=64)

    def run(self) -> None:
        try:
            while chunk := self.pipe.read1(_READ):  # type: ignore[attr-defined]
                self.chunks.append(chunk)
        except (OSError, ValueError):
            pass


class _Ended(Exception):
    """The stream process stopped answering after `answers`; `failure` is at the next deal."""

    def __init__(self, answers: list[Answer], failure: Failure | None) -> None:
        super().__init__(failure.message if failure else "restart")
        self.answers, self.failure = answers, failure


class StreamDealer(Dealer):
    """`stream:COMMAND`: one long-lived process, deal numbers on stdin, boards framed by 52 cards."""

    @classmethod
    def check(cls, argument: str, options: DealerOptions) -> None:
        split_command(argument, f"stream:{argument}")

    def __init__(self, command: str, options: DealerOptions) -> None:
        self.impl = f"stream:{command}"
        self.argv = split_command(command, self.impl)
        self.options = options
        self.close_stdin = False  # learned: the program writes only when its stdin ends
        self._proc: subprocess.Popen[bytes] | None = None
        self._framer = BoardFramer(options.encoding)
        self._stderr: _StderrTail | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        self._stderr = _StderrTail(proc.stderr)
        self._stderr.start()
        self._framer = BoardFramer(self.options.encoding)
        self._proc = proc
        return proc

    def _stop(self) -> int | None:
        """End the process (and its group); its exit status if it had ended by itself."""
        proc, self._proc = self._proc, None
        if proc is None:
            return None
        returncode = proc.poll()
        _kill_group(proc)
        for pipe in (proc.stdin, proc.stdout):
            try:
                if pipe:
                    pipe.close()
            except OSError:
                pass
        proc.wait()
        if self._stderr:
            self._stderr.join(timeout=1)
        return returncode

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
        """Replay deals one process each until one fails; that failure ends the list."""
        answers: list[Answer] = []
        for number in todo[:ISOLATE_LIMIT]:
            run = _run_once(self.argv, f"{number}\n".encode(), self.options.timeout)
            answer = _judge(number, run, self.options.encoding, self.options.timeout, stream=True)
            answers.append(answer)
            if isinstance(answer, Failure):
                return answers
        # Every deal answered alone: the process failed from something deals did together.
        return [Failure(todo[0], failure.kind, failure.message + " (and alone every deal answered)")]

    def _batch(self, batch: list[int]) -> list[Answer]:
        proc = self._proc if self._proc is not None and self._proc.poll() is None else self._start()
        assert proc.stdin is not None and proc.stdout is not None
        data = "".join(f"{n}\n" for n in batch).encode()
        writer = threading.Thread(target=_write_all, args=(proc.stdin, data, self.close_stdin), daemon=True)
        writer.start()
        stdin_closed = self.close_stdin
        answers: list[Answer] = []
        fd = proc.stdout.fileno()
        timeout = self.options.timeout
        last_board = last_byte = time.monotonic()
        while len(answers) < len(batch):
            now = time.monotonic()
            waits = [STALL_GRACE] if not stdin_closed else []
            if timeout > 0:
                waits.append(max(0.0, last_board + timeout - now))
            ready, _, _ = select.select([fd], [], [], min(waits) if waits else None)
            now = time.monotonic()
            if ready:
                chunk = os.read(fd, _READ)
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
                _write_all(proc.stdin, b"", True)
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
        number = batch[len(answers)]
        unfinished = self._framer.finish()
        returncode = self._stop()
        if failure is None:
            stderr = _tail(self._stderr.chunks, self.options.encoding) if self._stderr else ""
            if returncode not in (0, None):
                failure = Failure(number, "crash", _crash_message(returncode, stderr))
            elif unfinished is not None:
                failure = Failure(number, "invalid-output", str(unfinished))
            else:
                failure = Failure(number, "crash", f"the program ended (status 0) before answering deal {number}")
        raise _Ended(answers, failure)

    def reset(self) -> None:
        self._stop()

    def close(self) -> None:
        self._stop()
