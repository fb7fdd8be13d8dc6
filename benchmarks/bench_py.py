"""Deals checked per second through `py:`, one shape after another, beside the bare loop.

    python benchmarks/bench_py.py [--deals N] [--shapes rows,columns,…]

The dealer (benchmarks/shaped_dealers.py) is one pure-Python Microsoft dealer returning each
shape real games return.  For each shape, in the same run: (1) the bare loop, calling the
function for deals 1 … N in this process; (2) `verify py:shaped_dealers:SHAPE --range 1-N
--jobs 1`.  Goals (issue 18.5): every shape's verify ≤ 1.2× the time of rows' verify, and rows'
verify ≤ 1.5× its bare loop.  A dealer that builds objects costs more in its own code: the last
column is what the harness adds per deal (verify's time per deal less the bare loop's), the part
a shape can change.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from harness import engine
from harness.engine import Request

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50_000)
    parser.add_argument("--shapes", help="comma-separated (default: all)")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    import shaped_dealers

    shapes = args.shapes.split(",") if args.shapes else list(shaped_dealers.SHAPES)
    if "rows" not in shapes:
        shapes.insert(0, "rows")
    print(f"{args.deals:,} deals, py: with --jobs 1")
    print(f"  {'shape':12} {'bare loop':>12} {'py: verify':>12} {'÷ rows':>7} {'÷ bare':>7} {'added':>10}")
    rows_s = None
    for shape in shapes:
        function = getattr(shaped_dealers, shape)
        started = time.perf_counter()
        for n in range(1, args.deals + 1):
            value = function(n)
            if shape == "generator":
                list(value)
        bare = time.perf_counter() - started
        request = Request(impl=f"py:shaped_dealers:{shape}", ranges=((1, args.deals),), jobs=1)
        outcome = engine.run(request)
        assert outcome.conformant and outcome.checked == args.deals, outcome.first_failure
        checked = outcome.elapsed_s
        rows_s = rows_s or checked
        print(
            f"  {shape:12} {args.deals / bare:>9,.0f}/s {args.deals / checked:>9,.0f}/s"
            f" {checked / rows_s:>6.2f}× {checked / bare:>6.2f}× {(checked - bare) / args.deals * 1e6:>6.1f} µs"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
