"""The child side of `py:MODULE:FUNCTION`: `python -m harness.adapters.py_runner MODULE:FUNCTION CARDS SUITS`.

The harness runs a Python dealer in this process so that it can kill it (a hang, a crash, an
`os._exit`) and bound what it takes.  The protocol (version 2) lives on two private file
descriptors, duplicated from stdin and stdout before the dealer's module is imported; fd 0 then
reads /dev/null and fd 1 (`print`, `sys.stdout`) writes to stderr, so that nothing the dealer
reads or prints touches it.

Frames, both ways, are a 4-byte big-endian length and a payload.  Requests are JSON
`{"deals": [...], "batch": B}`.  Each answer payload is a tag byte, the deal number it answers
(8 bytes, signed big-endian; 0 in the hello) and a body, one frame per deal.  Frames are written
B at a time (one write, not one per deal), and sooner once FLUSH_S has passed since the first of
them was begun, and at the end of the request; with B = 1 (the default), each frame is written
before the next deal is dealt:

    H  JSON {"protocol": 2, "ok": true} or {"protocol": 2, "error": "..."}: the function is loaded, or why not
    L  the deal's canonical line (156 bytes): with B > 1, as `line_to_check` reads the board, which
       leaves out one check, that its 52 cards differ; the parent checks every line's cards and has
       a line that is no board dealt again with B = 1, where each board is read by
       `canonical_line_of` and its failure said as the reader says it
    F  JSON {"kind": "error" | "crash" | "invalid-output", "message": "...", "actual": "..." | null}: `actual`,
       for a board laid out as one with a card repeated, its 52 card names in dealing order
    R  JSON {"message": "..."}: the answer can be read only once an option states its encoding

The dealer's code shares this process, so it can write to these descriptors or patch this
module: the harness trusts no frame.  `read_answer` (run in the harness's process) takes a frame
only if it is exactly one well-formed answer for the deal asked; anything else is that deal's
failure, and the process is replaced.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.machinery
import importlib.util
import inspect
import json
import os
import re
import resource
import struct
import sys
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Final, cast

from harness.errors import BoardError
from harness.shapes import AmbiguousCards, CardEncoding, canonical_line_of, line_to_check
from reference.cards import CARD_NAMES, DECK_SIZE, LINE_BYTES

if TYPE_CHECKING:
    import asyncio

PROTOCOL: Final = 2
_LENGTH = struct.Struct(">I")
_NUMBER = struct.Struct(">q")
HEAD: Final = 1 + _NUMBER.size  # tag and deal number
MAX_FRAME: Final = 1 << 16  # no answer is longer: a longer frame is no answer
MAX_MESSAGE: Final = 2000  # characters of a failure's message
# Frames written together are held at most this long after the first of them was begun (and one
# deal more): a slow dealer's frames go out one per deal, and a gap between writes is never more
# than one deal's time and FLUSH_S (the parent allows that much more before a timeout).
FLUSH_S: Final = 0.001
FAILURE_KINDS: Final = frozenset({"error", "crash", "invalid-output"})
# Where the harness's packages (`harness`, `reference`) are: first on the runner's path for its own
# imports where another folder on it holds a module of their names, then taken off it before the
# dealer's module is imported.
OWN_ROOT: Final = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def frame(payload: bytes) -> bytes:
    return _LENGTH.pack(len(payload)) + payload


def answer_frame(tag: bytes, number: int, body: bytes) -> bytes:
    return frame(tag + _NUMBER.pack(number) + body)


def frame_size(head: bytes | bytearray, at: int = 0) -> int:
    """The payload size a frame's 4-byte head, at `at` in `head`, says."""
    return int(_LENGTH.unpack_from(head, at)[0])


class Breach(Exception):
    """A frame that is not one well-formed answer for the deal asked: the message says how."""


def read_answer(payload: bytes, number: int) -> bytes | tuple[str, str, str | None]:
    """An answer frame for deal `number`, checked: its line of LINE_BYTES (the caller checks that it
    is 52 distinct cards, for a whole batch at once), or (kind, message) of a failure ("refused"
    when an option must state the encoding); Breach if it is anything else."""
    if len(payload) < HEAD:
        raise Breach(f"a frame of {len(payload)} bytes, shorter than any answer")
    tag, said, body = payload[:1], _NUMBER.unpack_from(payload, 1)[0], payload[HEAD:]
    if tag not in (b"L", b"F", b"R"):
        raise Breach(f"a frame tagged {tag!r}, which is no answer")
    if said != number:
        raise Breach(f"an answer for deal {said} where deal {number} was asked")
    if tag == b"L":
        if len(body) != LINE_BYTES:
            raise Breach(f"a board of {len(body)} bytes where one canonical line is {LINE_BYTES}")
        return body  # its cards are checked with the others' (`harness.framing.invalid_lines`)
    try:
        said_json = json.loads(body)
    except ValueError:
        raise Breach("a failure that is not JSON") from None
    message = said_json.get("message") if isinstance(said_json, dict) else None
    if not isinstance(message, str):
        raise Breach("a failure without a message")
    kind = "refused" if tag == b"R" else said_json.get("kind")
    if kind != "refused" and kind not in FAILURE_KINDS:
        raise Breach(f"a failure of no known kind ({str(kind)[:40]!r})")
    actual = said_json.get("actual")
    if actual is not None and not (isinstance(actual, str) and _CARDS_GIVEN.fullmatch(actual)):
        raise Breach("a failure whose board given is not 52 card names")
    return str(kind), message, actual


def _write(fd: int, data: bytes) -> None:
    written = os.write(fd, data)  # a frame is one write, unless the pipe takes less
    if written < len(data):
        view = memoryview(data)[written:]
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


def load_callable(spec: str) -> tuple[Callable[[int], object], str]:
    """`MODULE:NAME[.NAME…]` → the callable and how a call is written in messages, with `{}` for the
    deal number ("Dealer.deal({})", "Game({}).deal()"); ValueError saying why in one line if it
    cannot be had.  An `async def` dealer is awaited."""
    module_name, sep, path = spec.partition(":")
    if not sep or not module_name or not path:
        raise ValueError("expected py:MODULE:FUNCTION, e.g. py:mydealer:deal")
    if clash := _name_taken(module_name):
        raise ValueError(f"cannot import {module_name}: {clash}")
    try:
        found: object = importlib.import_module(module_name)
    except BaseException as exc:
        raise ValueError(f"cannot import {module_name}: {type(exc).__name__}: {exc}") from None
    names = path.split(".")
    call = f"{path}({{}})"
    for i, name in enumerate(names):
        owner, so_far = found, ".".join(names[: i + 1])
        try:
            found = getattr(owner, name)
        except AttributeError:
            where = module_name if i == 0 else ".".join(names[:i])
            raise ValueError(
                f"{where} has no attribute {name}" if i else f"{module_name} has no callable {name}"
            ) from None
        except BaseException as exc:
            raise ValueError(f"{so_far} cannot be read: {type(exc).__name__}: {exc}") from None
        method = inspect.getattr_static(owner, name, None)
        if inspect.isclass(owner) and inspect.isfunction(method):
            cls = ".".join(names[:i])
            if i == len(names) - 1 and not _takes_an_argument(method) and _made_with_one_argument(owner):
                # `Game(seed).deal()`: the class is made with the deal number, the method called without
                found, call = functools.partial(_made_with, owner, name, _awaits(method)), f"{cls}({{}}).{name}()"
                break
            try:  # an instance method, named on its class: call it on an instance made without arguments
                found = getattr(owner(), name)
            except BaseException as exc:
                raise ValueError(
                    f"{so_far} is an instance method, and {cls}() cannot be made without arguments "
                    f"({type(exc).__name__}: {exc}): name a static or class method, an instance, or a method "
                    f"taking no arguments of a class made with the deal number ({cls}(n).{name}())"
                ) from None
    if not callable(found):
        raise ValueError(
            f"{module_name}.{path} is a {type(found).__name__}, not a function or class that can be called"
        )
    function = cast("Callable[[int], object]", found)
    if _awaits(found):
        function = functools.partial(_awaited, function)
    return function, call


def _name_taken(module_name: str) -> str | None:
    """Why a dealer's module cannot be imported under its name: this process already holds another
    module of that top-level name (the harness's own `reference`, a module the runner uses), which an
    import would return in its place."""
    top = module_name.partition(".")[0]
    held = sys.modules.get(top)
    if held is None:
        return None
    found = importlib.machinery.PathFinder.find_spec(top, sys.path)
    ours = getattr(getattr(held, "__spec__", None), "origin", None)
    if found is None or found.origin is None or found.origin == ours:
        return None
    return (
        f"{found.origin} has the name of a module the harness itself runs with ({ours}), "
        f"which an import of {top} would give instead: rename it"
    )


def script_argv(module_name: str) -> list[str]:
    """`sys.argv` as `python -m MODULE` with no arguments would set it: a dealer that reads its command
    line as it is imported (argparse, `sys.argv[1]`) finds none, not the runner's."""
    with contextlib.suppress(Exception):
        # (a submodule's file is not looked for: that would import its package with the runner's arguments)
        spec = importlib.util.find_spec(module_name) if "." not in module_name else None
        if spec is not None and spec.origin is not None and os.path.isfile(spec.origin):
            return [spec.origin]
    return [module_name]


def _takes_an_argument(function: Callable[..., object]) -> bool:
    """Whether an instance method takes an argument besides `self`."""
    try:
        parameters = list(inspect.signature(function).parameters.values())[1:]
    except (TypeError, ValueError):
        return True
    return any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in parameters)


def _made_with_one_argument(cls: type) -> bool:
    """Whether a class is made with one positional argument (the deal number), by its signature."""
    try:
        inspect.signature(cls).bind(0)
    except (TypeError, ValueError):
        return False
    return True


def _made_with(cls: type, name: str, awaits: bool, number: int) -> object:
    value = getattr(cls(number), name)()
    return _run(cast("Coroutine[object, object, object]", value)) if awaits else value


def _awaits(function: object) -> bool:
    return inspect.iscoroutinefunction(function)


_loop: list[asyncio.AbstractEventLoop] = []  # one event loop, made for the first `async def` dealer


def _awaited(function: Callable[[int], object], number: int) -> object:
    """What an `async def` dealer's coroutine returns."""
    return _run(cast("Coroutine[object, object, object]", function(number)))


def _run(coroutine: Coroutine[object, object, object]) -> object:
    if not _loop:
        import asyncio  # only for a dealer that needs it: some 20 ms of imports

        _loop.append(asyncio.new_event_loop())
    return _loop[0].run_until_complete(coroutine)


def _failure(kind: str, message: str, actual: str | None = None) -> tuple[bytes, bytes]:
    return b"F", json.dumps({"kind": kind, "message": message[:MAX_MESSAGE], "actual": actual}).encode()


_CARDS_GIVEN: Final = re.compile(r"[A2-9TJQK][CDHS](?: [A2-9TJQK][CDHS]){51}")


_LINE_HEAD = struct.Struct(">Icq")  # a line's frame: its length, tag and deal number
LINE_PAYLOAD: Final = HEAD + LINE_BYTES


# Methods of a game class that may deal its board, when the class itself was named and gives none.
DEALING_METHODS: Final = ("deal", "new_game", "shuffle", "layout", "board", "get_board", "tableau")


def _method_hint(value: object, spec: str) -> str:
    """`; its method deal() may return the board: py:MODULE:Game.deal` when `spec` names the class of
    `value` (made with the deal number) and that class has such a method taking no arguments."""
    cls = type(value)
    if spec.rpartition(".")[2].rpartition(":")[2] != cls.__name__ or cls.__module__ == "builtins":
        return ""
    for name in DEALING_METHODS:
        method = inspect.getattr_static(cls, name, None)
        if inspect.isfunction(method) and not _takes_an_argument(method):
            return f"; its method {name}() may return the board: py:{spec}.{name}"
    return ""


def _failed(exc: BaseException, value: object, call: str, spec: str = "") -> tuple[bytes, bytes]:
    """The tag and body saying why `call` (of the dealer `spec`) has no board."""
    if isinstance(exc, AmbiguousCards):
        return b"R", json.dumps({"message": f"{call} returned cards where {exc}"[:MAX_MESSAGE]}).encode()
    if isinstance(exc, MemoryError):
        limit = resource.getrlimit(resource.RLIMIT_DATA)[0]  # the memory limit where no cgroup bounds it
        said = f" (--memory-limit {limit >> 20} MB)" if limit != resource.RLIM_INFINITY else ""
        return _failure("crash", f"{call}: MemoryError: over the memory limit{said}")
    if isinstance(exc, SystemExit):
        return _failure("crash", f"{call} called sys.exit({exc.code!r})")
    if isinstance(exc, BoardError) and value is None:
        return _failure(
            "invalid-output",
            f"{call} returned None, not a board: a py: dealer returns its board (what it prints is not read; "
            "a program that prints boards is checked as stream: or cmd:)",
        )
    if isinstance(exc, BoardError):
        given = None if exc.cards is None or len(exc.cards) != DECK_SIZE else " ".join(CARD_NAMES[c] for c in exc.cards)
        return _failure(
            "invalid-output", f"{call} returned {_described(value)}: {exc}{_method_hint(value, spec)}", given
        )
    return _failure("error", f"{call} raised {type(exc).__name__}: {exc}")


def _described(value: object) -> str:
    """What a value is, in Python's words: "a list of 7 lists", "a GameState", "a str of 12 characters"."""
    try:
        if isinstance(value, str):
            return f"a str of {len(value):,} characters"
        if isinstance(value, list | tuple):
            kinds = sorted({type(v).__name__ for v in value[:60]})
            inner = f" of {', '.join(kinds[:3])}" if kinds else ""
            return f"a {type(value).__name__} of {len(value)} items{inner}"
        return f"a {type(value).__name__}"
    except Exception:
        return "a value"


def main() -> None:
    requests, answers = os.dup(0), os.dup(1)  # the protocol's own descriptors, not inherited
    quiet = os.open(os.devnull, os.O_RDONLY)
    os.dup2(quiet, 0)  # a dealer that reads stdin reads nothing of the requests
    os.close(quiet)
    os.dup2(2, 1)  # and its prints go to stderr, never into the answers
    if sys.path and sys.path[0] == OWN_ROOT:
        del sys.path[0]  # put there for the runner's own imports only
    sys.path.insert(0, "")  # the current directory is importable, as with `python -m`
    spec, cards, suits = sys.argv[1], sys.argv[2], sys.argv[3]
    sys.argv[:] = script_argv(spec.partition(":")[0])
    encoding = CardEncoding(cards if cards != "-" else None, suits if suits != "-" else None)
    try:
        function, called = load_callable(spec)
    except ValueError as exc:
        _write(answers, answer_frame(b"H", 0, json.dumps({"protocol": PROTOCOL, "error": str(exc)}).encode()))
        return
    _write(answers, answer_frame(b"H", 0, json.dumps({"protocol": PROTOCOL, "ok": True}).encode()))
    while (head := _read_exact(requests, _LENGTH.size)) is not None:
        body = _read_exact(requests, frame_size(head))
        if body is None:
            return
        request = json.loads(body)
        batch = int(request.get("batch", 1))
        held: list[bytes] = []  # frames not yet written
        hold, line_head, now = held.append, _LINE_HEAD.pack, time.monotonic
        # Many frames per write: the parent checks every line's cards (one per write: each board read exactly).
        line_of = line_to_check if batch > 1 else canonical_line_of
        since = 0.0  # when the first of them was begun
        for number in map(int, request["deals"]):
            if not held:
                since = now()
            value: object = None
            try:
                value = function(number)
                hold(line_head(LINE_PAYLOAD, b"L", number) + line_of(value, encoding))
            except BaseException as exc:
                tag, said = _failed(exc, value, called.format(number), spec)
                hold(answer_frame(tag, number, said))
            if len(held) >= batch or now() - since >= FLUSH_S:
                _write(answers, b"".join(held))
                held.clear()
        if held:
            _write(answers, b"".join(held))


if __name__ == "__main__":
    main()
