"""The Python side of the Node driver (`driver.js`; the messages are typed in `protocol.py`).

One long-lived Node process per `NodeBridge`, started under Node's permission model; deals go
to it in blocks.  A process that dies or stops answering is killed (its whole process group),
restarted with the same dealer, and the block goes on.  A death the dealer caused is pinned to
its deal by `pin_failure` (see `NodeBridge.lines`); a death it did not cause is not.
A driver that *refuses* a request (`protocol.ProtocolError`) is alive and answering: that is
raised, never restarted.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import signal
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from harness import process
from harness.adapters.pinning import pin_failure
from harness.cards import BoardError, board_given, canonical_line, read_board
from harness.errors import HarnessError, RequestError
from harness.failures import Failure
from harness.limits import NO_LIMITS, Limits
from harness.node import protocol
from harness.node.locate import MIN_NODE_MAJOR, NODE_ENV, find_node, permission_flags
from harness.node.protocol import DealFailure, DealRequest, HintsAnswer, HintsRequest, LoadAnswer, LoadRequest

DRIVER = Path(__file__).with_name("driver.js")
STARTUP_S = 10.0  # a fresh Node process has this long to say hello
SLACK_S = 1.0  # beyond the driver's own 1.5 × timeout, before the watchdog kills it
STEP_WINDOW = 256  # after a death the dealer did not cause, deals dealt one per message
HISTORY_CAP = 2_000_000  # deals a process may have dealt and still be dealt again to pin its death
# Signals a process sends itself (V8's fatal errors abort; a native fault): the dealer's doing.
SELF_INFLICTED = frozenset(
    {signal.SIGABRT, signal.SIGTRAP, signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE}
)

Message = dict[str, Any]


class DriverDied(HarnessError):
    """The Node process exited, or was killed because it stopped answering.

    `by_dealer`: it died by itself (a fatal error such as V8's heap exhausted, an exit, a limit
    of ours it ran into), as opposed to being stopped or killed from outside.
    """

    def __init__(self, message: str, *, hung: bool, by_dealer: bool = False) -> None:
        super().__init__(message)
        self.hung = hung
        self.by_dealer = by_dealer and not hung


def driver_command(node: str) -> list[str]:
    """How the driver is started: under the permission model, reading only its own directory
    (no child processes, no worker threads, no file writes); vm modules on, so that `import()`
    can be refused inside a dealer's context."""
    return [node, *permission_flags(node, DRIVER.parent), "--experimental-vm-modules", "--no-warnings", str(DRIVER)]


def driver_env(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The driver's environment: ours, but $NODE_OPTIONS cannot widen the permission model
    (`--allow-child-process`, `--allow-fs-write=*` … there are dropped)."""
    env = dict(os.environ if environ is None else environ)
    options = env.get("NODE_OPTIONS")
    if options:
        kept = [o for o in options.split() if not o.startswith(_WIDENING)]
        if kept:
            env["NODE_OPTIONS"] = " ".join(kept)
        else:
            del env["NODE_OPTIONS"]
    return env


_WIDENING = ("--allow-", "--no-experimental-permission", "--no-permission")


class _Process:
    """One Node driver process (supervised by `harness.process`) and its line-framed stdout."""

    def __init__(self, node: str, limits: Limits = NO_LIMITS) -> None:
        argv = driver_command(node)
        self.heap_set_by_user = "max-old-space-size" in os.environ.get("NODE_OPTIONS", "")
        if limits.memory_mb and not self.heap_set_by_user:
            # V8's heap stops here; typed arrays live outside it, bounded by the tree's memory limit.
            argv.insert(1, f"--max-old-space-size={limits.memory_mb}")
        self.child = process.spawn(argv, limits=limits, env=driver_env())
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
        # All that is kept of stderr: Node's fatal line is followed by a native stack of some 30 lines.
        lines = [t.strip() for t in self.child.stderr_lines() if t.strip()]
        fatal = [t for t in lines if t.startswith(("FATAL ERROR", "Fatal error", "RangeError", "Error"))]
        last = fatal[0] if fatal else (lines[-1] if lines else None)
        limit = self.child.limit_hit(" ".join(lines))
        if self.heap_set_by_user and last is not None and "JavaScript heap" in last:
            limit = "over the V8 heap size set in $NODE_OPTIONS (--max-old-space-size)"
        said = (f": {last}" if last else "") + (f"; {limit}" if limit else "")
        by_dealer = code is not None and (code >= 0 or -code in SELF_INFLICTED or limit is not None)
        return DriverDied(f"Node exited with {how}{said}", hung=False, by_dealer=by_dealer)

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
    """A Node driver process that stays up: load a dealer once, then deal blocks."""

    def __init__(self, timeout: float = 10.0, limits: Limits = NO_LIMITS) -> None:
        self.node = find_node()  # RequestError (exit 2) when Node is missing, too old, or not Node
        self.timeout = timeout
        self.limits = limits
        self._proc: _Process | None = None
        self._next_id = 0
        self._load_request: LoadRequest | None = None
        self.dealer_name = "dealFreeCell"
        self.restarts = 0  # processes started after the first
        self._started = False
        self._dealt: list[DealRequest] = []  # what the current process was asked to deal, in order
        self._dealt_count = 0  # deals in those requests; beyond HISTORY_CAP they are no longer kept

    # -- process life -------------------------------------------------------------------------

    def _process(self) -> _Process:
        if self._proc is None or not self._proc.child.alive():
            if self._proc is not None:
                self._proc.close()
            first = not self._started
            self.restarts += not first
            self._started = True
            proc = _Process(self.node, self.limits)
            try:
                protocol.read_hello(proc.receive(STARTUP_S))
            except (DriverDied, protocol.ProtocolError) as exc:
                proc.kill()
                proc.close()
                if first:  # it never worked: the "Node" we found is not one that runs the driver
                    raise RequestError(
                        f"{self.node} did not start the Node driver ({exc}): "
                        f"set ${NODE_ENV} to a Node >= {MIN_NODE_MAJOR}"
                    ) from None
                raise
            self._proc = proc
            self._forget_dealt()
            if self._load_request is not None:
                answer = protocol.read_load(self._call(self._load_request.to_json(self._new_id(), self._timeout_ms)))
                if not answer.ok:
                    raise DriverDied(f"the dealer no longer loads after a restart: {answer.message}", hung=False)
        return self._proc

    @property
    def _timeout_ms(self) -> int:
        return int(self.timeout * 1000)

    def _watchdog_s(self) -> float:
        return 2 * self.timeout + SLACK_S

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _send(self, request: Message) -> int:
        proc = self._process()
        proc.send(request)
        return int(request["id"])

    def _deal(self, request: DealRequest) -> int:
        proc = self._process()
        self._dealt_count += len(request.deals)  # before sending: a process that dies on receiving it was asked
        if self._dealt_count <= HISTORY_CAP:
            self._dealt.append(request)
        else:
            self._dealt.clear()
        request_id = self._new_id()
        proc.send(request.to_json(request_id, self._timeout_ms))
        return request_id

    def _answer(self, request_id: int) -> Message:
        assert self._proc is not None
        while True:
            message = self._proc.receive(self._watchdog_s())
            if message.get("id") == request_id:
                return message

    def _call(self, request: Message) -> Message:
        """Send one request and return its final message (parts are skipped)."""
        return self._finish(self._send(request))

    def _finish(self, request_id: int) -> Message:
        """The final message of a request (parts are skipped)."""
        while True:
            message = self._answer(request_id)
            if message.get("end"):
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

    def load(self, request: LoadRequest) -> LoadAnswer:
        """Compile and run a dealer's modules; later deals use it (also after restarts)."""
        self._load_request = None
        self.dealer_name = request.name
        self._forget_dealt()
        answer = protocol.read_load(self._call(request.to_json(self._new_id(), self._timeout_ms)))
        if answer.ok:
            self._load_request = request
            self.dealer_name = answer.dealer or request.name
        return answer

    def hints(self, request: HintsRequest) -> HintsAnswer:
        """Run a challenge's hints (see the driver's `hints` op); once more if Node dies meanwhile."""
        for attempt in range(2):
            try:
                return protocol.read_hints(self._call(request.to_json(self._new_id(), self._timeout_ms)))
            except DriverDied:
                self._discard()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def digest(self, deals: Sequence[int]) -> str | None:
        """SHA-256 of the deals' canonical lines, or None if any deal fails (or Node dies)."""
        if not deals:
            return _EMPTY_DIGEST
        try:
            end = protocol.read_deal_end(self._finish(self._deal(DealRequest(deals, "digest"))))
        except DriverDied:
            end = None  # the deals are dealt again below, where a death is pinned to its deal or to none
        if end is not None and end.failure is not None and end.failure.kind == "refused":
            raise RequestError(end.failure.message)
        if end is None or (end.digest is None and end.failure is None):
            # Some board is text only the lenient reader here can read, or the process died.
            answers = self.lines(deals)
            if any(isinstance(a, Failure) for a in answers):
                return None
            return hashlib.sha256(b"".join(a for a in answers if isinstance(a, bytes))).hexdigest()
        return end.digest

    def lines(self, deals: Sequence[int]) -> list[bytes | Failure]:
        """One canonical line (bytes) or Failure per deal, whatever the process does meanwhile.

        A process that died by itself is the dealer's doing: `pin_failure` pins the death
        to its deal (the process's life is dealt again from a fresh start, the unanswered deals
        one per message, and the deal it dies at is dealt alone too), so that a dealer that dies
        of what it kept from earlier deals is blamed where it died, and said to keep state.
        A process that hung (killed by our watchdog: the driver's own timeout interrupts any
        dealer) or was killed from outside died of nothing the deals did: pinning would blame a
        deal that is not at fault, so the block goes on in a new process, the next deals one per
        message, and only a second death among those is blamed, on its deal.
        """
        out: list[bytes | Failure | None] = [None] * len(deals)
        pos = 0
        step_until = 0  # deals before this index are re-dealt one per message
        while pos < len(deals):
            stepping = pos < step_until
            rest = deals[pos:step_until] if stepping else deals[pos:]
            start = pos
            try:
                for part in self._parts(DealRequest(rest, "lines", 0 if stepping else None)):
                    self._store(out, deals, start, part)
                    pos = start + part.start + len(part.lines)
            except DriverDied as died:
                if pos == len(deals):  # every deal answered: it died before it could end the request
                    self._discard()
                    break
                if died.by_dealer:
                    if self._dealt_count <= HISTORY_CAP:
                        before, untold = [*self._dealt[:-1], DealRequest(deals[start:pos], "lines")], 0
                    else:  # a long life is not dealt again: the death is looked for from a fresh start
                        before, untold = [], self._dealt_count - len(rest) + (pos - start)
                    again = functools.partial(self._again, before, untold=untold)
                    pinned = pin_failure(deals[pos:], self._died_at(deals[pos], died), self._alone, again)
                    out[pos : pos + len(pinned)] = pinned
                    pos += len(pinned)
                    step_until = 0
                    self._discard()
                    continue
                self._restart()
                if stepping:
                    out[pos] = self._died_at(deals[pos], died)
                    pos += 1
                    step_until = 0
                else:
                    step_until = min(len(deals), pos + STEP_WINDOW)
        return [a for a in out if a is not None]

    def _parts(self, request: DealRequest) -> Iterator[protocol.LinesPart]:
        """Send a lines request and yield its parts; DriverDied if the process dies meanwhile."""
        request_id = self._deal(request)
        while True:
            message = self._answer(request_id)
            if message.get("end"):
                protocol.read_deal_end(message)
                return
            protocol.check_refusal(message)
            yield protocol.read_lines_part(message)

    def _died_at(self, deal: int, died: DriverDied, after: int = 0, untold: int = 0) -> Failure:
        before = f", after {after} other deals in the same process" if after else ""
        if untold:
            before += f" (dealt again without the {untold} deals its first process had dealt before)"
        return Failure(deal, "timeout" if died.hung else "crash", f"{self.dealer_name}({deal}){before}: {died}")

    def _alone(self, deal: int) -> bytes | Failure:
        """`deal` dealt alone, in a fresh process."""
        return self._afresh([], [deal])[0]

    def _again(self, before: Sequence[DealRequest], todo: Sequence[int], untold: int = 0) -> list[bytes | Failure]:
        """What a process asked to deal `before` did, dealt again from a fresh start, then `todo`
        one deal per message: its answers up to and including the first failure (a death is then
        at the very deal it happened in).  Empty if the process dies while dealing `before`."""
        answers = self._afresh(before, todo, one_by_one=True, untold=untold)
        first = next((i for i, a in enumerate(answers) if isinstance(a, Failure)), len(answers))
        return answers[: first + 1]

    def _afresh(
        self, before: Sequence[DealRequest], todo: Sequence[int], *, one_by_one: bool = False, untold: int = 0
    ) -> list[bytes | Failure]:
        self._discard()
        try:
            for request in before:
                if request.deals:
                    self._finish(self._deal(request))
        except DriverDied:
            self._discard()
            return []
        out: list[bytes | Failure | None] = [None] * len(todo)
        done = 0
        try:
            for part in self._parts(DealRequest(todo, "lines", 0 if one_by_one else None)):
                self._store(out, todo, 0, part)
                done = part.start + len(part.lines)
                if one_by_one and any(isinstance(a, Failure) for a in out[part.start : done]):
                    break
        except DriverDied as died:
            if done < len(todo):
                history = sum(len(r.deals) for r in before) + done
                out[done] = self._died_at(todo[done], died, history, untold)
                done += 1
        self._discard()
        return [a for a in out[:done] if a is not None]

    def _store(
        self, out: list[bytes | Failure | None], deals: Sequence[int], start: int, part: protocol.LinesPart
    ) -> None:
        """Put a `part` message of a request for deals[start:] into `out`."""
        base = start + part.start
        if base + len(part.lines) > len(out):
            raise protocol.ProtocolError(f"the driver answered {base + len(part.lines)} deals of {len(out)}")
        for k, line in enumerate(part.lines):
            if line is not None:
                out[base + k] = line.encode()
        for raw in part.raw:
            i = start + raw.index
            out[i] = self._read_raw(deals[i], raw.value)
        for f in part.failures:
            if f.kind == "refused":
                raise RequestError(f.message)
            i = start + f.index
            out[i] = _failure(deals[i], f)

    def _read_raw(self, deal: int, text: str) -> bytes | Failure:
        said = f"{self.dealer_name}({deal}) returned the text {_excerpt(text)}"
        if len(text) > protocol.MAX_TEXT_CHARS:  # never cut to fit: the driver sends no such text
            return Failure(
                deal, "invalid-output", f"{said}: longer than a board's text ({protocol.MAX_TEXT_CHARS} characters)"
            )
        try:
            return canonical_line(read_board(text))
        except BoardError as exc:
            return Failure(deal, "invalid-output", f"{said}: {exc}", None, board_given(exc))
        except RecursionError:  # JSON-like text nested thousands deep
            return Failure(deal, "invalid-output", f"{said}: nested deeper than a board")

    def _forget_dealt(self) -> None:
        self._dealt, self._dealt_count = [], 0

    def _discard(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.close()
            self._proc = None

    def _restart(self) -> None:
        if self._proc is not None:
            self._proc.kill()
        self._process()


def _failure(deal: int, f: DealFailure) -> Failure:
    if f.kind == "refused":  # raised before it gets here: the request's failure, not the deal's
        raise RequestError(f.message)
    return Failure(deal, f.kind, f.message, None, f.actual)


def _excerpt(text: str) -> str:
    """A text as JavaScript writes a string, cut to 40 characters."""
    return json.dumps(text[:40], ensure_ascii=False) + ("…" if len(text) > 40 else "")


_EMPTY_DIGEST = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
