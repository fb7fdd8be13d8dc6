"""The Python side of the Node driver (`driver.js`, whose header documents the wire protocol).

One long-lived Node process per `NodeBridge`; deals go to it in blocks.  A process that dies or
stops answering is killed (its whole process group), restarted with the same solution, and the
block goes on; a crash is pinned to the deal that caused it by re-dealing the rest of the block
one deal per message.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import process
from harness.failures import Failure
from harness.intervals import as_interval
from harness.node.locate import find_node
from harness.process import NO_LIMITS, Limits

DRIVER = Path(__file__).with_name("driver.js")
PROTOCOL = 1
STARTUP_S = 10.0  # a fresh Node process has this long to say hello
SLACK_S = 1.0  # beyond the driver's own 1.5 × timeout, before the watchdog kills it
STEP_WINDOW = 256  # after a crash, deals re-dealt one per message to find the one that killed it

Message = dict[str, Any]


class DriverDied(Exception):
    """The Node process exited, or was killed because it stopped answering."""

    def __init__(self, message: str, *, hung: bool) -> None:
        super().__init__(message)
        self.hung = hung


@dataclass(frozen=True, slots=True)
class LoadResult:
    """What became of loading a solution: `status` is ok, syntax-error, runtime-error or missing."""

    status: str
    message: str | None = None
    line: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


class _Process:
    """One Node driver process (supervised by `harness.process`) and its line-framed stdout."""

    def __init__(self, node: str, limits: Limits = NO_LIMITS) -> None:
        argv = [node]
        if limits.memory_mb and "max-old-space-size" not in os.environ.get("NODE_OPTIONS", ""):
            # V8's heap stops here; typed arrays live outside it, bounded by RLIMIT_DATA.
            argv.append(f"--max-old-space-size={limits.memory_mb}")
        self.child = process.spawn([*argv, str(DRIVER)], limits=limits, memory="data")
        self.proc = self.child.proc
        self.buffer = b""

    def send(self, request: Message) -> None:
        if not self.child.write(json.dumps(request).encode() + b"\n"):
            raise self._died(hung=False)

    def receive(self, within: float) -> Message:
        """The next JSON message; DriverDied if the process exits or says nothing for `within` s."""
        deadline = time.monotonic() + within
        while True:
            nl = self.buffer.find(b"\n")
            if nl >= 0:
                line, self.buffer = self.buffer[:nl], self.buffer[nl + 1 :]
                try:
                    message = json.loads(line)
                except ValueError:
                    continue  # not ours (something wrote to stdout behind the protocol's back)
                if isinstance(message, dict):
                    return message
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise self._died(hung=True)
            chunk = self.child.read(left)
            if chunk == b"":
                raise self._died(hung=False)
            if chunk:
                self.buffer += chunk

    def _died(self, *, hung: bool) -> DriverDied:
        if hung:
            return DriverDied("Node stopped answering and was killed", hung=True)
        if self.child.wait(5) is None:
            self.kill()
        else:
            self.child.finish()
        code = self.child.returncode
        how = f"signal {signal.Signals(-code).name}" if code is not None and code < 0 else f"status {code}"
        tail = self._stderr_lines()
        fatal = [t for t in tail if t.startswith(("FATAL ERROR", "Fatal error", "RangeError", "Error"))]
        last = fatal[0] if fatal else (tail[-1] if tail else None)
        limit = self.child.limit_hit(" ".join(tail))
        said = (f": {last}" if last else "") + (f"; {limit}" if limit else "")
        return DriverDied(f"Node exited with {how}{said}", hung=False)

    def _stderr_lines(self) -> list[str]:
        return [t.strip() for t in self.child.stderr_lines() if t.strip()][-20:]

    def kill(self) -> None:
        self.child.kill()

    def close(self) -> None:
        if self.child.alive():
            self.child.close_stdin()
            if self.child.wait(2) is None:
                self.child.kill()
                return
        self.child.finish()


class NodeBridge:
    """A Node driver process that stays up: load a solution once, then deal blocks."""

    def __init__(self, timeout: float = 10.0, limits: Limits = NO_LIMITS) -> None:
        self.node = find_node()  # RequestError (exit 2) when Node is missing or too old
        self.timeout = timeout
        self.limits = limits
        self._proc: _Process | None = None
        self._next_id = 0
        self._load_request: Message | None = None
        self.restarts = 0

    # -- process life -------------------------------------------------------------------------

    def _process(self) -> _Process:
        if self._proc is None or self._proc.proc.poll() is not None:
            if self._proc is not None:
                self._proc.close()
                self.restarts += 1
            proc = _Process(self.node, self.limits)
            hello = proc.receive(STARTUP_S)
            if hello.get("protocol") != PROTOCOL:
                proc.kill()
                raise DriverDied(f"{DRIVER.name} speaks protocol {hello.get('protocol')}, not {PROTOCOL}", hung=False)
            self._proc = proc
            if self._load_request is not None:
                self._call(dict(self._load_request))
        return self._proc

    def _watchdog_s(self) -> float:
        return 2 * self.timeout + SLACK_S

    def _request(self, request: Message) -> int:
        self._next_id += 1
        request["id"] = self._next_id
        self._process().send(request)
        return self._next_id

    def _answer(self, request_id: int) -> Message:
        assert self._proc is not None
        while True:
            message = self._proc.receive(self._watchdog_s())
            if message.get("id") == request_id:
                return message

    def _call(self, request: Message) -> Message:
        """Send one request and return its final message (parts are skipped)."""
        request_id = self._request(request)
        while True:
            message = self._answer(request_id)
            if message.get("end"):
                if "error" in message:
                    raise DriverDied(f"driver refused the request: {message['error']}", hung=False)
                return message

    def close(self) -> None:
        if self._proc is not None:
            self._proc.close()
            self._proc = None

    def reset(self) -> None:
        """Kill the process: the next request starts a fresh one (and loads the solution again)."""
        if self._proc is not None:
            self._proc.kill()
            self._proc = None

    # -- requests -----------------------------------------------------------------------------

    def load(self, source: str, filename: str, line: int = 1) -> LoadResult:
        """Compile and run the solution's top level; later deals use it (also after restarts)."""
        request: Message = {"op": "load", "source": source, "filename": filename, "line": line}
        request["timeout_ms"] = int(self.timeout * 1000)
        self._load_request = None
        answer = self._call(dict(request))
        result = LoadResult(str(answer.get("status", "ok")), answer.get("message"), answer.get("line"))
        if answer.get("ok"):
            self._load_request = request
            return LoadResult("ok")
        return result

    def hints(self, payload: Message) -> Message:
        """Run a challenge's hints (see the driver's `hints` op); the final message."""
        request = dict(payload, op="hints", timeout_ms=int(self.timeout * 1000))
        for attempt in range(2):
            try:
                return self._call(request)
            except DriverDied:
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _deal_request(self, deals: Sequence[int], mode: str, chunk_ms: int | None) -> Message:
        request: Message = {"op": "deal", "mode": mode, "timeout_ms": int(self.timeout * 1000)}
        span = as_interval(deals)
        if span is not None:
            request.update(start=span.first, stop=span.last)
        else:
            request["deals"] = list(deals)
        if chunk_ms is not None:
            request["chunk_ms"] = chunk_ms
        return request

    def digest(self, deals: Sequence[int]) -> str | None:
        """SHA-256 of the deals' canonical lines, or None if any deal fails (or Node dies)."""
        if not deals:
            return _EMPTY_DIGEST
        try:
            answer = self._call(self._deal_request(deals, "digest", None))
        except DriverDied:
            self._restart()
            return None
        digest = answer.get("digest")
        return str(digest) if digest is not None else None

    def lines(self, deals: Sequence[int]) -> list[bytes | Failure]:
        """One canonical line (bytes) or Failure per deal, whatever the process does meanwhile."""
        out: list[bytes | Failure | None] = [None] * len(deals)
        pos = 0
        step_until = 0  # deals before this index are re-dealt one per message
        while pos < len(deals):
            stepping = pos < step_until
            rest = deals[pos:step_until] if stepping else deals[pos:]
            start = pos
            try:
                request_id = self._request(self._deal_request(rest, "lines", 0 if stepping else None))
                while True:
                    message = self._answer(request_id)
                    if "error" in message:
                        raise DriverDied(f"driver refused the request: {message['error']}", hung=False)
                    if message.get("end"):
                        break
                    self._store(out, deals, start, message)
                    pos = start + int(message["from"]) + len(message["lines"])
            except DriverDied as died:
                self._restart()
                if stepping:
                    why = f"dealFreeCell({deals[pos]}): {died}"
                    out[pos] = Failure(deals[pos], "timeout" if died.hung else "crash", why)
                    pos += 1
                    step_until = 0
                else:
                    step_until = min(len(deals), pos + STEP_WINDOW)
        return [a for a in out if a is not None]

    @staticmethod
    def _store(out: list[bytes | Failure | None], deals: Sequence[int], start: int, message: Message) -> None:
        """Put a `part` message of a request for deals[start:] into `out`."""
        base = start + int(message["from"])
        for k, line in enumerate(message["lines"]):
            if line is not None:
                out[base + k] = line.encode()
        for f in message["failures"]:
            i = start + int(f["index"])
            out[i] = Failure.from_json({**f, "deal": deals[i]})

    def _restart(self) -> None:
        if self._proc is not None:
            self._proc.kill()
        self._process()


_EMPTY_DIGEST = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
