"""The Python side of the Node driver (`driver.js`, whose header documents the wire protocol).

One long-lived Node process per `NodeBridge`; deals go to it in blocks.  A process that dies or
stops answering is killed (its whole process group), restarted with the same solution, and the
block goes on; a crash is pinned to the deal that caused it by re-dealing the rest of the block
one deal per message.
"""

from __future__ import annotations

import collections
import json
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.failures import Failure
from harness.intervals import as_interval
from harness.node.locate import find_node

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
    """One Node driver process and its line-framed stdout."""

    def __init__(self, node: str) -> None:
        self.proc = subprocess.Popen(
            [node, str(DRIVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group, killed as one
        )
        self.buffer = b""
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            text = raw.decode("utf-8", "replace").strip()
            if text:
                self.stderr_tail.append(text)

    def send(self, request: Message) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._died(hung=False) from None

    def receive(self, within: float) -> Message:
        """The next JSON message; DriverDied if the process exits or says nothing for `within` s."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
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
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    raise self._died(hung=False)
                self.buffer += chunk

    def _died(self, *, hung: bool) -> DriverDied:
        if hung:
            return DriverDied("Node stopped answering and was killed", hung=True)
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.returncode
        how = f"signal {signal.Signals(-code).name}" if code is not None and code < 0 else f"status {code}"
        time.sleep(0.05)  # let the stderr thread catch Node's last words
        tail = list(self.stderr_tail)
        fatal = [t for t in tail if t.startswith(("FATAL ERROR", "Fatal error", "RangeError", "Error"))]
        last = fatal[0] if fatal else (tail[-1] if tail else None)
        return DriverDied(f"Node exited with {how}" + (f": {last}" if last else ""), hung=False)

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        self.proc.wait()

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self.kill()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


class NodeBridge:
    """A Node driver process that stays up: load a solution once, then deal blocks."""

    def __init__(self, timeout: float = 10.0) -> None:
        self.node = find_node()  # RequestError (exit 2) when Node is missing or too old
        self.timeout = timeout
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
            proc = _Process(self.node)
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
