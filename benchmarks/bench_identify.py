"""`identify` time per board over the whole fcpro domain, beside what a brute-force scan would take.

    python benchmarks/bench_identify.py [--boards K] [--slice N] [--seed S]

Identifies K boards of deal numbers drawn uniformly from 1 … 2³³−1 (each must be found), and
times a scan with the project's fastest range path (`reference.iter_lines`, NumPy, searching each
chunk of canonical lines for the board) over N deals taken from each of fcpro's three rules;
the scan's rate is scaled to the 8,589,934,591 deal numbers a scan would have to deal.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import reference
from harness.diagnosis import identify
from reference.dialects import FCPRO_LAST

RULES = ((1, 2**31 - 1), (2**31, 2**32 - 1), (2**32, FCPRO_LAST))


def time_identify(boards: int, seed: int) -> tuple[list[float], float]:
    """Wall-clock seconds per board, and the mean CPU seconds (what a shared machine's load does not inflate)."""
    rng = random.Random(seed)
    seconds, cpu = [], 0.0
    for _ in range(boards):
        n = rng.randint(1, FCPRO_LAST)
        cards = reference.deal(n, "fcpro").cards
        started, started_cpu = time.perf_counter(), time.process_time()
        found = identify(cards)
        seconds.append(time.perf_counter() - started)
        cpu += time.process_time() - started_cpu
        assert n in [m.deal for m in found], (n, found)
    return seconds, cpu / boards


def scan_rate(per_rule: int, seed: int) -> float:
    """Deals per second of a scan: deal a range in bulk and look for the board in it."""
    rng = random.Random(seed)
    target = reference.deal(rng.randint(1, FCPRO_LAST), "fcpro").line.encode()
    dealt, started = 0, time.perf_counter()
    for first, last in RULES:
        start = rng.randint(first, last - per_rule)
        for chunk in reference.iter_lines(start, start + per_rule - 1, "fcpro"):
            chunk.find(target)
        dealt += per_rule
    return dealt / (time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=50)
    parser.add_argument("--slice", type=int, default=300_000, help="deals scanned from each of fcpro's rules")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    identify(reference.deal(1).cards)  # tables built once, as in any long-lived use
    seconds, cpu = time_identify(args.boards, args.seed)
    rate = scan_rate(args.slice, args.seed)
    scan_s = FCPRO_LAST / rate
    mean = statistics.mean(seconds)
    print(f"identify: {args.boards} boards from 1 … 2³³−1, all found")
    print(f"  per board: mean {mean:.3f} s, median {statistics.median(seconds):.3f} s, max {max(seconds):.3f} s")
    print(f"  CPU time per board: mean {cpu:.3f} s")
    print(f"brute-force scan with reference.iter_lines: {rate:,.0f} deals/s on {3 * args.slice:,} deals")
    print(f"  scaled to {FCPRO_LAST:,} deals: {scan_s:,.0f} s ({scan_s / 3600:.1f} h) per board")
    print(f"identify is {scan_s / mean:,.0f} times faster")
    return 0


if __name__ == "__main__":
    sys.exit(main())
