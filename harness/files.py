"""The harness's file I/O: a file it is given is read only when it is a regular file, and never past a
cap (a FIFO, a device, `/dev/zero` or a socket is refused in one line, never waited on or read without
end); a file it writes is written atomically (a reader sees the old file or the new one, never half)."""

from __future__ import annotations

import contextlib
import os
import select
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, TextIO

from harness.errors import RequestError

MiB = 1 << 20

_KINDS = {
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a directory",
}


class FileRefused(RequestError):
    """A file that was not read: missing, unreadable, not a regular file, or over its cap (exit 2).

    `reason` says why without the path, for callers that name the file their own way (a fixture is
    named by its path in the fixtures directory, and is then a corrupted fixture, exit 1)."""

    def __init__(self, path: str | os.PathLike[str], what: str, why: str, *, missing: bool = False) -> None:
        self.path, self.why, self.missing = os.fspath(path), why, missing
        self.reason = f"cannot read the {what}: {why}"
        super().__init__(f"{self.path}: {self.reason}")


def _kind(mode: int) -> str:
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


@contextlib.contextmanager
def open_regular(path: str | os.PathLike[str], what: str = "file") -> Iterator[BinaryIO]:
    """`path` opened for reading, once it is known to be a regular file (a link to one is followed).

    Checked before opening (a FIFO is never opened: opening one waits for a writer), opened without
    blocking, and checked again once open (it may have been replaced in between)."""
    try:
        before = os.stat(path)
    except FileNotFoundError:
        raise FileRefused(path, what, "no such file", missing=True) from None
    except OSError as exc:
        raise FileRefused(path, what, exc.strerror or str(exc)) from None
    if not stat.S_ISREG(before.st_mode):
        raise FileRefused(path, what, f"it is {_kind(before.st_mode)}; only regular files are read")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise FileRefused(path, what, exc.strerror or str(exc)) from None
    try:
        after = os.fstat(fd)
        if (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino) or not stat.S_ISREG(after.st_mode):
            raise FileRefused(path, what, "it was replaced while being opened")
        f = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with f:
        yield f


def read_regular(path: str | os.PathLike[str], limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most `limit` bytes; FileRefused (one line naming it) otherwise."""
    with open_regular(path, what) as f:
        try:
            data = f.read(limit + 1)
        except OSError as exc:
            raise FileRefused(path, what, exc.strerror or str(exc)) from None
    if len(data) > limit:
        raise FileRefused(path, what, f"larger than {_size(limit)}")
    return data


def _size(limit: int) -> str:
    return f"{limit / MiB:g} MiB" if limit >= MiB else f"{limit} bytes"


def write_atomically(path: str | os.PathLike[str], data: str | bytes) -> None:
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            os.chmod(tmp, 0o666 & ~_umask())  # the mode the user's umask asks for, not mkstemp's 0600
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise RequestError(f"cannot write {target}: {exc.strerror or exc}") from None


def _umask() -> int:
    mask = os.umask(0o022)  # reading the umask means setting it: put it straight back
    os.umask(mask)
    return mask


def write_all(out: TextIO, data: bytes) -> None:
    """Write all of `data` to `out` (stdout) after what its buffers hold.  A write to a descriptor can take
    part of it (an unbuffered stdout, `python -u`), or none (a pipe left non-blocking by a program sharing
    it): what is left is written again, once the descriptor takes more."""
    out.flush()
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):  # no descriptor (a stream in memory): it takes it all
        out.buffer.write(data)
        return
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:
            select.select([], [fd], [])
