"""Benchmark: a whole `verify node:<seed> --jobs 2` against a bare Node loop, same run; peak memory.

    python benchmarks/bench_verify.py [--deals 1000000] [--memory-deals 10000000] [--repeat 3]

Both sides are timed as whole commands, start-up included: the bare loop (bench_node.py's) runs
the original solution in one Node process and hashes the canonical lines; `verify` checks the same
deals against the reference with 2 worker processes, each with its own Node.  The memory figure is
the peak of the summed resident memory of `verify` and all its descendants, sampled every 50 ms.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench_node import BARE_LOOP

from harness.challenge import read_challenge
from harness.node.locate import find_node
from harness.seeds import default_seed_document


def _tree_rss_kib(root: int) -> int:
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            total += next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
            for task in os.listdir(f"/proc/{pid}/task"):
                stack += [int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
        except (OSError, StopIteration):
            continue
    return total


def timed(argv: list[str], allowed: tuple[int, ...] = (0,)) -> tuple[float, int, str]:
    """Wall seconds, peak tree RSS (KiB) and stdout of a command."""
    peak = 0
    started = time.perf_counter()
    with subprocess.Popen(argv, stdout=subprocess.PIPE, text=True) as proc:
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.wait(0.05):
                peak = max(peak, _tree_rss_kib(proc.pid))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        out, _ = proc.communicate()
        done.set()
        sampler.join()
    elapsed = time.perf_counter() - started
    if proc.returncode not in allowed:
        sys.exit(f"{' '.join(argv)} exited {proc.returncode}")
    return elapsed, peak, out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--memory-deals", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    document = os.path.relpath(default_seed_document())
    solution = read_challenge(document).solution
    assert solution is not None
    node = find_node()
    cli = [sys.executable, "-m", "harness"]
    verify = [*cli, "verify", f"node:{document}", "--range", f"1-{args.deals}", "--jobs", "2"]
    version = subprocess.getoutput(f"{node} --version")
    print(f"machine: nproc {os.cpu_count()}, load {os.getloadavg()[0]:.1f}; node {version}")
    with tempfile.TemporaryDirectory() as tmp:
        script, source = Path(tmp, "bare.js"), Path(tmp, "solution.js")
        script.write_text(BARE_LOOP, encoding="utf-8")
        source.write_text(solution, encoding="utf-8")
        bare = [node, str(script), str(source), str(args.deals)]
        bare_s, verify_s = [], []
        for _ in range(args.repeat):
            bare_s.append(timed(bare)[0])
            verify_s.append(timed(verify)[0])
    b, v = min(bare_s), min(verify_s)
    print(f"deals 1 … {args.deals:,}, best of {args.repeat}, whole commands, start-up included")
    print(f"  bare Node loop (1 process)          {b:7.2f} s  {args.deals / b:>10,.0f} deals/s")
    ratio = f"= {v / b:.2f}× the bare loop"
    print(f"  verify node:<seed> --jobs 2         {v:7.2f} s  {args.deals / v:>10,.0f} deals/s  {ratio}")
    if args.memory_deals:
        argv = [*cli, "verify", f"node:{document}", "--range", f"1-{args.memory_deals}", "--jobs", "2"]
        seconds, peak, _ = timed(argv)
        memory = f"peak memory {peak / 1024:.0f} MiB (all processes)"
        print(f"  verify of 1 … {args.memory_deals:,} deals: {seconds:.1f} s, {memory}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
