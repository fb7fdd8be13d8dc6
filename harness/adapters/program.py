"""IMPL `cmd:TEMPLATE`: one process per deal; and what every program dealer shares (`stream:` is
`harness.adapters.stream`).

Programs run without a shell (the command line is split like a POSIX shell would, `shlex`), each
in its own process group so that a hang is killed with its children.  Output is read leniently
(`harness.cards`); bytes that are not valid in the chosen encoding are read as U+FFFD and make
that board `invalid-output`, never an exception.

A process's first answer gets `--startup-timeout` on top of `--timeout` until the process shows
it has started (it reads its stdin or writes): a slow start is not a slow deal.
"""

from __future__ import annotations

import collections
import contextlib
import shlex
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from harness import process
from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.cards import BoardError, board_given, canonical_line, read_board
from harness.errors import RequestError
from harness.failures import Failure
from harness.impl_hints import shell_hint
from reference.cards import CARD_NAMES, COLUMN_ORDER, COLUMN_SHAPE, LINE_BYTES, LINE_SHAPE, ROW_SHAPE

AHEAD_OF_A_CALL = 2  # processes of a `cmd:` dealer's next call asked for as a call ends
MAX_OUTPUT = 1 << 20  # bytes one deal may print (cmd:), or one board may take (stream:)


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


def timeout_failure(
    number: int, options: DealerOptions, *, started: bool, stderr: str = "", answered_before: bool = False
) -> Failure:
    """No answer in time: after the process started (--timeout), or before it showed it had started; what it
    wrote on stderr (a crash report of a process that did not end) quoted.  A program that answered before
    (other deals, in other processes) is not said not to have started: what this process did is said."""
    said = f"; stderr: {stderr}" if stderr else ""
    if started:
        return Failure(number, "timeout", f"no answer within {options.timeout:g} s (killed with its children){said}")
    within = options.startup_timeout + options.timeout
    bounds = f"--startup-timeout {options.startup_timeout:g} s + --timeout {options.timeout:g} s"
    if stderr or answered_before:
        what = "this process wrote only to stderr" if stderr else "this process neither read its input nor wrote"
        before = ", though the program had answered deals before" if answered_before else ""
        message = f"no answer within {within:g} s: {what} within {bounds}{before} (killed with its children){said}"
    else:
        message = (
            f"no answer within {within:g} s: the program did not start (read its input or write) within "
            f"{bounds} (killed with its children)"
        )
    return Failure(number, "timeout", message)


def run_failure(
    number: int, run: process.Run, options: DealerOptions, *, framed: bool, answered_before: bool = False
) -> Failure | None:
    """Why a program run just for one deal gave no output to read (a timeout, too much output, a crash), or
    None (`framed`: its output is a stream's, whose answers are framed, not quoted; `answered_before`: another
    of its processes answered a deal)."""
    encoding = options.encoding
    if run.timed_out:
        stderr = run.child.stderr_text(encoding)
        return timeout_failure(number, options, started=run.started, stderr=stderr, answered_before=answered_before)
    if run.overflowed:
        return Failure(number, "invalid-output", f"more than {MAX_OUTPUT} bytes of output (killed)")
    assert run.returncode is not None
    if run.returncode != 0:
        printed = "" if framed else run.stdout.decode(encoding, "replace")
        return Failure(number, "crash", run.child.describe_exit(encoding, printed))
    return None


def _judge(number: int, run: process.Run, options: DealerOptions, *, answered_before: bool = False) -> Answer:
    """The answer for one deal from a process of a `cmd:` dealer run just for it."""
    failure = run_failure(number, run, options, framed=False, answered_before=answered_before)
    if failure is not None:
        return failure
    encoding = options.encoding
    plain = _plain_board(run.stdout, encoding)
    if plain is not None:
        return plain
    text = run.stdout.decode(encoding, "replace")
    if "\ufffd" in text:
        line = next(i for i, ln in enumerate(text.splitlines(), 1) if "\ufffd" in ln)
        return Failure(number, "invalid-output", f"line {line} holds bytes that are not valid {encoding}")
    try:
        return canonical_line(read_board(text))
    except BoardError as exc:
        said = run.child.stderr_text(encoding)  # why it printed no board, maybe
        message = str(exc) + (f"; stderr: {said}" if said else "")
        return Failure(number, "invalid-output", message, None, board_given(exc))


_DECK: Final = frozenset(name.encode("ascii") for name in CARD_NAMES)
_PLAIN_SHAPES: Final = (ROW_SHAPE, COLUMN_SHAPE, LINE_SHAPE)


def _plain_board(output: bytes, encoding: str) -> bytes | None:
    """The canonical line of a program's whole output when it is the 52 different card names as SPEC writes
    them (`JD`), one space apart, in rows, columns or one line, each line ended by LF, and the same ASCII text
    in `encoding`: what the precise reader would read it as, at a fraction of the cost.  None for anything
    else (another spelling, other whitespace, a header): the precise reader reads it."""
    if len(output) != LINE_BYTES or output[-1:] != b"\n":
        return None  # 52 names, and 51 spaces or LFs between them, then one LF: in each layout, 156 bytes
    names = [line.split(b" ") for line in output[:-1].split(b"\n")]
    shape = tuple(map(len, names))
    flat = [name for line in names for name in line]
    if shape not in _PLAIN_SHAPES or set(flat) != _DECK:
        return None
    try:
        if output.decode(encoding) != output.decode("ascii"):
            return None
    except (ValueError, LookupError):
        return None
    if shape == COLUMN_SHAPE:
        flat = [flat[i] for i in COLUMN_ORDER]
    return b" ".join(flat) + b"\n"


class CommandDealer(Dealer):
    """`cmd:TEMPLATE`: one process per deal; `{n}` is replaced by the deal number (or appended)."""

    kind, form = "cmd", "cmd:TEMPLATE"

    @classmethod
    def build_files(cls, argument: str) -> list[Path]:
        return program_files(argument)

    # A process per deal costs the same in chunks of any size: small ones count progress often.
    largest_chunk = 16

    @classmethod
    def check(cls, argument: str, options: DealerOptions) -> None:
        split_command(argument, f"cmd:{argument}")

    def __init__(self, template: str, options: DealerOptions) -> None:
        self.impl = f"cmd:{template}"
        self.argv = split_command(template, self.impl)
        if not any("{n}" in a for a in self.argv):
            self.argv.append("{n}")
        self.options = options
        self.answered = False  # a process of it has answered a deal with a board
        self._ahead: list[tuple[int, process.Running]] = []  # the next call's first deals' processes

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        return self._answers(deals, until_failure=False)

    def answers_until_failure(self, deals: Sequence[int], *coming: Sequence[int]) -> list[Answer]:
        """The answers up to and including the first failure: what a comparison needs.  `coming`: the deals
        each of the next calls will ask for; the first two of them are asked for as these end."""
        return self._answers(deals, until_failure=True, then=coming[0][:AHEAD_OF_A_CALL] if coming else ())

    def start_early(self) -> None:
        """Its spawner started (some 20 ms where it is the one in Python) while the other dealer prepares."""
        with contextlib.suppress(OSError):
            process.start_spawner(self.options.limits)

    def reset(self) -> None:
        self._drop_ahead()

    def close(self) -> None:
        self._drop_ahead()

    def _drop_ahead(self) -> None:
        for _, ahead in self._ahead:
            ahead.child.kill()
        self._ahead = []

    def _argv(self, number: int) -> list[str]:
        return [a.replace("{n}", str(number)) for a in self.argv]

    def _answers(self, deals: Sequence[int], *, until_failure: bool, then: Sequence[int] = ()) -> list[Answer]:
        """One process per deal, one at a time, each asked for before the last output is judged (the spawner
        starts it once the last tree is gone); each deal's output is judged while the next deal's process
        runs (killed if that judgement is the failure a comparison stops at).  The processes of `then`, the
        next call's first deals, are asked for too, and kept for it (unless this call ends in a failure)."""
        answers: list[Answer] = []
        o = self.options
        ended: list[process.Child] = []  # what they left outside their groups is swept once, at the end
        done: tuple[int, process.Run] | None = None  # run, not judged yet
        queue = collections.deque(self._ahead)  # the processes asked for, of deals[i], deals[i + 1] …
        self._ahead = []
        if [n for n, _ in queue] != list(deals[: len(queue)]):  # another call than the one they were for
            queue, self._ahead = collections.deque(), list(queue)
            self._drop_ahead()
        for _, ahead in queue:
            ahead.resumed()

        sequence = [*deals, *then]
        asked = len(queue)  # of `sequence`, the processes asked for so far

        def ask_until(end: int) -> None:
            """Ask for the processes of sequence[asked:end], each to start once the one before it has ended."""
            nonlocal asked
            while asked < end:
                number = sequence[asked]
                if not queue:
                    argv = self._argv(number)
                    asking = process.start(argv, None, o.timeout, MAX_OUTPUT, o.limits, startup=o.startup_timeout)
                elif (following := queue[-1][1].followed_by(self._argv(number))) is not None:
                    asking = following
                else:
                    return  # its spawner is gone: it is started afresh when its turn comes
                queue.append((number, asking))
                asked += 1

        try:
            for i, number in enumerate(deals):
                ask_until(min(i + 2, len(sequence)))  # this deal's, and the next one's
                if done is not None:
                    answers.append(self._judge(*done))
                    done = None
                    if until_failure and isinstance(answers[-1], Failure):
                        break
                got, running = queue.popleft()
                assert got == number, (got, number)
                run = running.finish(sweep=False)
                ended.append(run.child)
                done = (number, run)
            if done is not None:
                answers.append(self._judge(*done))
                if then and not (until_failure and isinstance(answers[-1], Failure)):
                    ask_until(len(sequence))
                    self._ahead, queue = list(queue), collections.deque()
        finally:
            for _, left in queue:
                left.child.kill()
            process.sweep(ended)
        return answers

    def _judge(self, number: int, run: process.Run) -> Answer:
        answer = _judge(number, run, self.options, answered_before=self.answered)
        self.answered = self.answered or isinstance(answer, bytes)
        return answer
