"""The steps of the CI workflow and action (`.github/workflows/verify.yml`, `action.yml`):
`python -m harness.ci matrix|shard|merge`.  Kept here, not in YAML, so that they are tested.

- `matrix N`: the shard numbers 1 … N as JSON, for a job matrix.
- `shard`: verify one shard, writing `shard-K.json`, `shard-K.xml` and `shard-K.resume` into
  the output directory; exits 0 when a verdict was reached, whichever it is (the merge judges),
  else with verify's status (2 a bad request, 3 a bug, 130 interrupted).
- `merge DIR`: merge every `shard-*.json` under DIR into one report, append the verdict to
  `$GITHUB_STEP_SUMMARY` when set, and exit as `verify` would.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from harness import cli
from harness.errors import RequestError


def shard_matrix(count: int) -> str:
    if count < 1:
        raise RequestError(f"ci matrix: {count} shards: give at least 1")
    return json.dumps(list(range(1, count + 1)))


def run_shard(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)  # the workflow's own directory, named by the workflow
    stem = out / f"shard-{args.shard}"
    argv = ["verify", args.impl, "--dialect", args.dialect, "--shard", f"{args.shard}/{args.shards}"]
    for deals in args.range or ():
        argv += [f"--range={deals}"]
    if args.sample is not None:
        argv += ["--sample", str(args.sample), "--seed", str(args.seed)]
    if args.jobs:
        argv += ["--jobs", str(args.jobs)]
    argv += ["--report", f"{stem}.json", "--junit", f"{stem}.xml", "--resume", f"{stem}.resume"]
    code = cli.main(argv)
    return 0 if code in (cli.EXIT_OK, cli.EXIT_NONCONFORMANT) else code


def merge(args: argparse.Namespace) -> int:
    reports = sorted(str(p) for p in Path(args.directory).rglob("shard-*.json"))
    if not reports:
        raise RequestError(f"ci merge: no shard-*.json under {args.directory}")
    code = cli.main(["report", "merge", *reports, "--out", args.out])
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary and Path(args.out).is_file():
        from harness.report import read_report, verdict

        merged = read_report(args.out)
        with open(summary, "a", encoding="utf-8") as f:
            f.write(f"### freecell-harness\n\n`{verdict(merged)}`\n\n{len(reports)} shard reports merged.\n")
    return code


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m harness.ci", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("matrix", help="shard numbers 1 … N as JSON")
    p.add_argument("shards", type=int)
    p = sub.add_parser("shard", help="verify one shard into --out")
    p.add_argument("impl", metavar="IMPL")
    p.add_argument("--range", action="append", metavar="A-B")
    p.add_argument("--sample", type=int)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--dialect", default="classic")
    p.add_argument("--shard", type=int, required=True, metavar="K")
    p.add_argument("--shards", type=int, required=True, metavar="N")
    p.add_argument("--jobs", type=int)
    p.add_argument("--out", default="freecell-reports", metavar="DIR")
    p = sub.add_parser("merge", help="merge the shard reports under DIRECTORY")
    p.add_argument("directory")
    p.add_argument("--out", default="freecell-report.json", metavar="FILE.json")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.step == "matrix":
            print(shard_matrix(args.shards))
            return cli.EXIT_OK
        return run_shard(args) if args.step == "shard" else merge(args)
    except RequestError as exc:
        print(f"freecell-harness: {exc}", file=sys.stderr)
        return cli.EXIT_REQUEST


if __name__ == "__main__":
    sys.exit(main())
