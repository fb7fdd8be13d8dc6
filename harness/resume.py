"""`--resume FILE`: a log of finished blocks, so an interrupted run continues where it stopped.

JSON lines: first a header (what the run is: its options, and what the dealers *are*: hashes of
the files the IMPL names and the harness version), then one line per finished block.  Lines are
written whole, so an interruption loses at most the line being written, which is cut off.

A log is trusted only when its header matches the run in every respect.  A log of the same run
by another build of a dealer (rebuilt since) is begun anew, and the run says so; anything else is
refused in one line saying what changed.  The file is locked while a run uses it (two runs on
one log would interleave their blocks), never followed through a symlink, and never replaces a
file that is not such a log.
"""

from __future__ import annotations

import bisect
import errno
import fcntl
import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from harness.adapters.build import dealer_identity
from harness.compare import BlockResult
from harness.errors import RequestError
from harness.failures import Failure
from harness.intervals import Block
from harness.reports.report import harness_version

FORMAT = "freecell-harness resume log"
FORMAT_VERSION = 2


def run_identity(impl: str, against: str) -> dict[str, object]:
    return {"harness": harness_version(), "implementation": dealer_identity(impl), "against": dealer_identity(against)}


class ResumeLog:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._fd: int | None = None
        self._line_of: dict[str, int] = {}  # block key → its line in the log
        self.restarted: str | None = None  # why a log of another build was begun anew

    def _refuse(self, why: str) -> RequestError:
        self.close()
        return RequestError(f"--resume {self.path}: {why}")

    def _open(self) -> int:
        try:
            before = os.lstat(self.path)
        except FileNotFoundError:
            before = None
        except OSError as exc:
            raise self._refuse(f"cannot read: {exc.strerror}") from None
        if before is not None and stat.S_ISLNK(before.st_mode):
            raise self._refuse("is a symbolic link; give the file itself (a log is never written through a link)")
        if before is not None and not stat.S_ISREG(before.st_mode):
            raise self._refuse("is not a regular file")
        try:
            # 0o666: the new file gets the mode the user's umask asks for; O_NONBLOCK: a FIFO put here since
            # the check above is not waited on, and is refused below.
            flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY
            fd = os.open(self.path, flags, 0o666)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise self._refuse("is a symbolic link; give the file itself") from None
            raise self._refuse(f"cannot open: {exc.strerror}") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise self._refuse("is not a regular file")
        return fd

    def load(self, fingerprint: dict[str, object], identity: dict[str, object] | None = None) -> dict[str, BlockResult]:
        """Blocks already finished by this run; starts a new log if there is none.

        RequestError when the file is in use by another run, is not a log of ours, or is the log
        of another run or of another build of a dealer."""
        self._fd = self._open()
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise self._refuse("in use by another run (locked); wait for it or give another file") from None
        with os.fdopen(os.dup(self._fd), "rb") as f:
            data = f.read()
        header: dict[str, object] = {"log": FORMAT, "version": FORMAT_VERSION, "run": fingerprint}
        if identity is not None:
            header["identity"] = identity
        if not data:
            self._write(header)
            return {}
        lines = data.split(b"\n")
        whole = lines[:-1]  # the last piece has no newline: empty, or a line cut off by an interruption
        if not whole:
            raise self._refuse("exists and is not a resume log of freecell-harness; refusing to overwrite it")
        if rebuilt := self._check_header(whole[0], header):
            self.restarted = f"the log was made by another build ({rebuilt}): started afresh"
            os.ftruncate(self._fd, 0)
            os.lseek(self._fd, 0, os.SEEK_SET)
            self._write(header)
            return {}
        done: dict[str, BlockResult] = {}
        for number, raw in enumerate(whole[1:], start=2):
            result = self._entry(raw, number)
            done[result.key] = result
            self._line_of[result.key] = number
        if lines[-1]:
            os.ftruncate(self._fd, len(data) - len(lines[-1]))  # drop the cut-off line before appending
        os.lseek(self._fd, 0, os.SEEK_END)
        return done

    def _check_header(self, raw: bytes, wanted: dict[str, object]) -> str | None:
        """RequestError unless the header is this run's; what changed when only the dealers' build did."""
        try:
            header = json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError):
            header = None
        if not isinstance(header, dict) or header.get("log") != FORMAT:
            if isinstance(header, dict) and "run" in header:
                raise self._refuse("written by an older freecell-harness that did not record the dealer; remove it")
            raise self._refuse("exists and is not a resume log of freecell-harness; refusing to overwrite it")
        if header.get("version") != FORMAT_VERSION:
            raise self._refuse(f"a log of format {header.get('version')}, not {FORMAT_VERSION}; remove it")
        then_run, now_run = header.get("run"), wanted["run"]
        if then_run != now_run:
            raise self._refuse(f"the log belongs to another run ({_changes(then_run, now_run)})")
        if "identity" in wanted and header.get("identity") != wanted["identity"]:
            return _changes(header.get("identity"), wanted["identity"])
        return None

    def _entry(self, raw: bytes, number: int) -> BlockResult:
        try:
            entry = json.loads(raw)
            assert isinstance(entry, dict) and set(entry) == {"block", "checked", "failure"}
            key, checked, failure = entry["block"], entry["checked"], entry["failure"]
            assert isinstance(key, str) and type(checked) is int and checked >= 0
            assert failure is None or isinstance(failure, dict)
            return BlockResult(key, checked, Failure.from_json(failure) if failure is not None else None)
        except (AssertionError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, ValueError):
            raise self._refuse(f"line {number}: not a block entry of a resume log") from None

    def counted(self, block: Block, result: BlockResult) -> BlockResult:
        """The log's `result` for `block`, once its count agrees with the block: at most every deal of it
        when no failure was found (fewer: a block an interrupted run had begun, whose other deals are dealt
        again), else its deals up to the failure, which lies in it (RequestError naming the line otherwise:
        a count edited in the log would be reported as deals checked)."""
        where = f"line {self._line_of.get(result.key, '?')}: block {block.key}"
        f = result.failure
        if f is not None and f.deal not in block.deals:
            raise self._refuse(f"{where} claims a failure at deal {f.deal}, outside it (edited?)")
        wanted = len(block.deals) if f is None else _position(block.deals, f.deal) + 1
        begun = f is None and 0 <= result.checked < wanted
        if result.checked != wanted and not begun:
            upto = "" if f is None else f" up to its failure at {f.deal}"
            raise self._refuse(f"{where} claims {result.checked} deals checked; it holds {wanted}{upto} (edited?)")
        return result

    def append(self, result: BlockResult) -> None:
        failure = result.failure.to_json() if result.failure else None
        self._write({"block": result.key, "checked": result.checked, "failure": failure})

    def _write(self, entry: dict[str, object]) -> None:
        assert self._fd is not None
        line = (json.dumps(entry, separators=(",", ":")) + "\n").encode()
        try:
            os.write(self._fd, line)
        except OSError as exc:
            raise RequestError(f"--resume {self.path}: cannot write: {exc.strerror}") from None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # and with it the lock
            self._fd = None


def _position(deals: Sequence[int], deal: int) -> int:
    """Where `deal` lies in a block's deals (a range, or a sample's sorted list)."""
    if isinstance(deals, range):
        return deals.index(deal)
    return bisect.bisect_left(deals, deal)


def _changes(then: object, now: object, where: str = "") -> str:
    """What differs between two headers, in one line: `dealer.js: "3f2a…" then, "9b1c…" now`."""
    if isinstance(then, dict) and isinstance(now, dict):
        keys = sorted(set(then) | set(now))
        return "; ".join(_changes(then.get(k), now.get(k), f"{where}{k} ") for k in keys if then.get(k) != now.get(k))
    return f"{where.strip()}: {_short(then)} then, {_short(now)} now"


def _short(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:14] + "…"
