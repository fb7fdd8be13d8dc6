"""Deals checked per second through `stream:` (2 jobs), beside the dealer's own printing speed.

    python benchmarks/bench_stream.py [--deals N] [--jobs J]

Builds examples/c/freecell.c (needs cc) and, for two of its layouts (rows after a `Game #N`
header, and canonical lines), times (1) the dealer alone printing the same deals to /dev/null
and (2) `freecell-harness verify stream:… --range 1-N --jobs J` in the same run.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import engine
from harness.engine import Request

ROOT = Path(__file__).resolve().parent.parent
LAYOUTS = {"rows with a header": ["-H"], "canonical lines": ["-f", "line"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        print("bench_stream: needs cc or gcc", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        exe = str(Path(tmp) / "freecell")
        subprocess.run([cc, "-O2", "-o", exe, str(ROOT / "examples" / "c" / "freecell.c")], check=True)
        numbers = Path(tmp) / "numbers"
        numbers.write_bytes(b"".join(b"%d\n" % n for n in range(1, args.deals + 1)))
        print(f"{args.deals:,} deals, {args.jobs} jobs")
        for name, flags in LAYOUTS.items():
            with numbers.open("rb") as stdin:
                started = time.perf_counter()
                subprocess.run([exe, *flags], stdin=stdin, stdout=subprocess.DEVNULL, check=True)
                printing = args.deals / (time.perf_counter() - started)
            request = Request(impl=f"stream:{exe} {' '.join(flags)}", ranges=((1, args.deals),), jobs=args.jobs)
            outcome = engine.run(request)
            assert outcome.conformant and outcome.checked == args.deals, outcome.first_failure
            checked = outcome.checked / outcome.elapsed_s
            print(f"  {name:20} checked {checked:>10,.0f} deals/s (the dealer alone prints {printing:>10,.0f} deals/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
