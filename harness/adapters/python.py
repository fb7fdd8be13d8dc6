"""IMPL `py:MODULE:FUNCTION`: a Python callable taking the deal number and returning a board."""

from __future__ import annotations

import importlib
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from types import FrameType

from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.cards import BoardError, board_from_value
from harness.errors import RequestError
from harness.failures import Failure
from reference.cards import canonical_line


class _Timeout(Exception):
    pass


def load_callable(spec: str) -> Callable[[int], object]:
    """`MODULE:FUNCTION` → the function; the current directory is importable, as with `python -m`."""
    module_name, sep, function_name = spec.partition(":")
    if not sep or not module_name or not function_name:
        raise RequestError(f"py:{spec}: expected py:MODULE:FUNCTION, e.g. py:mydealer:deal")
    if "" not in sys.path:
        sys.path.insert(0, "")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # any import failure is the request's problem, said in one line
        raise RequestError(f"py:{spec}: cannot import {module_name}: {type(exc).__name__}: {exc}") from None
    function = getattr(module, function_name, None)
    if not callable(function):
        raise RequestError(f"py:{spec}: {module_name} has no callable {function_name}")
    return function  # type: ignore[no-any-return]


class PythonDealer(Dealer):
    @classmethod
    def check(cls, argument: str, options: DealerOptions) -> None:
        load_callable(argument)  # an import, nothing dealt: the message names what is missing

    def __init__(self, spec: str, options: DealerOptions) -> None:
        self.impl = f"py:{spec}"
        self.function = load_callable(spec)
        self.timeout = options.timeout

    def _call(self, number: int) -> object:
        # A timeout needs SIGALRM, which only the main thread can receive; elsewhere there is none.
        if threading.current_thread() is not threading.main_thread() or self.timeout <= 0:
            return self.function(number)

        def expire(signum: int, frame: FrameType | None) -> None:
            raise _Timeout

        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            return self.function(number)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        answers: list[Answer] = []
        for number in deals:
            try:
                value = self._call(number)
            except _Timeout:
                answers.append(Failure(number, "timeout", f"no answer within {self.timeout:g} s"))
                continue
            except Exception as exc:  # the function under test raised: that is its failure
                answers.append(Failure(number, "error", f"{type(exc).__name__}: {exc}"))
                continue
            try:
                cards = board_from_value(value)
            except BoardError as exc:
                answers.append(Failure(number, "invalid-output", str(exc)))
                continue
            answers.append(canonical_line(cards))
        return answers
