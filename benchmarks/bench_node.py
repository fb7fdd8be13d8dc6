"""Benchmark: the Node bridge's digest path against a bare Node loop, same solution, same run.

    python benchmarks/bench_node.py [--deals 1000000] [--repeat 3] [--document PATH]

The bare loop is a JavaScript file written at run time: it evaluates the solution in Node's main
context, calls `dealFreeCell(n)` for n = 1 … N, builds the canonical lines and hashes them.  The
bridge does the same through one long-lived driver process, plus validating every board.
Both figures are the best of `--repeat` runs, not counting Node's start-up.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness.adapters.base import DealerOptions
from harness.adapters.node import NodeDealer
from harness.challenge import read_challenge
from harness.node.locate import find_node
from harness.seeds import default_seed_document

BARE_LOOP = r"""
const crypto = require('crypto');
const fs = require('fs');
const dealFreeCell = new Function(fs.readFileSync(process.argv[2], 'utf8') + '\nreturn dealFreeCell;')();
// argv: SOLUTION N (deals 1 … N), or SOLUTION FIRST LAST
const FIRST = process.argv[4] === undefined ? 1 : Number(process.argv[3]);
const LAST = Number(process.argv[process.argv[4] === undefined ? 3 : 4]);
const t0 = process.hrtime.bigint();
const hash = crypto.createHash('sha256');
let acc = '';
for (let n = FIRST; n <= LAST; n++) {
  const rows = dealFreeCell(n);
  let line = '';
  for (let r = 0; r < 7; r++) {
    const row = rows[r];
    for (let j = 0; j < row.length; j++) line += row[j] + (r === 6 && j === 3 ? '\n' : ' ');
  }
  acc += line;
  if (acc.length > 65536) { hash.update(acc); acc = ''; }
}
hash.update(acc);
const digest = hash.digest('hex');
console.log(JSON.stringify({ seconds: Number(process.hrtime.bigint() - t0) / 1e9, digest }));
"""


def bare_loop(node: str, solution: str, deals: int) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as tmp:
        script, source = Path(tmp, "bare.js"), Path(tmp, "solution.js")
        script.write_text(BARE_LOOP, encoding="utf-8")
        source.write_text(solution, encoding="utf-8")
        out = subprocess.run([node, str(script), str(source), str(deals)], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    return float(result["seconds"]), str(result["digest"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--document", default=None, help="challenge document (default: the seed document)")
    args = parser.parse_args()
    path = args.document or os.path.relpath(default_seed_document())
    document = read_challenge(path)
    assert document.solution is not None, f"{path}: no solution"
    node = find_node()
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    deals = range(1, args.deals + 1)

    with NodeDealer(path, DealerOptions()) as dealer:
        bridge_one, bridge_blocks, bare = [], [], []
        digest_one = digest_bare = ""
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            digest_one = dealer.block_digest(deals) or ""
            bridge_one.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            for start in range(1, args.deals + 1, 65536):
                dealer.block_digest(range(start, min(start + 65536, args.deals + 1)))
            bridge_blocks.append(time.perf_counter() - t0)
            seconds, digest_bare = bare_loop(node, document.solution, args.deals)
            bare.append(seconds)

    best_bare = min(bare)
    print(f"solution: {path} (Node {version}, {os.cpu_count()} CPUs), deals 1 … {args.deals:,}, best of {args.repeat}")
    print(f"bare Node loop                  {best_bare:7.3f} s  {args.deals / best_bare:>10,.0f} deals/s")
    for name, runs in (("bridge, one block", bridge_one), ("bridge, blocks of 65,536", bridge_blocks)):
        best = min(runs)
        print(f"{name:<31} {best:7.3f} s  {args.deals / best:>10,.0f} deals/s  {best / best_bare:5.2f}× bare")
    print(f"digests agree: {digest_one == digest_bare} ({digest_one[:16]}…)")
    return 0 if digest_one == digest_bare else 1


if __name__ == "__main__":
    sys.exit(main())
