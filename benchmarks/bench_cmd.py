"""What `cmd:` costs beside what its processes cost: the harness against a shell loop, same run.

    python benchmarks/bench_cmd.py [--deals N] [--jobs J]

Builds examples/c/freecell.c (needs cc) and times, for deals 1 … N: (1) a shell loop that starts
the dealer once per deal (`for n in …; do freecell -f line $n; done > /dev/null`), and
(2) `freecell-harness verify cmd:… --range 1-N --jobs 1`, which starts it once per deal too, and
prints the ratio (the goal: at most 2×).
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    args = parser.parse_args()
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        print("bench_cmd: needs cc or gcc", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        exe = str(Path(tmp) / "freecell")
        subprocess.run([cc, "-O2", "-o", exe, str(ROOT / "examples" / "c" / "freecell.c")], check=True)
        loop = f'n=1; while [ $n -le {args.deals} ]; do "{exe}" -f line $n; n=$((n + 1)); done > /dev/null'
        started = time.perf_counter()
        subprocess.run(["sh", "-c", loop], check=True)
        shell = time.perf_counter() - started
        request = Request(impl=f"cmd:{exe} -f line {{n}}", ranges=((1, args.deals),), jobs=1)
        outcome = engine.run(request)
        assert outcome.conformant and outcome.checked == args.deals, outcome.first_failure
        harness = outcome.elapsed_s
        print(f"{args.deals:,} deals, one process each, 1 job")
        print(f"  shell loop  {shell:7.2f} s  ({args.deals / shell:8,.0f} deals/s)")
        print(f"  cmd:        {harness:7.2f} s  ({args.deals / harness:8,.0f} deals/s)")
        print(f"  ratio       {harness / shell:7.2f}×  (goal: at most 2×)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
