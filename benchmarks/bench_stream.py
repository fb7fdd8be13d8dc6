"""`stream:` against the dealer alone (issue 32): harness time ÷ the dealer's own time, layout by layout.

    python benchmarks/bench_stream.py [--deals N] [--jobs J] [--layouts rows,symbols,…] [--repeat R]

Builds examples/c/freecell.c and benchmarks/layouts.c (needs cc).  For each layout, side by side
in one run: (1) the yardstick, the dealer alone reading the same numbers from a pipe and writing
into /dev/null (what a user would time); (2) `freecell-harness verify stream:… --range 1-N --jobs
J` (in this process, as `engine.run`).  Printed: each one's seconds, and the harness's time ÷ the
dealer's.  Goals (issue 32, one job): canonical lines (`freecell -f line`) ≤ 2×, rows ≤ 3×.  The
layouts of `layouts.c` (suit symbols, `10`, suit-first, ANSI colours, quotes, JSON, …) are read by
the template and plain fast paths, not in bulk: with `--layouts` they are measured beside rows.
With --repeat R, each is measured R times and its best kept (a loaded machine slows some runs,
never speeds one up).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's harness

from harness import engine  # noqa: E402
from harness.engine import Request  # noqa: E402

FREECELL = {
    "canonical lines (freecell.c -f line)": ["-f", "line"],
    "rows (freecell.c)": [],
    "rows with a header (freecell.c -H)": ["-H"],
}
LAYOUTS = ("rows", "header", "symbols", "ten", "suit-first", "ansi", "quoted", "json", "header-symbols")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3_000_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--layouts", help="comma-separated, of " + ", ".join(LAYOUTS) + " (default: all)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds; each layout's best is shown")
    args = parser.parse_args()
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        print("bench_stream: needs cc or gcc", file=sys.stderr)
        return 2
    layouts = args.layouts.split(",") if args.layouts else []
    if layouts and "rows" not in layouts:
        layouts.insert(0, "rows")
    with tempfile.TemporaryDirectory() as tmp:
        freecell, printer = str(Path(tmp) / "freecell"), str(Path(tmp) / "layouts")
        subprocess.run([cc, "-O2", "-o", freecell, str(ROOT / "examples" / "c" / "freecell.c")], check=True)
        subprocess.run([cc, "-O2", "-o", printer, str(ROOT / "benchmarks" / "layouts.c")], check=True)
        numbers = b"".join(b"%d\n" % n for n in range(1, args.deals + 1))
        print(f"{args.deals:,} deals, {args.jobs} job(s), best of {args.repeat}; {os.cpu_count()} cores,"
              f" load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the start")  # fmt: skip
        commands = {name: [freecell, *flags] for name, flags in FREECELL.items()}
        commands |= {f"{name} (layouts.c)": [printer, name] for name in layouts}
        harness: dict[str, float] = {}
        alone: dict[str, float] = {}
        for _ in range(args.repeat):
            for name, argv in commands.items():
                started = time.perf_counter()
                with subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL) as dealer:
                    dealer.communicate(numbers)
                alone[name] = min(alone.get(name, float("inf")), time.perf_counter() - started)
                request = Request(impl=f"stream:{' '.join(argv)}", ranges=((1, args.deals),), jobs=args.jobs)
                started = time.perf_counter()
                outcome = engine.run(request)
                elapsed = time.perf_counter() - started
                assert outcome.conformant and outcome.checked == args.deals, outcome.first_failure
                harness[name] = min(harness.get(name, float("inf")), elapsed)
        print(f"  {'dealer':44} {'alone, s':>9} {'verify, s':>10} {'÷ alone':>8} {'deals/s':>12}")
        for name in commands:
            print(
                f"  {name:44} {alone[name]:>9.3f} {harness[name]:>10.3f} {harness[name] / alone[name]:>7.2f}×"
                f" {args.deals / harness[name]:>12,.0f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
