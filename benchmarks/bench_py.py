"""Deals checked per second through `py:`, one shape after another, beside the bare loop.

    python benchmarks/bench_py.py [--deals N] [--shapes rows,columns,…] [--repeat R]

The dealer (benchmarks/shaped_dealers.py) is one pure-Python Microsoft dealer returning each
shape real games return (cards that are values, such as names, frozen dataclasses and
namedtuples, dealt from a deck made once; rows, columns, dicts and game states made each
deal).  For each shape, in the same run: (1) the bare loop, calling the function for deals
1 … N in this process; (2) `verify py:shaped_dealers:SHAPE --range 1-N --jobs 1`.  Goals
(issue 18.5): rows' verify ≤ 1.5× its bare loop, and every shape's verify ≤ 1.2× the time of
rows' verify.

"floor" is the bare loop plus the fastest exact reader of that shape one can write in plain Python
knowing its layout in advance (`line_of_<shape>` in shaped_dealers.py: for cards made once, their
names by identity; for dicts, two item gets and a table), and "÷ floor" is verify's time over that.
Boards of objects are read in one pass of C once their class is learnt (harness._cardread), which
goes below that floor; the first line printed says whether this install has it.  With --python,
each shape is verified a second time with the Python reader alone (FREECELL_NO_COMPILED=1), in the
same run, and "Python ÷ rows" printed beside it.

A dealer that builds objects costs more in its own code (its bare loop), which no reader can
save: "÷ rows" compares the times as they are, and "÷ rows, same dealer" compares a shape's
verify with what rows would take for a dealer as slow as this one (its bare loop plus what the
harness adds to rows per deal).  "added" is what the harness adds per deal (verify's time per
deal less the bare loop's), the part a shape can change.  With --repeat R, each shape is run R
times, rows first each round, and its best bare loop and best verify are shown.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]  # this checkout's harness (the py: runner inherits the path)

import reference  # noqa: E402
from harness import engine  # noqa: E402
from harness import shapes as reading  # noqa: E402
from harness.engine import Request  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--shapes", help="comma-separated (default: all)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds; each shape's best is shown")
    parser.add_argument("--python", action="store_true", help="also verify each shape with the Python reader alone")
    args = parser.parse_args()
    shaped_dealers: Any = importlib.import_module("shaped_dealers")

    shapes = args.shapes.split(",") if args.shapes else list(shaped_dealers.SHAPES)
    if "rows" not in shapes:
        shapes.insert(0, "rows")
    for shape in shapes:  # each floor is an exact reader
        for n in (1, 2, args.deals):
            line = shaped_dealers.LINE_OF[shape](getattr(shaped_dealers, shape)(n))
            assert line == reference.canonical_line(reference.deal(n).cards), (shape, n)
    bare: dict[str, float] = {}
    floor: dict[str, float] = {}
    checked: dict[str, float] = {}
    in_python: dict[str, float] = {}
    for _ in range(args.repeat):
        for shape in shapes:
            function = getattr(shaped_dealers, shape)
            started = time.perf_counter()
            for n in range(1, args.deals + 1):
                value = function(n)
                if shape == "generator":
                    list(value)
            bare[shape] = min(bare.get(shape, float("inf")), time.perf_counter() - started)
            line_of = shaped_dealers.LINE_OF[shape]
            started = time.perf_counter()
            for n in range(1, args.deals + 1):
                line_of(function(n))
            floor[shape] = min(floor.get(shape, float("inf")), time.perf_counter() - started)
            request = Request(impl=f"py:shaped_dealers:{shape}", ranges=((1, args.deals),), jobs=1)
            outcome = engine.run(request)
            assert outcome.conformant and outcome.checked == args.deals, outcome.first_failure
            checked[shape] = min(checked.get(shape, float("inf")), outcome.elapsed_s)
            if args.python:
                os.environ["FREECELL_NO_COMPILED"] = "1"  # the runner reads every board in Python
                try:
                    outcome = engine.run(request)
                finally:
                    del os.environ["FREECELL_NO_COMPILED"]
                assert outcome.conformant and outcome.checked == args.deals, outcome.first_failure
                in_python[shape] = min(in_python.get(shape, float("inf")), outcome.elapsed_s)
    reader = "compiled (harness._cardread)" if reading._cardread is not None else "Python alone (no harness._cardread)"
    print(f"{args.deals:,} deals, py: with --jobs 1, best of {args.repeat}; boards of objects read by: {reader}")
    print(
        f"  {'shape':12} {'bare loop':>12} {'py: verify':>12} {'÷ bare':>7} {'÷ rows':>7}"
        f" {'÷ rows, same dealer':>20} {'added':>10} {'floor':>12} {'÷ floor':>8}"
        + (f" {'Python ÷ rows':>14}" if args.python else "")
    )
    rows_added = checked["rows"] - bare["rows"]
    for shape in shapes:
        b, c, f = bare[shape], checked[shape], floor[shape]
        print(
            f"  {shape:12} {args.deals / b:>9,.0f}/s {args.deals / c:>9,.0f}/s {c / b:>6.2f}×"
            f" {c / checked['rows']:>6.2f}× {c / (b + rows_added):>19.2f}× {(c - b) / args.deals * 1e6:>6.1f} µs"
            f" {args.deals / f:>9,.0f}/s {c / f:>7.2f}×"
            + (f" {in_python[shape] / in_python['rows']:>13.2f}×" if args.python else "")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
