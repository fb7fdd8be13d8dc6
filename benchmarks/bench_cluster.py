"""One machine's workers through Dask (`verify --cluster`) against the same machine without it
(`verify --jobs N`): the cost of running the engine's blocks as Dask tasks.  Goal: ≥ 0.9×.

    python benchmarks/bench_cluster.py [--impl IMPL] [--against IMPL] [--range A-B] [--workers N] [--runs R]

A `dask scheduler` and N `dask worker` processes (one thread each; N defaults to the cores) are
started on 127.0.0.1 for the measurement and killed after it.  Each run is a fresh `verify`
command; the two ways alternate, R times each, and the medians of their wall times are compared
(side by side, so that a change in the machine's load touches both alike).  The cluster run
includes connecting to the scheduler and starting the dealers on the workers, as a user's does.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def local_cluster(workers: int) -> Iterator[str]:
    """A scheduler and `workers` one-thread workers on 127.0.0.1; its address while it lasts."""
    dask = str(Path(sys.executable).parent / "dask") if (Path(sys.executable).parent / "dask").exists() else "dask"
    if shutil.which(dask) is None:
        sys.exit("bench_cluster: the `dask` command is missing: pip install 'freecell-harness[cluster]'")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "start_new_session": True}
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                                env=env, **quiet)]  # type: ignore[call-overload]  # fmt: skip
    try:
        args = ["worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--no-dashboard", "--no-nanny"]
        started += [subprocess.Popen([dask, *args], env=env, **quiet) for _ in range(workers)]  # type: ignore[call-overload]
        from distributed import Client

        with Client(address, timeout=60, set_as_default=False) as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(workers, timeout=120)
        yield address
    finally:
        for process in started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def timed(argv: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--impl", default="reference")
    parser.add_argument("--against", default="reference")
    parser.add_argument("--range", default="1-2000000")
    parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    first, last = (int(n) for n in args.range.split("-"))
    deals = last - first + 1
    verify = [sys.executable, "-m", "harness", "verify", args.impl, "--against", args.against, "--range", args.range]
    verify.append("-q")
    with local_cluster(args.workers) as address:
        alone, dask = [], []
        for _ in range(args.runs):
            alone.append(timed([*verify, "--jobs", str(args.workers)]))
            dask.append(timed([*verify, "--cluster", address]))
    a, d = statistics.median(alone), statistics.median(dask)
    print(f"{args.impl} against {args.against}, {deals:,} deals, {args.workers} workers, median of {args.runs} runs:")
    print(f"  verify --jobs {args.workers:<4}   {a:7.2f} s   {deals / a:12,.0f} deals/s")
    print(f"  verify --cluster      {d:7.2f} s   {deals / d:12,.0f} deals/s   (one thread per worker)")
    print(f"  through Dask / alone: {a / d:.2f}×  (goal ≥ 0.9×)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
