"""What the command line costs before it does any work: `--version`, and `identify` of one board,
beside `python -c pass` (the interpreter alone) and the imports a library user or pytest pays for.

    python benchmarks/bench_cli_start.py [--runs N]

Each figure is the CPU time (user + system) of a fresh child process, read from
getrusage(RUSAGE_CHILDREN) around it, the median of N runs: what a shared machine's load inflates
least.  Wall-clock medians are printed beside it.  The children import this checkout's copy.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(argv: list[str], stdin: bytes, runs: int) -> tuple[float, float]:
    """Median CPU seconds and median wall seconds of `argv`, run `runs` times."""
    cpu, wall = [], []
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for _ in range(runs):
        before, started = _children_cpu(), time.perf_counter()
        subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, check=True, cwd=ROOT, env=env)
        wall.append(time.perf_counter() - started)
        cpu.append(_children_cpu() - before)
    return statistics.median(cpu), statistics.median(wall)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    py = sys.executable
    board = subprocess.run(
        [py, "-m", "harness", "deal", "1"],
        capture_output=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    ).stdout
    cases = [
        ("python -c pass", [py, "-c", "pass"], b""),
        ("import pytest", [py, "-c", "import pytest"], b""),
        ("import numpy", [py, "-c", "import numpy"], b""),
        ("import harness.errors", [py, "-c", "import harness.errors"], b""),
        ("import harness.pytest_plugin", [py, "-c", "import harness.pytest_plugin"], b""),
        ("freecell-harness --version", [py, "-m", "harness", "--version"], b""),
        ("freecell-harness identify (1 board)", [py, "-m", "harness", "identify"], board),
    ]
    print(f"{'':40} {'CPU s':>8} {'wall s':>8}   (median of {args.runs} runs, each a fresh process)")
    for label, argv, stdin in cases:
        cpu, wall = measure(argv, stdin, args.runs)
        print(f"{label:40} {cpu:8.3f} {wall:8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
