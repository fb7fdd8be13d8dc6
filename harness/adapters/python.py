"""IMPL `py:MODULE:FUNCTION`: a Python callable taking the deal number and returning a board.

FUNCTION may be dotted: `Class.method` (static, class, or instance methods of a class made
without arguments), nested attributes, a class (`Deck`: `Deck(n)` is the board or game state),
or a callable instance.  The function runs in a child Python process
(`harness.adapters.py_runner`), supervised like any other dealer: `--timeout` and the resource
limits apply, a hang or an exit of that process is a `timeout` or `crash` at its deal, and
Ctrl-C kills it.  The runner writes its answers BATCH at a time (and at once when one is
FLUSH_S old, so that a slow dealer's answers go out deal by deal); a process that dies, hangs
or breaks its channel while it held some is pinned to its deal by `pin_failure`: what it had
dealt is dealt again from a fresh start, then the deals it held one answer per write.  What is
reported is what one write per deal would report; only when the failure does not recur does
the first unanswered deal stand for it, saying so.

The dealer's code shares the runner's process and can forge its frames: every frame is checked
here (`py_runner.read_answer`) as exactly one answer for the deal asked, and a frame that is not
is an `invalid-output` at that deal, after which the process is replaced.
"""

from __future__ import annotations

import ast
import contextlib
import fcntl
import functools
import importlib.util
import json
import os
import sys
import time
from collections.abc import Sequence
from importlib.machinery import ModuleSpec, PathFinder
from pathlib import Path
from typing import Final, cast

import numpy as np

from harness import process
from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.adapters.pinning import pin_failure
from harness.adapters.py_runner import (
    FLUSH_S,
    HEAD,
    MAX_FRAME,
    OWN_ROOT,
    PROTOCOL,
    Breach,
    frame,
    frame_size,
    read_answer,
)
from harness.errors import RequestError
from harness.failures import Failure, FailureKind
from harness.framing import invalid_lines
from harness.impl_hints import import_hint, py_module_hint
from reference.cards import CARD_NAMES, LINE_BYTES

STARTUP_S = 60.0  # the runner has this long (or --startup-timeout, if longer) to import the module and say hello
# Reading a few frames at a time costs both processes a wake-up per frame: while many answers are
# still to come and the last read brought few, wait this long first so that a read takes many.
# (What is read, and every deadline, stay the same: this only changes how often we look.)
GATHER_S = 0.0005
GATHER_BELOW = 4096  # bytes: a read that brought fewer (some 24 lines) was a small one
GATHER_WHILE = 64  # deals still to answer
AT_ONCE = 16  # frames: fewer are checked one by one
# Frames the runner writes at once (a write per deal cost it more than reading the board).  A crash,
# hang or broken frame while some were held is pinned to its deal by dealing them again, one per write.
BATCH = 64
HISTORY_CAP = 2_000_000  # deals a process may have dealt and still be dealt again to pin its failure
REPLAY_AT_ONCE = 1 << 16  # deals of that history asked at once (their answers are not kept)
# The next chunk's request is written while the runner still deals this one (`lines_then`), so that it
# never waits for the comparer between chunks.  Only a request that fits in half the request pipe
# (grown to REQUEST_PIPE where the kernel allows) is written ahead: such a write never blocks.
REQUEST_PIPE = 1 << 20
LINE_FRAME: Final = 4 + HEAD + LINE_BYTES  # a line's whole frame: its size, tag, deal number and line
_LINE_START: Final = np.frombuffer((HEAD + LINE_BYTES).to_bytes(4, "big") + b"L", dtype=np.uint8)  # size and tag


def _bound_names(tree: ast.Module) -> set[str]:
    """Names a module binds anywhere (generous: a dealer must never be refused for a name it has)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Name) and node.id in _DYNAMIC:
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and node.attr == "__dict__":
            names.add("__dict__")
    return names


def _runner_path() -> list[str]:
    """The runner's PYTHONPATH: this process's path, and the harness's own packages first where a folder
    on it holds a module named like one of them (a dealer's `reference.py`).  The runner then takes that
    entry off again, so that the dealer's imports see this process's path (`py_runner.OWN_ROOT`)."""
    path = [p for p in sys.path if p]
    for name in ("harness", "reference"):
        found = PathFinder.find_spec(name, path)
        if found is None or not (found.origin or "").startswith(OWN_ROOT + os.sep):
            return [OWN_ROOT, *path]
    return path


def _module_spec(name: str) -> ModuleSpec | None:
    """Where an import of the module `name` would find it, without running any of its code (nor its
    packages'): the file on the path, not a module of that name this process already holds."""
    if "." not in name:
        spec = importlib.util.find_spec(name)  # (finders only: nothing is imported)
        return (PathFinder.find_spec(name, sys.path) or spec) if name in sys.modules else spec
    path: list[str] | None = sys.path
    spec = None
    parts = name.split(".")
    for i in range(len(parts)):
        if path is None:
            return None  # a module where a package was needed
        spec = PathFinder.find_spec(".".join(parts[: i + 1]), path)
        if spec is None:
            return None
        locations = spec.submodule_search_locations
        path = list(locations) if locations is not None else None
    return spec


# A module that binds names in any of these ways may define any function: only importing it can tell.
_DYNAMIC = frozenset({"*", "__getattr__", "globals", "vars", "setattr", "exec", "__dict__"})


class _Ended(Exception):
    """The runner stopped answering: `failure` is at the deal it was dealing."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


class PythonDealer(Dealer):
    kind, form = "py", "py:MODULE:FUNCTION"

    @classmethod
    def parse_argument(cls, argument: str) -> None:
        module, colon, function = argument.partition(":")
        if not colon or not module or not function:
            raise RequestError(f"py:{argument}: expected py:MODULE:FUNCTION, e.g. py:mydealer:deal")

    @classmethod
    def build_files(cls, argument: str) -> list[Path]:
        """The module's file, where it can be found without importing it."""
        if "" not in sys.path:
            sys.path.insert(0, "")
        with contextlib.suppress(Exception):  # the run itself says why it cannot import
            spec = _module_spec(argument.partition(":")[0])
            return [Path(spec.origin)] if spec and spec.origin else []
        return []

    @classmethod
    def check(cls, argument: str, options: DealerOptions) -> None:
        """The module is found, compiles, and defines FUNCTION at its top level; none of it is run."""
        cls.parse_argument(argument)
        module_name, _, function_name = argument.partition(":")
        where = f"py:{argument}"
        if hint := py_module_hint(module_name, function_name):
            raise RequestError(f"{where}: cannot import {module_name}: {hint}")
        if "" not in sys.path:
            sys.path.insert(0, "")  # the current directory is importable, as with `python -m`
        try:
            spec = _module_spec(module_name)
        except Exception as exc:  # a parent package that cannot be imported, a bad name
            raise RequestError(f"{where}: cannot import {module_name}: {type(exc).__name__}: {exc}") from None
        top = module_name.partition(".")[0]
        if spec is None and "." in module_name and not PathFinder.find_spec(top, sys.path):
            return  # in a package only an import finds (an installed one's own finder): the run tells
        if spec is None:
            missing = f"No module named {module_name!r}; {import_hint()}"
            raise RequestError(f"{where}: cannot import {module_name}: {missing}")
        if spec.origin is None or not spec.origin.endswith(".py"):
            return  # compiled or built in: only importing it can tell
        try:
            tree = ast.parse(Path(spec.origin).read_bytes(), spec.origin)
        except (OSError, SyntaxError, ValueError) as exc:
            raise RequestError(f"{where}: cannot import {module_name}: {type(exc).__name__}: {exc}") from None
        names = _bound_names(tree)
        if not names & {function_name.split(".")[0], *_DYNAMIC}:
            raise RequestError(f"{where}: {module_name} has no callable {function_name}")

    def __init__(self, spec: str, options: DealerOptions) -> None:
        self.impl = f"py:{spec}"
        self.spec = spec
        self.options = options
        self._child: process.Child | None = None
        self._buffer, self._at = bytearray(), 0
        self._small = False  # the last read brought less than GATHER_BELOW bytes
        self._history: list[int] | None = []  # the deals the running process has answered (None: too many)
        self._ahead: list[list[int]] = []  # the deals of each request written ahead, not yet asked for
        self._room = 0  # bytes the request pipe holds
        error = self._start()
        if error is not None:
            raise RequestError(f"{self.impl}: {error}")

    def _start(self) -> str | None:
        """A fresh runner that has loaded the function; why not, if it could not."""
        path = os.pathsep.join(_runner_path())
        child = process.spawn(
            [
                sys.executable,
                "-P",  # the working directory is not on the runner's path until it imports the dealer's module
                "-m",
                "harness.adapters.py_runner",
                self.spec,
                self.options.cards or "-",
                self.options.suits or "-",
            ],
            limits=self.options.limits,
            env=dict(os.environ, PYTHONPATH=path),
        )
        self._child, self._buffer, self._at = child, bytearray(), 0
        self._history, self._ahead = [], []
        self._room = _grown(child)
        try:
            payload = self._frame(child, max(STARTUP_S, self.options.startup_timeout), None)
            hello = json.loads(payload[HEAD:]) if payload[:1] == b"H" else None
        except _Ended as ended:
            self._stop()
            if ended.failure.kind == "timeout":
                module = self.spec.partition(":")[0]
                return (
                    f"importing {module} did not return within {max(STARTUP_S, self.options.startup_timeout):g} s "
                    "(killed): the import hung — code at the module's top level runs as it is imported (a game "
                    'loop, input(), a long computation); put it under `if __name__ == "__main__":`, or give '
                    "--startup-timeout if the import is only slow"
                )
            return ended.failure.message.replace("the dealer's process", "the module's import")
        except (Breach, ValueError):
            hello = None
        if not isinstance(hello, dict) or hello.get("protocol") != PROTOCOL:
            self._stop()
            return "the runner's first frame is not its hello: the module wrote into the harness's channel as it loaded"
        if "error" in hello:
            self._stop()
            return str(hello["error"])
        return None

    def _frame(
        self, child: process.Child, within: float | None, number: int | None, coming: int = 0, slack: float = 0.0
    ) -> bytes:
        """The next frame's payload; _Ended if the runner ends or says nothing for `within` s (and
        `slack` s more), Breach if the frame is longer than any answer.  `coming`: answers still to
        come after this one."""
        deadline = None
        while True:
            buffer, at = self._buffer, self._at
            if len(buffer) - at >= 4:
                size = frame_size(buffer, at)
                if size > MAX_FRAME:
                    raise Breach(f"a frame of {size:,} bytes, longer than any answer ({MAX_FRAME:,})")
                if len(buffer) - at >= 4 + size:
                    self._at = at + 4 + size
                    return bytes(buffer[at + 4 : at + 4 + size])
            if at:  # what was taken goes, once, before more is read
                del buffer[:at]
                self._at = 0
            if deadline is None and within is not None:
                deadline = time.monotonic() + within + slack
            if self._small and coming >= GATHER_WHILE:
                time.sleep(GATHER_S)
            left = None if deadline is None else deadline - time.monotonic()
            chunk = child.read(left) if left is None or left > 0 else None
            self._small = chunk is not None and len(chunk) < GATHER_BELOW
            if chunk is None:
                child.kill()
                what = f"no answer within {within:g} s (killed)"
                raise _Ended(Failure(number or 0, "timeout", what))
            if not chunk:
                child.finish()
                during = f" while dealing {number}" if number is not None else ""
                why = f"the dealer's process ended{during}: {child.describe_exit()}"
                raise _Ended(Failure(number or 0, "crash", why))
            buffer += chunk

    def _whole_lines(self, todo: list[int], done: int, answers: list[Answer]) -> int:
        """How many of the frames read and not yet taken are, in a row, the lines of todo[done], todo[done
        + 1] …: each exactly what `read_answer` takes as a line for its deal (checked all at once).
        Their lines are added to `answers`; any other frame is left to `read_answer`."""
        buffer, at = self._buffer, self._at
        count = min((len(buffer) - at) // LINE_FRAME, len(todo) - done)
        if count < AT_ONCE:
            return 0
        try:
            numbers = np.array(todo[done : done + count], dtype=">i8").view(np.uint8).reshape(count, 8)
        except OverflowError:
            return 0
        frames = np.frombuffer(buffer, dtype=np.uint8, count=count * LINE_FRAME, offset=at).reshape(count, LINE_FRAME)
        good = (frames[:, :5] == _LINE_START).all(axis=1) & (frames[:, 5 : 4 + HEAD] == numbers).all(axis=1)
        taken = count if good.all() else int(np.argmin(good))
        data = bytes(buffer[at : at + taken * LINE_FRAME])
        answers.extend(data[i + 4 + HEAD : i + LINE_FRAME] for i in range(0, len(data), LINE_FRAME))
        self._at = at + taken * LINE_FRAME
        return taken

    def _stop(self) -> None:
        child, self._child = self._child, None
        self._ahead = []
        if child is not None:
            child.kill()

    def reset(self) -> None:
        self._stop()

    def close(self) -> None:
        self._stop()

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        return self.lines_then(deals)

    def lines_then(self, deals: Sequence[int], *coming: Sequence[int]) -> list[Answer]:
        """`lines(deals)`, while the runner is asked for `coming` too, the deals each of the next calls will
        ask for (the comparer's next chunk, or the next block's first chunks): it deals them without waiting
        for those calls.  A call for other deals than the next asked ahead (which the comparer never makes
        without a reset) gets a fresh runner."""
        answers: list[Answer] = []
        todo = list(deals)
        if self._ahead and self._ahead[0] != todo:
            self._stop()
        ahead = [list(c) for c in coming if c]
        while todo:
            if self._child is None and (error := self._start()) is not None:
                answers.append(Failure(todo[0], "crash", f"the dealer's process cannot start again: {error}"))
                todo = todo[1:]
                continue
            got, stopped = self._answers(todo, BATCH, ahead=ahead)
            ahead = []  # a second request of this call follows a failure: nothing is asked ahead then
            answers.extend(got)
            todo = todo[len(got) :]
            if stopped is None:
                continue
            history = self._history
            # The runner stopped (it ended, hung or broke its channel) while up to BATCH deals from todo[0]
            # were dealt and not yet written: where, only dealing them again one per write can tell.
            window = todo[:BATCH]
            again = functools.partial(self._again, history)
            if isinstance(stopped, _Ended):
                pinned = pin_failure(window, stopped.failure, self._alone, again)
            else:
                pinned = again(window) or []
                if not pinned or not isinstance(pinned[-1], Failure):
                    note = " (dealt again the same way from a fresh start, it did not recur)"
                    message = _breach_message(todo[0], stopped) + note
                    pinned = [Failure(todo[0], "invalid-output", message, transient=True)]
            answers.extend(pinned)
            todo = todo[len(pinned) :]
        return answers

    def _answers(
        self, todo: list[int], batch: int, *, until_failure: bool = False, ahead: list[list[int]] | None = None
    ) -> tuple[list[Answer], _Stop]:
        """The running runner's answers to `todo`, written `batch` frames at a time, up to where it
        stopped answering (then the process is gone) and, if `until_failure`, up to its first failure.
        `ahead`: deals the runner is asked for right after `todo`, each to be read by one of the next calls
        (only when no request written ahead before is still to be read)."""
        child = self._child
        assert child is not None
        within = self.options.timeout if self.options.timeout > 0 else None
        slack = FLUSH_S if batch > 1 else 0.0
        if self._ahead and self._ahead[0] == todo and batch == BATCH:
            del self._ahead[0]
        else:
            child.write(_request(todo, batch))
            self._ahead = []
        requests = b"".join(_request(deals, BATCH) for deals in ahead or ())
        if requests and not self._ahead and len(requests) <= self._room // 2:
            child.write(requests)  # the runner has taken `todo`'s, or is about to: these fit beside it
            self._ahead = list(ahead or ())
        got: list[Answer] = []
        unchecked: list[int] = []  # where lines taken one by one are in `got` (runs are checked as they come)
        stopped: _Stop = None
        try:
            while len(got) < len(todo):
                if taken := self._whole_lines(todo, len(got), got):
                    if bad := invalid_lines(cast("list[bytes]", got[-taken:])):
                        at = len(got) - taken + bad[0]
                        breach = _no_board(cast("bytes", got[at]))
                        del got[at:]
                        raise breach
                    continue
                number = todo[len(got)]
                answer = read_answer(self._frame(child, within, number, len(todo) - len(got) - 1, slack), number)
                if isinstance(answer, bytes):
                    unchecked.append(len(got))
                    got.append(answer)
                    continue
                kind, message, given = answer
                if kind == "refused":
                    self._stop()
                    raise RequestError(f"{self.impl}: {message}")
                limit = process.limit_in_words(self.options.limits, message)
                message += f" ({limit})" if limit and limit not in message else ""
                got.append(Failure(number, cast("FailureKind", kind), message, None, given))
                if until_failure:
                    self._stop()
                    break
        except _Ended as ended:
            self._child, self._ahead = None, []
            stopped = ended
        except Breach as breach:
            self._stop()  # its channel can no longer be trusted: a fresh process deals the rest
            stopped = breach
        unchecked = [i for i in unchecked if i < len(got)]
        if bad := invalid_lines([cast("bytes", got[i]) for i in unchecked]):
            at = unchecked[bad[0]]
            stopped = _no_board(cast("bytes", got[at]))
            del got[at:]  # a well-formed frame that is no board
            self._stop()
        self._dealt(todo[: len(got)])
        return got, stopped

    def _dealt(self, deals: Sequence[int]) -> None:
        """Remember what the running process has dealt (while it is not too much to deal again)."""
        if self._history is not None:
            self._history.extend(deals)
            if len(self._history) > HISTORY_CAP:
                self._history = None

    def _again(self, history: list[int] | None, todo: Sequence[int]) -> list[Answer]:
        """What a stopped process had dealt (`history`), dealt again from a fresh start, then `todo` one
        frame per write: the answers up to and including the first failure (a crash or a hang is then
        at the very deal it happened in).  Empty if it fails while dealing its history again."""
        self._stop()
        if (error := self._start()) is not None:
            return [Failure(todo[0], "crash", f"the dealer's process cannot start again: {error}")]
        # (history None: too long a life to deal again; the failure is looked for from a fresh start)
        for start in range(0, len(history or ()), REPLAY_AT_ONCE):
            part = cast("list[int]", history)[start : start + REPLAY_AT_ONCE]
            if self._answers(part, BATCH)[1] is not None:
                self._stop()
                return []
        got, stopped = self._answers(list(todo), 1, until_failure=True)
        if isinstance(stopped, _Ended):
            return [*got, stopped.failure]
        if isinstance(stopped, Breach):
            return [*got, Failure(todo[len(got)], "invalid-output", _breach_message(todo[len(got)], stopped))]
        return got

    def _alone(self, number: int) -> Answer:
        """Deal `number` alone, from a fresh process."""
        self._stop()
        if (error := self._start()) is not None:
            return Failure(number, "crash", f"the dealer's process cannot start again: {error}")
        got, stopped = self._answers([number], 1)
        self._stop()
        if isinstance(stopped, _Ended):
            return stopped.failure
        if isinstance(stopped, Breach):
            return Failure(number, "invalid-output", _breach_message(number, stopped))
        return got[0]


_Stop = _Ended | Breach | None


def _request(deals: list[int], batch: int) -> bytes:
    return frame(json.dumps({"deals": deals, "batch": batch}, separators=(",", ":")).encode())


def _grown(child: process.Child) -> int:
    """The bytes the runner's request pipe holds, grown to REQUEST_PIPE where the kernel allows."""
    if child.stdin is None:
        return 0
    fd = child.stdin.fileno()
    try:
        return int(fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, REQUEST_PIPE))
    except OSError:
        try:
            return int(fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ))
        except OSError:
            return 0


class _Repeats(Breach):
    """A line of 52 canonical names, some of them repeated: a board the runner sent unchecked (it leaves
    repeats to the harness when it writes several answers at once)."""


_NAMES: Final = frozenset(name.encode() for name in CARD_NAMES)


def _no_board(line: bytes) -> Breach:
    """Why a line taken from the runner is no board."""
    names = line.split()
    if len(names) == len(CARD_NAMES) and _NAMES.issuperset(names):
        repeated = sorted({n.decode() for n in names if names.count(n) > 1})
        return _Repeats(f"its cards repeat: {', '.join(repeated)}")
    return Breach("a line that is not one board")


def _breach_message(number: int, breach: Breach) -> str:
    if isinstance(breach, _Repeats):
        return f"the board answered for deal {number} is no deck ({breach})"
    return (
        f"the answer to deal {number} is not one board ({breach}): the dealer's code wrote into, or rewrote, "
        "the channel its answers travel on"
    )
