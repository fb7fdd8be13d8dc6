"""The steps of the CI workflow and action (`.github/workflows/verify.yml`, `action.yml`), run as
`freecell-harness ci matrix|shard|merge`.  Kept here, not in YAML, so that they are tested.

- `matrix N`: the shard numbers 1 … N as JSON, for a job matrix.
- `shard`: verify one shard, writing `shard-K.json`, `shard-K.xml` and `shard-K.resume` into
  the output directory; exits 0 when a verdict was reached, whichever it is (the merge judges),
  else with verify's status (2 a bad request, 3 a bug, 130 interrupted).
- `merge DIR`: merge every `shard-*.json` under DIR into one report, append the verdict to
  `$GITHUB_STEP_SUMMARY` when set, and exit as `verify` would.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from harness.errors import RequestError

VERDICT_REACHED = (0, 1)  # verify's exit statuses that mean a report with a verdict was written


def shard_matrix(count: int) -> str:
    if count < 1:
        raise RequestError(f"ci matrix: {count} shards: give at least 1")
    return json.dumps(list(range(1, count + 1)))


def shard_argv(
    impl: str,
    *,
    ranges: Sequence[str],
    sample: str | None,
    seed: str,
    dialect: str,
    shard: int,
    shards: int,
    jobs: str | None,
    out: Path,
) -> list[str]:
    """The `verify` command line of one shard, its files in `out` (created: it is the workflow's own)."""
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"shard-{shard}"
    argv = ["verify", impl, "--dialect", dialect, "--shard", f"{shard}/{shards}"]
    argv += [f"--range={deals}" for deals in ranges]
    if sample is not None:
        argv += ["--sample", sample, "--seed", seed]
    if jobs:
        argv += ["--jobs", jobs]
    return [*argv, "--report", f"{stem}.json", "--junit", f"{stem}.xml", "--resume", f"{stem}.resume"]


def shard_status(verify_status: int) -> int:
    """A shard job succeeds whenever it reached a verdict: the merge decides the run."""
    return 0 if verify_status in VERDICT_REACHED else verify_status


def shard_reports(directory: str) -> list[str]:
    reports = sorted(str(p) for p in Path(directory).rglob("shard-*.json"))
    if not reports:
        raise RequestError(f"ci merge: no shard-*.json under {directory}")
    return reports


def step_summary(verdict_line: str, shard_count: int) -> str:
    return f"### freecell-harness\n\n`{verdict_line}`\n\n{shard_count} shard reports merged.\n"
