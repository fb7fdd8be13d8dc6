"""The child side of `py:MODULE:FUNCTION`: `python -m harness.adapters.py_runner MODULE:FUNCTION`.

The harness runs a Python dealer in this process so that it can kill it (a hang, a crash, an
`os._exit`) and bound what it takes.  Frames, both ways, are a 4-byte big-endian length and a
payload.  First the runner sends `H` + JSON: `{"ok": true}`, or `{"error": "..."}` if the function
cannot be loaded.  Then each request is JSON `{"deals": [...]}`, and the runner answers one frame
per deal, written before the next deal is dealt: `L` + the canonical line (LF included), or
`F` + JSON `{"kind": ..., "message": ...}`.  The function's own stdout goes to stderr.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import struct
import sys
from collections.abc import Callable

from harness.cards import BoardError, board_from_value
from reference.cards import canonical_line

_LENGTH = struct.Struct(">I")


def frame(payload: bytes) -> bytes:
    return _LENGTH.pack(len(payload)) + payload


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read_exact(fd: int, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def load_callable(spec: str) -> Callable[[int], object]:
    """`MODULE:FUNCTION` → the function; ValueError saying why in one line if it cannot be."""
    module_name, sep, function_name = spec.partition(":")
    if not sep or not module_name or not function_name:
        raise ValueError("expected py:MODULE:FUNCTION, e.g. py:mydealer:deal")
    try:
        module = importlib.import_module(module_name)
    except BaseException as exc:
        raise ValueError(f"cannot import {module_name}: {type(exc).__name__}: {exc}") from None
    function = getattr(module, function_name, None)
    if not callable(function):
        raise ValueError(f"{module_name} has no callable {function_name}")
    return function  # type: ignore[no-any-return]


def _answer(function: Callable[[int], object], number: int) -> bytes:
    try:
        value = function(number)
    except MemoryError:
        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
        said = f" (--memory-limit {limit >> 20} MB)" if limit != resource.RLIM_INFINITY else ""
        return b"F" + json.dumps({"kind": "crash", "message": f"MemoryError: over the memory limit{said}"}).encode()
    except SystemExit as exc:
        return b"F" + json.dumps({"kind": "crash", "message": f"the function called sys.exit({exc.code!r})"}).encode()
    except BaseException as exc:
        return b"F" + json.dumps({"kind": "error", "message": f"{type(exc).__name__}: {exc}"}).encode()
    try:
        cards = board_from_value(value)
    except BoardError as exc:
        return b"F" + json.dumps({"kind": "invalid-output", "message": str(exc)}).encode()
    return b"L" + canonical_line(cards)


def main() -> None:
    requests, answers = 0, os.dup(1)
    os.dup2(2, 1)  # the function's prints must not reach the protocol
    sys.path.insert(0, "")  # the current directory is importable, as with `python -m`
    try:
        function = load_callable(sys.argv[1])
    except ValueError as exc:
        _write(answers, frame(b"H" + json.dumps({"error": str(exc)}).encode()))
        return
    _write(answers, frame(b"H" + json.dumps({"ok": True}).encode()))
    while (head := _read_exact(requests, _LENGTH.size)) is not None:
        body = _read_exact(requests, _LENGTH.unpack(head)[0])
        if body is None:
            return
        for number in json.loads(body)["deals"]:
            _write(answers, frame(_answer(function, int(number))))


if __name__ == "__main__":
    main()
