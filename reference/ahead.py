"""Items of an iterator computed one ahead, in a background thread, while the caller uses the last.

NumPy releases the GIL inside its array operations, and hashing or writing a chunk releases it too,
so a producer of array chunks and its consumer overlap on two cores: the same overlap a C dealer
piped into its reader gets from the pipe.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterator
from typing import Final, TypeVar

T = TypeVar("T")

_POLL_SECONDS: Final = 0.05


def computed_ahead(items: Iterator[T], *, name: str = "computed-ahead") -> Iterator[T]:
    """Yield `items` in order, the next one computed while the caller handles this one.

    An exception raised by `items` is raised here, at the item it replaced.  Closing this generator
    (or dropping it, or an exception in the caller) stops the thread after the item it is computing.
    """
    # Each item comes wrapped in a 1-tuple; then None at the end, or the exception that ended it.
    ready: queue.Queue[tuple[T] | BaseException | None] = queue.Queue(maxsize=1)
    stopped = threading.Event()

    def produce() -> None:
        try:
            for item in items:
                if stopped.is_set():
                    return
                ready.put((item,))
            ready.put(None)
        except BaseException as exc:  # handed to the caller, who raises it
            ready.put(exc)

    thread = threading.Thread(target=produce, name=name, daemon=True)
    thread.start()
    try:
        while (got := ready.get()) is not None:
            if isinstance(got, BaseException):
                raise got
            yield got[0]
    finally:
        stopped.set()
        while thread.is_alive():  # take what it puts, so that it never waits on a full queue
            with contextlib.suppress(queue.Empty):
                ready.get(timeout=_POLL_SECONDS)
