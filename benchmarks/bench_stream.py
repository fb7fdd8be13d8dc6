"""Deals checked per second through `stream:` (2 jobs), one layout after another, beside plain rows.

    python benchmarks/bench_stream.py [--deals N] [--jobs J] [--layouts rows,symbols,…] [--repeat R]

Builds examples/c/freecell.c and benchmarks/layouts.c (needs cc).  For each layout, in the same
run: (1) the dealer alone printing the deals to /dev/null; (2) `freecell-harness verify
stream:… --range 1-N --jobs J`.  The layouts are those programs print: plain rows, a header per
board, canonical lines, suit symbols, `10` for ten, suit-first, ANSI colours, quotes and
brackets, JSON arrays, a header per board over suit symbols.  Goal (issue 18.5): every layout
≥ 0.5× the deals/s of plain rows.
With --repeat R, each layout is checked R times, rows first each round, and its best is shown
(a loaded machine slows some runs, never speeds one up).
"""

from __future__ import annotations

import argparse
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

FREECELL = {"rows with a header (freecell.c)": ["-H"], "canonical lines (freecell.c)": ["-f", "line"]}
LAYOUTS = ("rows", "header", "symbols", "ten", "suit-first", "ansi", "quoted", "json", "header-symbols")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--layouts", help="comma-separated, of " + ", ".join(LAYOUTS) + " (default: all)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds; each layout's best is shown")
    args = parser.parse_args()
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        print("bench_stream: needs cc or gcc", file=sys.stderr)
        return 2
    layouts = args.layouts.split(",") if args.layouts else list(LAYOUTS)
    if "rows" not in layouts:
        layouts.insert(0, "rows")
    with tempfile.TemporaryDirectory() as tmp:
        freecell, printer = str(Path(tmp) / "freecell"), str(Path(tmp) / "layouts")
        subprocess.run([cc, "-O2", "-o", freecell, str(ROOT / "examples" / "c" / "freecell.c")], check=True)
        subprocess.run([cc, "-O2", "-o", printer, str(ROOT / "benchmarks" / "layouts.c")], check=True)
        numbers = Path(tmp) / "numbers"
        numbers.write_bytes(b"".join(b"%d\n" % n for n in range(1, args.deals + 1)))
        print(f"{args.deals:,} deals, {args.jobs} jobs, best of {args.repeat}")
        commands = {name: [printer, name] for name in layouts}
        commands |= {name: [freecell, *flags] for name, flags in FREECELL.items()} if not args.layouts else {}
        best: dict[str, float] = {}
        printing: dict[str, float] = {}
        for _ in range(args.repeat):
            for name, argv in commands.items():
                with numbers.open("rb") as stdin:
                    started = time.perf_counter()
                    subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL, check=True)
                    printing[name] = max(printing.get(name, 0.0), args.deals / (time.perf_counter() - started))
                request = Request(impl=f"stream:{' '.join(argv)}", ranges=((1, args.deals),), jobs=args.jobs)
                outcome = engine.run(request)
                assert outcome.conformant and outcome.checked == args.deals, outcome.first_failure
                best[name] = max(best.get(name, 0.0), outcome.checked / outcome.elapsed_s)
        rows = best["rows"]
        for name, checked in best.items():
            print(
                f"  {name:32} checked {checked:>10,.0f} deals/s ({checked / rows:4.2f}× rows;"
                f" the dealer alone prints {printing[name]:>10,.0f} deals/s)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
