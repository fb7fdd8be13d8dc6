"""The whole-range proof: `verify node:<seed> --against fixtures` over every classic deal, resumably,
beside the bare Node loop over slices of the same range, measured in the same run.

    python benchmarks/bench_whole_range.py [--range 1-2147483647] [--jobs 2] [--state runs/whole-range]

`verify` runs with `--resume STATE/verify.log`: an interrupted run (Ctrl-C, a reboot) continues
where it stopped when the command is given again, and the wall time and peak memory of every
session are kept in STATE/sessions.json and summed.  The bare loop (bench_node.py's: the original
solution in Node's main context, canonical lines hashed) runs --jobs processes at once, each on a
1,000,000-deal slice that is a row of the whole-domain table (its digest must equal the row's),
before and after `verify`; the ratio compares `verify`'s wall time with the bare loop's
deals per second scaled to the whole range.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench_node import BARE_LOOP
from bench_verify import timed

from harness.challenge import read_challenge
from harness.fixtures import default_dir, domain_table
from harness.node.locate import find_node
from harness.seeds import default_seed_document

ROW = 1_000_000


def table_rows() -> dict[int, str]:
    path = default_dir() / domain_table("classic").path
    rows = (line.split("\t") for line in path.read_text().splitlines()[1:])
    return {int(a): digest for a, b, digest in rows}


def bare_slices(node: str, solution: str, first: int, last: int, jobs: int, rows: dict[int, str]) -> float:
    """Aggregate deals/s of `jobs` bare loops at once, each over one table row spread across first … last."""
    span = (last - first + 1) // ROW
    starts = [first + ((i + 1) * span // (jobs + 1)) * ROW for i in range(jobs)]
    starts = [s - (s - 1) % ROW for s in starts]  # on the table's grid
    with tempfile.TemporaryDirectory() as tmp:
        script, source = Path(tmp, "bare.js"), Path(tmp, "solution.js")
        script.write_text(BARE_LOOP, encoding="utf-8")
        source.write_text(solution, encoding="utf-8")

        def one(start: int) -> str:
            argv = [node, str(script), str(source), str(start), str(start + ROW - 1)]
            return str(json.loads(subprocess.run(argv, capture_output=True, text=True, check=True).stdout)["digest"])

        started = time.perf_counter()
        with ThreadPoolExecutor(jobs) as pool:
            digests = list(pool.map(one, starts))
        seconds = time.perf_counter() - started
    for start, digest in zip(starts, digests, strict=True):
        if rows.get(start) != digest:
            sys.exit(f"the bare loop's digest of {start}-{start + ROW - 1} is not the table's row")
    return jobs * ROW / seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--range", default="1-2147483647")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--state", default="runs/whole-range")
    args = parser.parse_args()
    first, last = (int(x) for x in args.range.split("-"))
    state = Path(args.state)
    state.mkdir(parents=True, exist_ok=True)
    document = os.path.relpath(default_seed_document())
    solution = read_challenge(document).solution
    assert solution is not None
    node, rows = find_node(), table_rows()
    version = subprocess.getoutput(f"{node} --version")
    print(f"machine: nproc {os.cpu_count()}, load {os.getloadavg()[0]:.1f}; node {version}", flush=True)
    before = bare_slices(node, solution, first, last, args.jobs, rows)
    print(f"bare Node loop, {args.jobs} processes at once, before: {before:,.0f} deals/s", flush=True)
    verify = [sys.executable, "-m", "harness", "verify", f"node:{document}", "--range", args.range,
              "--against", "fixtures", "--jobs", str(args.jobs), "--quiet",
              "--resume", str(state / "verify.log"), "--report", str(state / "report.json")]  # fmt: skip
    seconds, peak_kib, out = timed(verify, allowed=(0, 1, 130))
    print(out.strip(), flush=True)
    after = bare_slices(node, solution, first, last, args.jobs, rows)
    print(f"bare Node loop, {args.jobs} processes at once, after: {after:,.0f} deals/s", flush=True)
    sessions_path = state / "sessions.json"
    sessions = json.loads(sessions_path.read_text()) if sessions_path.exists() else []
    report = json.loads((state / "report.json").read_text())
    sessions.append({"wall_s": seconds, "peak_mib": peak_kib / 1024, "bare_deals_per_s": (before + after) / 2,
                     "checked_after_session": report.get("checked")})  # fmt: skip
    sessions_path.write_text(json.dumps(sessions, indent=1) + "\n")
    wall = sum(s["wall_s"] for s in sessions)
    bare_rate = sum(s["bare_deals_per_s"] for s in sessions) / len(sessions)
    deals = last - first + 1
    bare_wall = deals / bare_rate
    print(f"verify over {first:,} … {last:,}: {len(sessions)} session(s), {wall / 3600:.2f} h wall, "
          f"peak memory {max(s['peak_mib'] for s in sessions):.0f} MiB (all processes)")  # fmt: skip
    ratio = f"verify = {wall / bare_wall:.3f}× the bare loop"
    print(f"bare Node loop scaled to the range: {bare_wall / 3600:.2f} h; {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
