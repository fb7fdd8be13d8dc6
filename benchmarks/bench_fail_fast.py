"""Time to a verdict for a slow dealer: failing at deal 1 against conforming, and to stop on SIGTERM.

    python benchmarks/bench_fail_fast.py [--deals N] [--slow SECONDS] [--jobs J]

Uses tests/dealers/slow_dealer.py as a `stream:` program (every deal takes --slow seconds) over
deals 1 … N: (1) planted wrong at deal 1, (2) conforming; then (3) a run SIGTERMed after 2 s,
timed from the signal to the exit.
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEALER = ROOT / "tests" / "dealers" / "slow_dealer.py"


def verify(deals: int, jobs: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    impl = f"stream:{shlex.join([sys.executable, str(DEALER)])}"
    argv = [sys.executable, "-m", "harness", "verify", impl, f"--range=1-{deals}", f"--jobs={jobs}", "--quiet"]
    return subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--slow", type=float, default=0.01)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    base = dict(os.environ, SLOW_S=str(args.slow))
    for label, wrong in (("fails at deal 1", 1), ("conforms", 0)):
        started = time.perf_counter()
        code = verify(args.deals, args.jobs, dict(base, SLOW_UNTIL=str(args.deals), SLOW_WRONG=str(wrong))).wait()
        print(f"{label:>16}: exit {code} after {time.perf_counter() - started:6.2f} s")
    run = verify(10**6, args.jobs, dict(base, SLOW_UNTIL=str(10**6), SLOW_WRONG="0"))
    time.sleep(2)
    signalled = time.perf_counter()
    run.send_signal(signal.SIGTERM)
    code = run.wait()
    print(f"{'SIGTERM':>16}: exit {code} {time.perf_counter() - signalled:6.2f} s after the signal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
