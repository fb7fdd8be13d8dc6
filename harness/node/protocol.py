"""The Node driver's wire protocol (version 3) as typed messages, validated on receipt.

driver.js's header is the prose description; this module is the Python half of the same
contract.  Requests are built with the `*Request` classes; every message from the driver is
read by one of the `read_*` functions, which return typed values or raise `ProtocolError`.
A `ProtocolError` means the driver *answered* but refused the request or said something the
protocol does not allow: the process is alive and is not restarted.  A dead or silent process
is `harness.node.bridge.DriverDied`, a different thing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, get_args

from harness.errors import HarnessError
from harness.intervals import as_interval
from reference.cards import CARD_INDEX, DECK_SIZE

PROTOCOL_VERSION = 3
HELLO = "freecell-harness-driver"

LoadStatus = Literal["ok", "syntax-error", "runtime-error", "missing"]
# "refused": the answer is in an encoding the request must state (--cards, --suits): not a failure
# of the deal but of the request, which the bridge refuses (exit 2).
DealKind = Literal["error", "timeout", "invalid-output", "refused"]
MAX_TEXT_CHARS = 1 << 16  # a board's text; the driver sends no longer one (answers.js MAX_TEXT)
HintStatus = Literal["passed", "failed", "broken"]
HOOKS = ("before_all", "before_each", "before_user", "after_user", "after_each", "after_all")

Json = dict[str, object]


class ProtocolError(HarnessError):
    """The driver refused a request, or sent a message that breaks the protocol."""


class DriverRefused(ProtocolError):
    """The driver answered a request with `{"error": …}`: it could not serve it."""


# ------------------------------------------------------------------------------------ requests


@dataclass(frozen=True, slots=True)
class ModuleSource:
    """One JavaScript file as the driver compiles it (CommonJS-shaped), and where it came from."""

    id: str
    filename: str
    source: str
    line: int = 1  # the file's line of the source's first line
    requires: Mapping[str, str] = field(default_factory=dict)  # require() specifier -> module id

    def to_json(self) -> Json:
        return {
            "id": self.id,
            "filename": self.filename,
            "source": self.source,
            "line": self.line,
            "requires": dict(self.requires),
        }


@dataclass(frozen=True, slots=True)
class LoadRequest:
    modules: tuple[ModuleSource, ...]
    entry: str
    name: str = "dealFreeCell"
    explicit: bool = False  # the user named the function (`node:file.js#name`)
    cards: str | None = None  # how bare-number cards number the deck: "rank-major" | "suit-major"
    suits: str | None = None  # the suits that bare-number suits 0 … 3 are, e.g. "CDHS"

    def to_json(self, request_id: int, timeout_ms: int) -> Json:
        return {
            "op": "load",
            "id": request_id,
            "modules": [m.to_json() for m in self.modules],
            "entry": self.entry,
            "name": self.name,
            "explicit": self.explicit,
            "cards": self.cards,
            "suits": self.suits,
            "timeout_ms": timeout_ms,
        }


@dataclass(frozen=True, slots=True)
class DealRequest:
    deals: Sequence[int]
    mode: Literal["lines", "digest"]
    chunk_ms: int | None = None

    def to_json(self, request_id: int, timeout_ms: int) -> Json:
        out: Json = {"op": "deal", "id": request_id, "mode": self.mode, "timeout_ms": timeout_ms}
        span = as_interval(self.deals)
        if span is not None:
            out.update(start=span.first, stop=span.last)
        else:
            out["deals"] = list(self.deals)
        if self.chunk_ms is not None:
            out["chunk_ms"] = self.chunk_ms
        return out


@dataclass(frozen=True, slots=True)
class CodeBlock:
    code: str
    line: int = 1

    def to_json(self) -> Json:
        return {"code": self.code, "line": self.line}


@dataclass(frozen=True, slots=True)
class HintsRequest:
    file: str
    solution: CodeBlock | None
    hints: tuple[CodeBlock, ...]
    hooks: Mapping[str, CodeBlock] = field(default_factory=dict)  # keys from HOOKS
    defined_names: tuple[str, ...] = ()

    def to_json(self, request_id: int, timeout_ms: int) -> Json:
        unknown = set(self.hooks) - set(HOOKS)
        if unknown:
            raise ValueError(f"unknown hooks {sorted(unknown)}")
        return {
            "op": "hints",
            "id": request_id,
            "file": self.file,
            "solution": self.solution.to_json() if self.solution else None,
            "hooks": {name: (self.hooks[name].to_json() if name in self.hooks else None) for name in HOOKS},
            "hints": [h.to_json() for h in self.hints],
            "defined_names": list(self.defined_names),
            "timeout_ms": timeout_ms,
        }


# ------------------------------------------------------------------------------------ answers


@dataclass(frozen=True, slots=True)
class Hello:
    protocol: int
    node: str


@dataclass(frozen=True, slots=True)
class LoadAnswer:
    status: LoadStatus
    message: str | None = None
    file: str | None = None
    line: int | None = None
    dealer: str | None = None  # how a call is named in messages: "dealFreeCell", "Deck", "new Game"

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass(frozen=True, slots=True)
class DealFailure:
    index: int  # in the block
    deal: int
    kind: DealKind
    message: str
    # Of an invalid-output laid out as a board with a card repeated: its 52 card names in dealing order.
    actual: str | None = None


@dataclass(frozen=True, slots=True)
class RawBoard:
    """A deal's board text that only the lenient reader can read (at most MAX_TEXT_CHARS)."""

    index: int
    value: str


@dataclass(frozen=True, slots=True)
class LinesPart:
    start: int  # index in the block of lines[0] (the wire's `from`)
    lines: tuple[str | None, ...]
    raw: tuple[RawBoard, ...]
    failures: tuple[DealFailure, ...]


@dataclass(frozen=True, slots=True)
class Heartbeat:
    start: int
    done: int


@dataclass(frozen=True, slots=True)
class DealEnd:
    count: int
    digest: str | None = None
    failure: DealFailure | None = None


@dataclass(frozen=True, slots=True)
class HintResult:
    status: HintStatus
    reason: str | None


@dataclass(frozen=True, slots=True)
class HintsAnswer:
    solution_status: LoadStatus
    solution_error: str | None
    after_test_error: str | None
    hints: tuple[HintResult, ...]


# ------------------------------------------------------------------------------- validation


def _get(message: Mapping[str, object], key: str, kind: type | tuple[type, ...], *, optional: bool = False) -> object:
    if key not in message or message[key] is None:
        if optional:
            return None
        raise ProtocolError(f"driver message lacks {key!r}: {_short(message)}")
    value = message[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ProtocolError(f"driver message has a bad {key!r} ({type(value).__name__}): {_short(message)}")
    return value


def _short(message: object) -> str:
    text = repr(message)
    return text if len(text) <= 200 else text[:200] + "…"


def _str(message: Mapping[str, object], key: str) -> str | None:
    value = _get(message, key, str, optional=True)
    return value if isinstance(value, str) else None


def _int(message: Mapping[str, object], key: str) -> int:
    value = _get(message, key, int)
    assert isinstance(value, int)
    return value


def _opt_int(message: Mapping[str, object], key: str) -> int | None:
    value = _get(message, key, int, optional=True)
    return value if isinstance(value, int) else None


def _list(message: Mapping[str, object], key: str) -> list[object]:
    value = _get(message, key, list)
    assert isinstance(value, list)
    return value


def _dict(value: object, what: str) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise ProtocolError(f"driver sent {what} that is not an object: {_short(value)}")
    return value


def check_refusal(message: Mapping[str, object]) -> None:
    """DriverRefused if the driver refused the request this message answers."""
    if "error" in message:
        raise DriverRefused(f"the Node driver refused the request: {message['error']}")


def read_hello(message: Mapping[str, object]) -> Hello:
    if message.get("hello") != HELLO:
        raise ProtocolError(f"not the freecell-harness driver's greeting: {_short(message)}")
    protocol = message.get("protocol")
    if protocol != PROTOCOL_VERSION:
        raise ProtocolError(f"the driver speaks protocol {protocol!r}, not {PROTOCOL_VERSION}")
    return Hello(PROTOCOL_VERSION, str(message.get("node", "")))


def read_load(message: Mapping[str, object]) -> LoadAnswer:
    check_refusal(message)
    if message.get("ok") is True:
        return LoadAnswer("ok", dealer=_str(message, "dealer"))
    status = message.get("status")
    if status not in get_args(LoadStatus) or status == "ok":
        raise ProtocolError(f"driver sent an unknown load status: {_short(message)}")
    return LoadAnswer(status, _str(message, "message"), _str(message, "file"), _opt_int(message, "line"))  # type: ignore[arg-type]


def _failure(value: object) -> DealFailure:
    f = _dict(value, "a failure")
    kind = f.get("kind")
    if kind not in get_args(DealKind):
        raise ProtocolError(f"driver sent an unknown failure kind: {_short(f)}")
    message = _get(f, "message", str)
    assert isinstance(message, str)
    actual = _str(f, "actual")
    if actual is not None and (kind != "invalid-output" or not _card_names(actual)):
        raise ProtocolError(
            f"driver sent a board given that is not the 52 card names of an invalid-output: {_short(f)}"
        )
    return DealFailure(_int(f, "index"), _int(f, "deal"), kind, message, actual)  # type: ignore[arg-type]


def _card_names(line: str) -> bool:
    names = line.split(" ")
    return len(names) == DECK_SIZE and all(n in CARD_INDEX for n in names)


def read_lines_part(message: Mapping[str, object]) -> LinesPart:
    lines = _list(message, "lines")
    if not all(line is None or isinstance(line, str) for line in lines):
        raise ProtocolError(f"driver sent lines that are not text: {_short(lines)}")
    raw = []
    for item in _list(message, "raw"):
        r = _dict(item, "a raw board")
        text = r.get("value")
        if not isinstance(text, str) or len(text) > MAX_TEXT_CHARS:
            raise ProtocolError(f"driver sent a raw board that is not a board's text: {_short(r)}")
        raw.append(RawBoard(_int(r, "index"), text))
    failures = tuple(_failure(f) for f in _list(message, "failures"))
    return LinesPart(_int(message, "from"), tuple(lines), tuple(raw), failures)  # type: ignore[arg-type]


def read_deal_end(message: Mapping[str, object]) -> DealEnd:
    check_refusal(message)
    failure = message.get("failure")
    return DealEnd(_int(message, "count"), _str(message, "digest"), None if failure is None else _failure(failure))


def read_hints(message: Mapping[str, object]) -> HintsAnswer:
    check_refusal(message)
    solution = _dict(message.get("solution"), "a solution state")
    status = solution.get("status")
    if status not in get_args(LoadStatus):
        raise ProtocolError(f"driver sent an unknown solution status: {_short(solution)}")
    results = []
    for item in _list(message, "hints"):
        h = _dict(item, "a hint result")
        hint_status = h.get("status")
        if hint_status not in get_args(HintStatus):
            raise ProtocolError(f"driver sent an unknown hint status: {_short(h)}")
        results.append(HintResult(hint_status, _str(h, "reason")))  # type: ignore[arg-type]
    return HintsAnswer(status, _str(solution, "error"), _str(message, "after_test_error"), tuple(results))  # type: ignore[arg-type]
