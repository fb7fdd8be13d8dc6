"""Benchmark: the Node bridge's digest path against a bare Node loop, same solution, same run;
then every board shape a `node:` dealer may return beside the rows shape, in the same run.

    python benchmarks/bench_node.py [--deals 1000000] [--repeat 3] [--document PATH]
                                    [--shape-deals 200000] [--only-shapes]

The bare loop is a JavaScript file written at run time: it evaluates the solution in Node's main
context, calls `dealFreeCell(n)` for n = 1 … N, builds the canonical lines and hashes them.  The
bridge does the same through one long-lived driver process, plus validating every board.
Both figures are the best of `--repeat` runs, not counting Node's start-up.  The CPU time of the
Node processes (the driver's, read from /proc; the bare loop's own) is printed too: on a machine
busy with other work, their ratio is steadier than that of wall-clock times.

The shapes: one JavaScript module (SHAPES below) deals each deal once, the same way, and returns it
as each shape a real game might (rows, columns, 52 cards, card objects, a game state of card
instances, a generator, board text …); each shape is verified through the bridge's digest path
and its time printed beside the rows shape's (the goal: at most 1.2× the rows shape's time).
A dealer that builds objects or text costs more in its own code (its plain loop in a Node process of
its own, "dealer alone"),
which no reader can save: "÷ rows, same dealer" compares a shape's verify with what rows would take
for a dealer as slow as this one (its own loop plus what the harness adds to rows).
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
const c0 = process.cpuUsage();
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
const cpu = process.cpuUsage(c0);
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(JSON.stringify({ seconds, cpu: (cpu.user + cpu.system) / 1e6, digest }));
"""


def bare_loop(node: str, solution: str, deals: int) -> tuple[float, float, str]:
    with tempfile.TemporaryDirectory() as tmp:
        script, source = Path(tmp, "bare.js"), Path(tmp, "solution.js")
        script.write_text(BARE_LOOP, encoding="utf-8")
        source.write_text(solution, encoding="utf-8")
        out = subprocess.run([node, str(script), str(source), str(deals)], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    return float(result["seconds"]), float(result["cpu"]), str(result["digest"])


# One dealing core, then each shape a dealer may return (all correct).
SHAPES_JS = r"""
const NAMES = [];
for (let i = 0; i < 52; i++) NAMES.push('A23456789TJQK'[i >> 2] + 'CDHS'[i & 3]);
const TENS = NAMES.map((c) => c.replace('T', '10').replace(/[CDHS]$/, (s) => '♣♦♥♠'['CDHS'.indexOf(s)]));
const WORDS = ['clubs', 'diamonds', 'hearts', 'spades'];
const order = new Int8Array(52);
const deck = new Int8Array(52);
function dealOrder(n) {
  for (let i = 0; i < 52; i++) deck[i] = i;
  let s = n;
  for (let left = 52; left > 0; left--) {
    s = (Math.imul(214013, s) + 2531011) & 0x7fffffff;
    const k = (s >> 16) % left;
    const c = deck[k];
    deck[k] = deck[left - 1];
    order[52 - left] = c;
  }
  return order;
}
class Card {
  constructor(c) {
    this.rank = (c >> 2) + 1;
    this.suit = WORDS[c & 3];
  }
}
const grouped = (n, groups, at, make) => {
  const out = [];
  for (let g = 0; g < groups; g++) out.push([]);
  const o = dealOrder(n);
  for (let p = 0; p < 52; p++) out[at(p)].push(make(o[p]));
  return out;
};
module.exports = {
  rows: (n) => grouped(n, 7, (p) => p >> 3, (c) => NAMES[c]),
  columns: (n) => grouped(n, 8, (p) => p & 7, (c) => NAMES[c]),
  cards52: (n) => grouped(n, 1, () => 0, (c) => NAMES[c])[0],
  tensAndSymbols: (n) => grouped(n, 7, (p) => p >> 3, (c) => TENS[c]),
  objects: (n) => grouped(n, 7, (p) => p >> 3, (c) => ({ rank: 'A23456789TJQK'[c >> 2], suit: 'CDHS'[c & 3] })),
  gameState: (n) => ({
    tableau: grouped(n, 8, (p) => p & 7, (c) => new Card(c)),
    freecells: [null, null, null, null],
    foundations: [[], [], [], []],
  }),
  namedObjects: (n) => grouped(n, 1, () => 0, (c) => ({ id: NAMES[c], value: (c >> 2) + 1, suit: c & 3 }))[0],
  generator: function* (n) {
    const o = dealOrder(n);
    for (let p = 0; p < 52; p++) yield NAMES[o[p]];
  },
  text: (n) => grouped(n, 7, (p) => p >> 3, (c) => NAMES[c]).map((r) => r.join(' ')).join('\n'),
};
"""
# One shape's dealer alone, in a plain Node loop in a process of its own, as verify runs it (the
# floor: what the dealer itself costs).  One process for all shapes would time each dealer on code
# V8 has already seen called with the others' cards, which flatters the shapes timed later.
SHAPES_BARE = r"""
const shapes = require(process.argv[2]);
const deals = Number(process.argv[3]);
const name = process.argv[4];
let sink = 0;
const t0 = process.hrtime.bigint();
for (let n = 1; n <= deals; n++) {
  const v = shapes[name](n);
  if (name === 'generator') for (const c of v) sink += c.length;
  else sink += 1;
}
console.log(JSON.stringify({ seconds: Number(process.hrtime.bigint() - t0) / 1e9, sink }));
"""
SHAPE_NAMES = (
    "rows",
    "columns",
    "cards52",
    "tensAndSymbols",
    "objects",
    "gameState",
    "namedObjects",
    "generator",
    "text",
)


def bench_shapes(deals: int, repeat: int) -> bool:
    """Each shape's best time over `repeat` runs, beside the rows shape's; whether all agree."""
    expected = ""
    best: dict[str, float] = {}
    bare: dict[str, float] = {}
    agree = True
    with tempfile.TemporaryDirectory() as tmp:
        module = Path(tmp, "shapes.js")
        module.write_text(SHAPES_JS, encoding="utf-8")
        bare_script = Path(tmp, "bare_shapes.js")
        bare_script.write_text(SHAPES_BARE, encoding="utf-8")
        node = find_node()
        dealers = {name: NodeDealer(f"{module}#{name}", DealerOptions()) for name in SHAPE_NAMES}
        try:
            block = range(1, deals + 1)
            for _ in range(repeat):
                for name in SHAPE_NAMES:
                    done = subprocess.run(
                        [node, str(bare_script), str(module), str(deals), name], capture_output=True, check=True
                    )
                    seconds = float(json.loads(done.stdout)["seconds"])
                    bare[name] = min(bare.get(name, float("inf")), seconds)
                for name, dealer in dealers.items():  # interleaved: a busy spell hits every shape alike
                    t0 = time.perf_counter()
                    digest = dealer.block_digest(block) or "no digest"
                    best[name] = min(best.get(name, float("inf")), time.perf_counter() - t0)
                    expected = expected or digest
                    agree = agree and digest == expected
        finally:
            for dealer in dealers.values():
                dealer.close()
    rows = best["rows"]
    rows_added = rows - bare["rows"]
    print(f"shapes, deals 1 … {deals:,}, best of {repeat} (digest path, one dealing core per shape);")
    print("  the dealer alone is its time in a plain Node loop of its own; the harness adds the rest;")
    print("  ÷ rows, same dealer: verify ÷ (this dealer alone + what the harness adds to rows)")
    for name in SHAPE_NAMES:
        ratio = best[name] / rows
        mark = "" if ratio <= 1.2 else "   over 1.2×"
        print(
            f"  {name:<16} {best[name]:7.3f} s  {deals / best[name]:>10,.0f} deals/s  {ratio:5.2f}× rows"
            f"  {best[name] / (bare[name] + rows_added):5.2f}× rows, same dealer"
            f"   (dealer alone {bare[name]:6.3f} s, harness {best[name] - bare[name]:6.3f} s){mark}"
        )
    print(f"  digests agree: {agree}")
    return agree


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a live process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--document", default=None, help="challenge document (default: the seed document)")
    parser.add_argument("--shape-deals", type=int, default=200_000, help="deals per shape (0: no shapes)")
    parser.add_argument("--only-shapes", action="store_true", help="only the shapes beside rows")
    args = parser.parse_args()
    if args.only_shapes:
        return 0 if bench_shapes(args.shape_deals, args.repeat) else 1
    path = args.document or os.path.relpath(default_seed_document())
    document = read_challenge(path)
    assert document.solution is not None, f"{path}: no solution"
    node = find_node()
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    deals = range(1, args.deals + 1)

    with NodeDealer(path, DealerOptions()) as dealer:
        bridge_one, bridge_blocks, bare = [], [], []
        cpu_ratios = []
        driver = dealer.bridge._proc
        assert driver is not None
        digest_one = digest_bare = ""
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), cpu_seconds(driver.child.pid)
            digest_one = dealer.block_digest(deals) or ""
            bridge_one.append(time.perf_counter() - t0)
            bridge_cpu = cpu_seconds(driver.child.pid) - c0
            t0 = time.perf_counter()
            for start in range(1, args.deals + 1, 65536):
                dealer.block_digest(range(start, min(start + 65536, args.deals + 1)))
            bridge_blocks.append(time.perf_counter() - t0)
            seconds, bare_cpu, digest_bare = bare_loop(node, document.solution, args.deals)
            bare.append(seconds)
            cpu_ratios.append(bridge_cpu / bare_cpu)

    best_bare = min(bare)
    print(f"solution: {path} (Node {version}, {os.cpu_count()} CPUs), deals 1 … {args.deals:,}, best of {args.repeat}")
    print(f"bare Node loop                  {best_bare:7.3f} s  {args.deals / best_bare:>10,.0f} deals/s")
    for name, runs in (("bridge, one block", bridge_one), ("bridge, blocks of 65,536", bridge_blocks)):
        best = min(runs)
        print(f"{name:<31} {best:7.3f} s  {args.deals / best:>10,.0f} deals/s  {best / best_bare:5.2f}× bare")
    ratios = ", ".join(f"{r:.2f}×" for r in cpu_ratios)
    print(f"CPU time of Node, bridge (one block) / bare loop, each run: {ratios}")
    print(f"digests agree: {digest_one == digest_bare} ({digest_one[:16]}…)")
    shapes_agree = bench_shapes(args.shape_deals, args.repeat) if args.shape_deals else True
    return 0 if digest_one == digest_bare and shapes_agree else 1


if __name__ == "__main__":
    sys.exit(main())
