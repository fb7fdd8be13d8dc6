"""IMPL `stream:COMMAND`: one long-lived process, deal numbers on stdin, boards framed from its
output (`harness.framing`), taken in bulk where their layout is fixed (`harness.fixed_layout`).

A stream program gets the deal numbers of a block on stdin, one per line, and stdin stays open
so the process lives on to the next block.  A program that only writes its output when its
stdin ends (full buffering) is told by what it does, not by how long it is silent: it has read
every number it was given, has not answered them all, and every thread of it waits (none runs).
Its stdin is then closed, so that it writes and ends, and the next chunk gets a fresh process,
judged afresh; the dealer's `notes` say so.  When a stream process crashes, hangs or ends early,
the deals it left unanswered are replayed one per process until the one that fails is found (so
buffered output lost in the crash cannot shift the blame), and the rest of the block goes to a
fresh process.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import itertools
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import NoReturn

import numpy as np

from harness import process
from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.adapters.pinning import pin_failure
from harness.adapters.program import MAX_OUTPUT, program_files, run_failure, split_command, timeout_failure
from harness.cards import BoardError, RunawayOutput, board_given
from harness.failures import Failure
from harness.fixed_layout import FixedLayout, fixed_layout
from harness.framing import Board, BoardFramer
from harness.process import LIVENESS_S
from reference.cards import LINE_BYTES

BULK_PIECE = 1 << 16  # deals a bulk digest asks a stream program for at once (their lines held: 10 MB at most)
RELEARNS = 4  # a header's number grows a digit at most once in a batch of BULK_PIECE deals
MAX_LEARNT = 1 << 14  # bytes a board's layout is learnt from, at most (as `harness.framing.MAX_PENDING`)
BULK_HOLD = 1 << 18  # bytes of output gathered before they are taken in bulk
FIXED_TRIES = 4  # boards a fixed layout is sought in, per process, before a program is read the precise way only
PIPE_BYTES = 1 << 20  # a stream program's stdin and stdout pipes, where the system allows
IDLE_POLL_S = (0.002, 0.05)  # how often a silent stream program is looked at, first and at most
BUFFERING_NOTE = (
    "the program wrote its answers only when its stdin ended (it waited for more input with answers "
    "unwritten), so each chunk was dealt by a process of its own"
)
ENDING_NOTE = (
    "the program ended by itself (status 0) after answering some deals, so the deals after each end "
    "were dealt by a fresh process"
)


def numbers_text(deals: Sequence[int]) -> bytes:
    """The deal numbers, one a line, as a program reads them; a range's digits are made in arrays, a
    number of digits at a time."""
    if not (isinstance(deals, range) and deals.step == 1 and len(deals) > 64 and deals.start >= 0):
        return "".join(f"{n}\n" for n in deals).encode()
    parts, first = [], deals.start
    while first < deals.stop:
        digits = len(str(first))
        stop = min(deals.stop, 10**digits)
        numbers = np.arange(first, stop, dtype=np.int64)
        text = np.empty((stop - first, digits + 1), dtype=np.uint8)
        text[:, digits] = ord("\n")
        for place in range(digits - 1, -1, -1):
            numbers, text[:, place] = np.divmod(numbers, 10)
        text[:, :digits] += ord("0")
        parts.append(text.tobytes())
        first = stop
    return b"".join(parts)


def _same_deals(a: Sequence[int], b: Sequence[int]) -> bool:
    return len(a) == len(b) and (a == b if type(a) is type(b) else list(a) == list(b))


class _Bulk:
    """The boards of one batch taken in bulk by a fixed layout, their canonical lines hashed as they come.

    It holds what it took (at most a batch's lines) until the batch ends, so that a batch that must
    go the precise way part-way (`leave`) hands every deal its own answer, as the precise reader would."""

    def __init__(
        self,
        layout: FixedLayout,
        hasher: hashlib._Hash,
        relearn: Callable[[bytes], FixedLayout | None],
        hashing: ThreadPoolExecutor,
    ) -> None:
        self.layout, self._hasher = layout, hasher
        self._hashing = hashing  # one thread: the lines are hashed in order, while the next ones are read
        self._hashed: Future[None] | None = None  # the last lines handed to it
        self._relearn = relearn  # the layout of the board at the start of some output (a header grew a digit)
        self.count = 0  # boards taken
        self.left = False  # whether the batch went the precise way part-way
        self.unfit: bytes | None = None  # output from the first board that did not fit, if one did not
        self._held: list[bytes | memoryview] = []
        self._pending: list[bytes] = []
        self._pending_size = 0
        self._used = 0  # bytes of its data the last `_take` took
        self._wanted = 0
        self._relearns_left = RELEARNS  # layouts learnt again in one batch, at most (each took a board)
        self.spills = False  # whether output past the boards wanted is the next batch's (its deals written ahead)
        self.spill = b""  # that output, once the boards wanted were all taken

    def feed(self, chunk: bytes, wanted: int) -> bytes | None:
        """Take the whole boards the output has so far (up to `wanted` in all); None while every one
        fitted, else the bytes from the first board that did not (for the precise reader).  Each chunk
        read is taken where it lies (only a board split between two reads is joined)."""
        self._pending.append(chunk)
        self._pending_size += len(chunk)
        self._wanted = wanted
        width = self.layout.width
        if self._pending_size < min(BULK_HOLD, (wanted - self.count) * width):
            return None
        parts, self._pending = self._pending, []
        tail = b""  # the start of a board split between two reads
        for i, part in enumerate(parts):
            view = memoryview(part)
            if tail:
                need = width - len(tail)
                tail += bytes(view[:need])
                view = view[need:]
                if len(tail) < width:
                    continue
                if not self._take(tail, wanted):
                    return self._unfit([tail, view, *parts[i + 1 :]])
                tail = b""
            whole = min(len(view) // width, wanted - self.count) * width
            if whole and not self._take(view[:whole], wanted):
                return self._unfit([view[self._used :], *parts[i + 1 :]])
            tail = bytes(view[whole:])
            if self.count == wanted and (tail or i + 1 < len(parts)):
                if self.spills:
                    self.spill = b"".join([tail, *parts[i + 1 :]])
                    self._pending, self._pending_size = [], 0
                    return None
                return self._unfit([tail, *parts[i + 1 :]], fitted=True)
        self._pending = [tail] if tail else []
        self._pending_size = len(tail)
        return None

    def _take(self, data: bytes | memoryview, wanted: int) -> bool:
        """Take the boards of `data` (whole boards, at most those wanted); whether every one fitted."""
        taken = self.layout.take(data)
        self._used = taken.used
        if taken.count:
            self._hashed = self._hashing.submit(self._hasher.update, taken.lines)
            self._held.append(taken.lines)
            self.count += taken.count
        return taken.used == len(data)

    def _unfit(self, rest: list[bytes | memoryview], *, fitted: bool = False) -> bytes | None:
        """Leave with the bytes not taken (from a board that did not fit, unless `fitted`: more output
        than boards wanted)."""
        data = b"".join(rest)
        if not fitted and self._relearns_left > 0:
            self._relearns_left -= 1
            relearnt = self._relearn(data[:MAX_LEARNT])
            if relearnt is not None and relearnt.take(data[: relearnt.width]).count == 1:
                self.layout, self._pending_size = relearnt, 0  # taken in bulk on by the board's own layout
                return self.feed(data, self._wanted)
        if not fitted:
            self.unfit = data[: 4 * self.layout.width]
        self._pending, self._pending_size = [data], len(data)
        return self.leave_with_rest()

    @property
    def hasher(self) -> hashlib._Hash:
        """The digest so far, once every board taken is hashed."""
        if self._hashed is not None:
            self._hashed.result()
        return self._hasher

    @property
    def seen(self) -> int:
        """Boards whose bytes have all come (taken, or held to be taken)."""
        return self.count + self._pending_size // self.layout.width

    def leave_with_rest(self) -> bytes:
        """The bytes not taken; from now on the batch goes the precise way."""
        self.left = True
        rest = b"".join(self._pending)
        self._pending, self._pending_size = [], 0
        return rest

    def answers(self) -> list[Answer]:
        """The boards taken, one answer per deal."""
        blob = b"".join(self._held)
        self._held = []
        return [blob[i : i + LINE_BYTES] for i in range(0, len(blob), LINE_BYTES)]


def _judge_alone(number: int, run: process.Run, options: DealerOptions, *, answered_before: bool) -> Answer:
    """The answer for one deal from a stream program run just for it (its output framed)."""
    failure = run_failure(number, run, options, framed=True, answered_before=answered_before)
    if failure is not None:
        return failure
    encoding = options.encoding
    framer = BoardFramer(encoding)
    boards = framer.feed(run.stdout)
    end = framer.finish()
    if isinstance(end, bytes):
        boards.append(end)
    elif end is not None and not boards:
        return Failure(number, "invalid-output", str(end))
    if not boards:
        return no_board(number, run.child, framer.unread, encoding)
    return _answer(number, boards[0])


QUOTED_TEXT = 200  # characters quoted of what a program wrote instead of a board


def no_board(number: int, child: process.Child, unread: str, encoding: str) -> Failure:
    """A program that ended (status 0) with no board for deal `number`: `invalid-output` quoting what it
    wrote instead (`unread`: text that was no board), else a `crash`; its stderr quoted either way."""
    said = child.stderr_text(encoding)
    stderr = f"; stderr: {said}" if said else ""
    if unread:
        text = unread if len(unread) <= QUOTED_TEXT else unread[: QUOTED_TEXT - 1] + "…"
        return Failure(number, "invalid-output", f"no board for deal {number}: it wrote {text!r}, then ended{stderr}")
    return Failure(number, "crash", f"the program ended (status 0) without answering deal {number}{stderr}")


def _answer(number: int, board: Board) -> Answer:
    if isinstance(board, BoardError):
        return Failure(number, "invalid-output", str(board), None, board_given(board))
    return board


class _Ended(Exception):
    """The stream process stopped answering after `answers`; `failure` is at the next deal."""

    def __init__(self, answers: list[Answer], failure: Failure | None) -> None:
        super().__init__(failure.message if failure else "restart")
        self.answers, self.failure = answers, failure


class StreamDealer(Dealer):
    """`stream:COMMAND`: one long-lived process, deal numbers on stdin, boards framed by 52 cards."""

    kind, form = "stream", "stream:COMMAND"
    may_read_in_bulk = True

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
        self.buffered_processes = 0  # processes whose stdin was closed to make them write
        self.ended_processes = 0  # processes that ended with status 0 after answering, the rest dealt afresh
        self._answered = 0  # deals the running process has answered
        self.answered = False  # a process of it has answered a deal with a board
        # Seen at a deadline to hold its answers until its stdin ended: every later chunk's stdin is closed
        # once written (each chunk dealt by a process of its own, as BUFFERING_NOTE says).
        self._answers_at_end = False
        self._closed_for_answers = False  # see _batch
        self._proc: process.Child | None = None
        self._framer = BoardFramer(options.encoding)
        self._spawned = 0.0
        self._started_at: float | None = None  # when the process showed it had started
        self._fixed: FixedLayout | None = None  # how every board of this output is laid out, once learnt
        self._fixed_tries = FIXED_TRIES
        self._hashing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hash")
        # The deals of the next batch, written to the running process ahead (so that it never waits for its
        # input between two batches of a digest), and what it has written of them so far: output bytes not
        # yet framed (after boards taken in bulk) and boards already framed.
        self._ahead: Sequence[int] | None = None
        self._spill = b""
        self._carried: list[Board] = []
        self._writer: threading.Thread | None = None  # the running process's last writer of deal numbers

    @property
    def notes(self) -> list[str]:
        """What the verdict should say about how this dealer was run."""
        return [BUFFERING_NOTE] * bool(self.buffered_processes) + [ENDING_NOTE] * bool(self.ended_processes)

    def start_early(self) -> None:
        if self._proc is None:
            with contextlib.suppress(Exception):
                self._start()

    def _start(self) -> process.Child:
        self._ahead, self._spill, self._carried, self._writer = None, b"", [], None
        self._framer = BoardFramer(self.options.encoding)
        self._proc = process.spawn(self.argv, limits=self.options.limits)
        for fd in (self._proc.stdout_fd, self._proc.stdin.fileno() if self._proc.stdin else -1):
            with contextlib.suppress(OSError, ValueError):  # bigger pipes: fewer wake-ups of either side
                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        self._spawned, self._started_at = time.monotonic(), None
        self._answered = 0
        return self._proc

    def _stop(self) -> int | None:
        """End the process (and every descendant); its exit status if it had ended by itself."""
        proc, self._proc = self._proc, None
        self._ahead, self._spill, self._carried = None, b"", []
        if proc is None:
            return None
        returncode = proc.wait(0)
        proc.kill()
        return returncode

    def reset(self) -> None:
        self._stop()

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        return self._answers(deals, until_failure=False)

    def answers_until_failure(self, deals: Sequence[int], *coming: Sequence[int]) -> list[Answer]:
        """The answers up to and including the first failure: what a comparison needs (`coming` is not
        needed: the numbers a stream is fed are written ahead anyway)."""
        return self._answers(deals, until_failure=True)

    @property
    def reads_in_bulk(self) -> bool:
        """Whether a fixed layout of this output is known: its digests are then taken in bulk."""
        return self._fixed is not None

    def digest_until_failure(
        self,
        deals: Sequence[int],
        hasher: hashlib._Hash | None = None,
        cuts: Sequence[int] = (),
        prefixes: list[str] | None = None,
    ) -> str | Failure:
        """The deals' block digest (going on from `hasher`'s, if given), or the first failure: boards of a
        fixed layout are taken in bulk (`harness.fixed_layout`), BULK_PIECE deals at a time; the rest the
        precise way.  At each of `cuts` (counts of deals) reached, the digest so far goes to `prefixes`."""
        hasher = hasher.copy() if hasher is not None else hashlib.sha256()
        marks = {c for c in cuts if 0 < c <= len(deals)}
        bounds = sorted(marks | set(range(0, len(deals), BULK_PIECE)) | {len(deals)})
        pieces = list(itertools.pairwise(bounds))
        for k, (lo, hi) in enumerate(pieces):
            piece = deals[lo:hi]
            bulk = None
            if self._fixed is not None and not self._carried and (self._proc is None or self._framer.between_boards):
                bulk = _Bulk(self._fixed, hasher.copy(), self._layout_at, self._hashing)
            ahead = deals[slice(*pieces[k + 1])] if k + 1 < len(pieces) and bulk is not None else None
            answers = self._answers(piece, until_failure=True, bulk=bulk, ahead=ahead)
            if bulk is not None and not bulk.left:
                hasher, self._fixed = bulk.hasher, bulk.layout  # every deal was taken in bulk
            elif bulk is not None:
                self._fixed = None  # a board it did not fit (a header's number grew a digit): learnt from that one
                if bulk.unfit is not None and self._framer.last_read is None:
                    self._framer.last_read = self._framer.first_board(bulk.unfit)
            for answer in answers:
                if isinstance(answer, Failure):
                    return answer
                hasher.update(answer)
            self._learn_layout()
            if hi in marks and prefixes is not None:
                prefixes.append(hasher.copy().hexdigest())
        return hasher.hexdigest()

    def _layout_at(self, region: bytes) -> FixedLayout | None:
        """The fixed layout of the board `region` starts with, read the precise way."""
        read = self._framer.first_board(region)
        return fixed_layout(*read) if read is not None else None

    def _learn_layout(self) -> None:
        if self._fixed is not None or self._fixed_tries <= 0 or self._framer.last_read is None:
            return
        read, self._framer.last_read = self._framer.last_read, None
        self._fixed = fixed_layout(*read)
        self._fixed_tries -= self._fixed is None

    def _answers(
        self,
        deals: Sequence[int],
        *,
        until_failure: bool,
        bulk: _Bulk | None = None,
        ahead: Sequence[int] | None = None,
    ) -> list[Answer]:
        """One answer per deal; with `bulk`, the deals it took in bulk have none here (they come first).
        `ahead`: the deals the next call will ask for, written to the process once these are (see `_batch`)."""
        answers: list[Answer] = []
        todo = list(deals) if not isinstance(deals, range) else deals
        while todo:
            try:
                answers.extend(self._batch(todo, bulk, ahead))
                todo = []
            except _Ended as ended:
                bulk = ahead = None  # it has handed its deals to `ended.answers`
                answers.extend(ended.answers)
                todo = todo[len(ended.answers) :]
                if ended.failure is None:
                    continue
                isolated = self._isolate(todo, ended.failure)
                answers.extend(isolated)
                todo = todo[len(isolated) :]
            if until_failure and any(isinstance(a, Failure) for a in answers):
                self._stop()  # the next call starts afresh, as it would after a failure
                return answers[: next(i for i, a in enumerate(answers) if isinstance(a, Failure)) + 1]
        return answers

    def _isolate(self, todo: Sequence[int], failure: Failure) -> list[Answer]:
        return pin_failure(todo, failure, self._alone)

    def _alone(self, number: int) -> Answer:
        o = self.options
        run = process.run(self.argv, f"{number}\n".encode(), o.timeout, MAX_OUTPUT, o.limits, startup=o.startup_timeout)
        answer = _judge_alone(number, run, o, answered_before=self.answered)
        self.answered = self.answered or isinstance(answer, bytes)
        return answer

    def _batch(
        self, batch: Sequence[int], bulk: _Bulk | None = None, ahead: Sequence[int] | None = None
    ) -> list[Answer]:
        """One answer per deal; with `bulk` (a process between boards), boards are taken in bulk while
        they fit, and the answers are only those of the deals after them (none when it took every one).
        `ahead`: the next batch's deals, written after these; its output past this batch's boards is kept
        for it (a process written ahead is read to its end even when it has ended: what it did then is
        what it did with those deals, as if they had been written later)."""
        written_ahead = self._ahead is not None and self._proc is not None and _same_deals(self._ahead, batch)
        if self._ahead is not None and not written_ahead:
            self._stop()  # it was given other deals than these: start afresh (as after a failure)
        proc = self._proc if self._proc is not None and (written_ahead or self._proc.alive()) else self._start()
        if self._answers_at_end:
            ahead = None
        early: list[bytes] = [self._spill] if written_ahead and self._spill else []
        carried = self._carried if written_ahead else []
        self._ahead, self._spill, self._carried = ahead, b"", []
        if bulk is not None:
            bulk.spills = ahead is not None
        previous = self._writer if written_ahead else None
        if written_ahead and ahead is None:
            writer = previous or threading.Thread()  # these were written (or are being written), nothing after
        else:
            todo = (() if written_ahead else (batch,)) + ((ahead,) if ahead is not None else ())

            def numbers() -> bytes:
                if previous is not None:
                    previous.join()  # the deals written ahead go first: a program reads them in order
                return b"".join(numbers_text(part) for part in todo)

            writer = proc.write_in_background(numbers, close=self._answers_at_end)
        self._writer = writer
        stdin_closed = self._answers_at_end
        self.buffered_processes += stdin_closed
        answers: list[Answer] = []
        for board in carried:  # framed while the last batch was read (no bulk then: see digest_until_failure)
            if len(answers) < len(batch):
                answers.append(_answer(batch[len(answers)], board))
                self._answered += 1
        o = self.options
        # Its stdin was closed because it waited with answers unwritten; it may have had none (a deal it skipped).
        self._closed_for_answers = False
        last_board = time.monotonic()
        poll = IDLE_POLL_S[0]
        idle: list[int] = []  # the program's CPU time at each look since its last output that found it waiting

        def leave_bulk() -> None:
            """From here on the precise way: the deals taken in bulk get their answers first."""
            nonlocal bulk
            if bulk is not None and not bulk.left:
                rest = bulk.leave_with_rest()
                answers[:0] = bulk.answers()
                self._answered += bulk.count
                self._take_boards(batch, answers, rest)
            bulk = None

        while len(answers) + (bulk.count if bulk is not None and not bulk.left else 0) < len(batch):
            now = time.monotonic()
            if self._started_at is None:
                proc.unread_input()  # notes whether it has read any of its input
                self._started_at = now if proc.input_read else None
            deadline = None
            if o.timeout > 0:
                deadline = (
                    max(last_board, self._started_at) + o.timeout
                    if self._started_at is not None
                    else self._spawned + o.startup_timeout + o.timeout
                )
            waits = [LIVENESS_S if stdin_closed else poll]
            if deadline is not None:
                waits.append(max(0.0, deadline - now))
            chunk = early.pop() if early else proc.read(min(waits))
            now = time.monotonic()
            if chunk is None and not proc.alive():  # ended, while what it left behind keeps stdout open
                chunk = proc.read(0) or b""
            if chunk is not None:
                idle.clear()
                if not chunk:
                    leave_bulk()
                    self._ended(batch, answers, None)
                if self._started_at is None:
                    self._started_at = now
                poll = IDLE_POLL_S[0]
                if bulk is not None and not bulk.left:
                    seen = bulk.seen
                    rest = bulk.feed(chunk, len(batch))
                    if bulk.seen > seen:
                        last_board = now
                    self.answered = self.answered or bulk.count > 0
                    if rest is None:
                        self._spill = bulk.spill
                        continue
                    answers[:0] = bulk.answers()
                    self._answered += bulk.count
                    bulk, chunk = None, rest
                if self._take_boards(batch, answers, chunk):
                    last_board = now
                continue
            if not stdin_closed and not writer.is_alive() and self._waits_for_more_input(proc, idle):
                leave_bulk()  # what it wrote before is read as it came; only what comes after is held answers
                proc.close_stdin()
                stdin_closed = self._closed_for_answers = True
                last_board = now  # --timeout from now to write what it held, however late it was seen
                continue
            poll = min(2 * poll, IDLE_POLL_S[1])
            if deadline is not None and now >= deadline:
                if not stdin_closed and not writer.is_alive() and self._reads_for_more_input(proc):
                    # All its input read and no board, it waits for more: it holds its answers until its stdin
                    # ends (a runtime whose own threads wake on timers, as the JVM's, never looks idle to
                    # `_waits_for_more_input`).  Its stdin is closed, and it has --timeout from now to answer.
                    leave_bulk()
                    proc.close_stdin()
                    stdin_closed = self._answers_at_end = self._closed_for_answers = True
                    last_board = now
                    continue
                leave_bulk()
                failure = timeout_failure(
                    batch[len(answers)],
                    o,
                    started=self._started_at is not None,
                    stderr=proc.stderr_text(o.encoding),
                    answered_before=self.answered,
                )
                self._ended(batch, answers, failure)
        if stdin_closed:
            self._stop()
        if bulk is not None and not bulk.left:
            self._answered += bulk.count
        return answers

    def _take_boards(self, batch: Sequence[int], answers: list[Answer], data: bytes) -> bool:
        """Give the output's bytes to the precise reader: the boards they complete answer the next deals.
        Whether they completed any."""
        boards = self._framer.feed(data)
        for board in boards:
            if self._closed_for_answers:  # it did hold answers until its stdin ended (BUFFERING_NOTE)
                self.buffered_processes += 1
                self._closed_for_answers = False
            if len(answers) < len(batch):
                answers.append(_answer(batch[len(answers)], board))
                self._answered += 1
                self.answered = True
            elif self._ahead is not None:
                self._carried.append(board)  # the next batch's, written ahead
            if isinstance(board, RunawayOutput):  # framing is lost: start afresh
                self._stop()
                raise _Ended(answers, None)
        return bool(boards)

    @staticmethod
    def _reads_for_more_input(proc: process.Child) -> bool:
        """Whether the program has read every number it was given and a thread of it is blocked reading more."""
        return proc.unread_input() == 0 and proc.input_read and proc.reading_input()

    @staticmethod
    def _waits_for_more_input(proc: process.Child, idle: list[int]) -> bool:
        """Whether the program has read every number it was given and waits for more, none of its threads
        running or sleeping for a set time, and none having run since the last look that found it so: it
        holds its answers until its stdin ends.  `idle` keeps what the looks since its last output found."""
        if proc.unread_input() != 0 or not proc.input_read:
            idle.clear()
            return False
        ran = proc.waiting()
        if ran is None or proc.unread_input() != 0:
            idle.clear()
            return False
        idle.append(ran)
        return len(idle) >= 2 and idle[-2] == ran

    def _ended(self, batch: Sequence[int], answers: list[Answer], failure: Failure | None) -> NoReturn:
        """The process stopped answering: raise _Ended with what it did answer.  A process that ended
        with status 0 after answering some deals (a program that deals a few and ends) leaves the rest to
        a fresh process; one that answered none has crashed."""
        unfinished = self._framer.finish()
        proc = self._proc
        if failure is None and proc is not None:  # its stdout ended: how it ends is told by its status
            proc.wait(self.options.timeout if self.options.timeout > 0 else None)
        returncode = self._stop()
        if isinstance(unfinished, bytes) and failure is None:
            answers.append(unfinished)  # the last board's last line had no newline
            self._answered += 1
            unfinished = None
            if len(answers) == len(batch):
                raise _Ended(answers, None)
        if failure is None and returncode == 0 and unfinished is None and self._answered:
            # Not by itself when its stdin was closed for answers and none came.
            self.ended_processes += not self._closed_for_answers
            raise _Ended(answers, None)
        number = batch[len(answers)]
        if failure is None:
            if returncode not in (0, None) and proc is not None:
                failure = Failure(number, "crash", proc.describe_exit(self.options.encoding))
            elif unfinished is not None:
                failure = Failure(number, "invalid-output", str(unfinished))
            elif proc is not None:
                failure = no_board(number, proc, self._framer.unread, self.options.encoding)
            else:
                failure = Failure(number, "crash", f"the program ended (status 0) before answering deal {number}")
        raise _Ended(answers, failure)

    def close(self) -> None:
        self._stop()
        self._hashing.shutdown(wait=False, cancel_futures=True)
