"""A real Dask cluster on 127.0.0.1 for tests: a `dask scheduler` and `dask worker` processes on free
ports, each carrying a marker in its environment (as do the dealers they start), so that every
process of the cluster can be found and killed at the end, also those a killed parent left behind."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import wait_for

TESTS = Path(__file__).resolve().parent
MARKER = "FREECELL_CLUSTER_TEST"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _dask() -> str:
    here = Path(sys.executable).parent / "dask"
    found = str(here) if here.exists() else shutil.which("dask")
    if found is None:
        pytest.fail("the `dask` command of Dask distributed is missing: install the test extra")
    return found


def marked(marker: str, *, containing: str = "") -> list[int]:
    """Live processes whose environment holds `MARKER=marker` (and whose command line holds `containing`)."""
    needle = f"{MARKER}={marker}".encode()
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            environ = Path(entry.path, "environ").read_bytes()
            state = Path(entry.path, "stat").read_bytes().rsplit(b")", 1)[1].split()[0]
            cmdline = Path(entry.path, "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if needle in environ and state != b"Z" and containing.encode() in cmdline:
            found.append(int(entry.name))
    return found


class DaskCluster:
    """A scheduler and its workers, started here; `close` kills every process of theirs."""

    def __init__(self, logs: Path) -> None:
        self.marker = uuid.uuid4().hex
        self.logs = logs
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.processes: list[subprocess.Popen[bytes]] = []
        self.scheduler = self._start("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", str(self.port)])
        wait_for(self._listening, f"the scheduler listening on {self.address}", limit_s=60)

    def _listening(self) -> bool:
        if self.scheduler.poll() is not None:
            pytest.fail(f"the scheduler ended: {(self.logs / 'scheduler.log').read_text()[-2000:]}")
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    def env(self, **extra: str) -> dict[str, str]:
        path = os.pathsep.join(p for p in (str(TESTS / "dealers"), os.environ.get("PYTHONPATH", "")) if p)
        return {**os.environ, "PYTHONPATH": path, MARKER: self.marker, **extra}

    def _start(self, name: str, args: list[str], **env: str) -> subprocess.Popen[bytes]:
        log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 (kept open by the process)
        process = subprocess.Popen(
            [_dask(), *args, "--no-dashboard"],
            env=self.env(**env),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            cwd=self.logs,
        )
        log.close()
        self.processes.append(process)
        return process

    def add_worker(self, name: str, *, nanny: bool = False, threads: int = 1, **env: str) -> subprocess.Popen[bytes]:
        """A worker (its own process, or with --nanny its nanny's child), registered before this returns."""
        before = self.workers()
        args = ["worker", self.address, "--host", "127.0.0.1", "--nthreads", str(threads), "--death-timeout", "60"]
        process = self._start(name, [*args, "--nanny" if nanny else "--no-nanny"], **env)
        wait_for(lambda: self.workers() > before, f"worker {name} registered", limit_s=60)
        return process

    def workers(self) -> int:
        """Workers the scheduler has, asked the way a user would (`dask` is not imported in the test process)."""
        from distributed import Client

        with Client(self.address, timeout=30, set_as_default=False) as client:  # type: ignore[no-untyped-call]
            return len(client.scheduler_info(n_workers=-1)["workers"])

    def close(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
        for pid in marked(self.marker):  # dealers and spawners of killed workers, in sessions of their own
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for process in self.processes:
            process.wait(timeout=30)


def dask_cluster(tmp: Path) -> Iterator[DaskCluster]:
    cluster = DaskCluster(tmp)
    try:
        yield cluster
    finally:
        cluster.close()
