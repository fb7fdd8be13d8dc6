"""IMPL `py:MODULE:FUNCTION`: a Python callable taking the deal number and returning a board.

The function runs in a child Python process (`harness.adapters.py_runner`), supervised like any
other dealer: `--timeout` and the resource limits apply, a hang or an exit of that process is a
`timeout` or `crash` at its deal, and Ctrl-C kills it.  Each answer is sent before the next deal
is dealt, so a process that dies is pinned to the deal it was dealing.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Sequence

from harness import process
from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.adapters.py_runner import frame
from harness.errors import RequestError
from harness.failures import Failure

STARTUP_S = 60.0  # the runner has this long to import the module and say hello


class _Ended(Exception):
    """The runner stopped answering: `failure` is at the deal it was dealing."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


class PythonDealer(Dealer):
    def __init__(self, spec: str, options: DealerOptions) -> None:
        self.impl = f"py:{spec}"
        self.spec = spec
        self.options = options
        self._child: process.Child | None = None
        self._buffer = b""
        error = self._start()
        if error is not None:
            raise RequestError(f"{self.impl}: {error}")

    def _start(self) -> str | None:
        """A fresh runner that has loaded the function; why not, if it could not."""
        path = os.pathsep.join(p for p in sys.path if p)
        child = process.spawn(
            [sys.executable, "-m", "harness.adapters.py_runner", self.spec],
            limits=self.options.limits,
            env=dict(os.environ, PYTHONPATH=path),
        )
        self._child, self._buffer = child, b""
        try:
            hello = json.loads(self._frame(child, STARTUP_S, None)[1:])
        except _Ended as ended:
            self._stop()
            return ended.failure.message.replace("the dealer's process", "the module's import")
        if "error" in hello:
            self._stop()
            return str(hello["error"])
        return None

    def _frame(self, child: process.Child, within: float | None, number: int | None) -> bytes:
        """The next frame's payload; _Ended if the runner ends or says nothing for `within` s."""
        deadline = None if within is None else time.monotonic() + within
        while True:
            if len(self._buffer) >= 4:
                size = int.from_bytes(self._buffer[:4], "big")
                if len(self._buffer) >= 4 + size:
                    payload, self._buffer = self._buffer[4 : 4 + size], self._buffer[4 + size :]
                    return payload
            left = None if deadline is None else deadline - time.monotonic()
            chunk = child.read(left) if left is None or left > 0 else None
            if chunk is None:
                child.kill()
                what = f"no answer within {within:g} s (killed)"
                raise _Ended(Failure(number or 0, "timeout", what))
            if not chunk:
                child.finish()
                during = f" while dealing {number}" if number is not None else ""
                why = f"the dealer's process ended{during}: {child.describe_exit()}"
                raise _Ended(Failure(number or 0, "crash", why))
            self._buffer += chunk

    def _stop(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.kill()

    def reset(self) -> None:
        self._stop()

    def close(self) -> None:
        self._stop()

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        answers: list[Answer] = []
        todo = list(deals)
        within = self.options.timeout if self.options.timeout > 0 else None
        while todo:
            if self._child is None and (error := self._start()) is not None:
                answers.append(Failure(todo[0], "crash", f"the dealer's process cannot start again: {error}"))
                todo = todo[1:]
                continue
            child = self._child
            assert child is not None
            child.write(frame(json.dumps({"deals": todo}).encode()))
            done = 0
            try:
                for number in todo:
                    payload = self._frame(child, within, number)
                    done += 1
                    if payload[:1] == b"L":
                        answers.append(payload[1:])
                    else:
                        failure = json.loads(payload[1:])
                        answers.append(Failure(number, failure["kind"], failure["message"]))
            except _Ended as ended:
                self._child = None
                answers.append(ended.failure)
                done += 1
            todo = todo[done:]
        return answers
