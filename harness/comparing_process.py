"""A process that compares blocks for a caller that cannot fork one (a Dask worker): the engine's own
worker (`engine.serve_blocks`) started as a program, with a socket for its connection."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from multiprocessing.connection import Connection
from typing import Any

from harness.compare import BlockResult
from harness.engine import STOP_GRACE_S, Request, serve_blocks
from harness.errors import RequestError
from harness.intervals import Block
from harness.process import exit_text


class ComparingProcess:
    """One process on a worker that compares the run's blocks with one pair of dealers, kept open: the
    engine's own worker (`engine.serve_blocks`), started as a program (a Dask worker may be a daemonic
    process, which multiprocessing forbids to have children).  Ending it ends its dealers."""

    def __init__(self, request: Request) -> None:
        mine, theirs = socket.socketpair()
        with theirs:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "harness.comparing_process", str(theirs.fileno()), str(os.getpid())],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
            )
        self.conn = Connection(mine.detach())
        self.conn.send(request)
        what, value = self._receive()
        if what != "ready":
            self.stop()
            raise RequestError(f"the dealers cannot be started: {value}")

    def _receive(self) -> tuple[str, Any]:
        try:
            what, value = self.conn.recv()
        except (EOFError, OSError):
            self.stop()
            raise RequestError(
                f"the process comparing the blocks ended ({exit_text(self.process.returncode)}): a dealer that "
                "ends the process it runs in (os._exit, a crash of the interpreter) cannot be judged"
            ) from None
        if what == "refused":
            self.stop()
            raise RequestError(value)
        if what == "broken":
            self.stop()
            raise RuntimeError(value)
        return what, value

    def compare(self, block: Block) -> BlockResult:
        self.conn.send((block, None))
        while True:
            what, value = self._receive()
            if what == "result":
                result: BlockResult = value
                return result

    def stop(self) -> None:
        """SIGTERM: it kills its dealers and ends; killed outright after a grace."""
        with contextlib.suppress(OSError):
            self.process.terminate()
        try:
            self.process.wait(STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.conn.close()


def _serve(fd: int, parent: int) -> None:
    """`python -m harness.comparing_process FD PARENT`: a comparing process, its request the first message on FD."""
    conn = Connection(fd)
    request = conn.recv()
    serve_blocks(conn, request, parent)


__all__ = ["ComparingProcess"]

if __name__ == "__main__":
    _serve(int(sys.argv[1]), int(sys.argv[2]))
