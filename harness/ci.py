"""The steps of the CI workflow and action (`.github/workflows/verify.yml`, `action.yml`), run as
`freecell-harness ci matrix|shard|merge`.  Kept here, not in YAML, so that they are tested.

- `matrix N`: the shard numbers 1 … N as JSON, for a job matrix.
- `shard`: verify one shard, writing `shard-K.json`, `shard-K.xml` and `shard-K.resume` into
  the output directory; exits exactly as `verify` of that shard would, so that a job running one
  shard (the action alone) fails when its dealer diverges.
- `merge DIR`: merge every `shard-*.json` under DIR into one report, by coverage (`report merge`), and
  exit as `verify` would: a shard that left no report, or was interrupted, is a gap the partial
  verdict names, and a re-run of that shard completes the run.

On GitHub Actions (`GITHUB_ACTIONS=true`) a shard annotates its first failure (`::error`); both
steps append a job summary to `$GITHUB_STEP_SUMMARY` when it is set (harness.reports.github).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from harness.errors import RequestError

SHARD_EXIT_CODES = """exit status (verify's, for this shard):
  0    every deal of this shard conforms
  1    a deal of this shard does not conform (the job fails; `ci merge` gives the run's verdict)
  2    the request itself is wrong or cannot be served (one line on stderr says what)
  3    the harness itself failed (a bug of ours)
  130  interrupted (Ctrl-C, SIGTERM): the report so far is written, the resume log continues it"""


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
    cards: str | None = None,
    suits: str | None = None,
    annotate: bool = False,
    quiet: bool = False,
    against: str = "reference",
    timeout: float | None = None,
    startup_timeout: float | None = None,
) -> list[str]:
    """The `verify` command line of one shard, its files in `out` (created: it is the workflow's own)."""
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"shard-{shard}"
    argv = ["verify", impl, "--against", against, "--dialect", dialect, "--shard", f"{shard}/{shards}"]
    if timeout is not None:
        argv += ["--timeout", repr(timeout)]
    if startup_timeout is not None:
        argv += ["--startup-timeout", repr(startup_timeout)]
    argv += [f"--range={deals}" for deals in ranges]
    if sample is not None:
        argv += ["--sample", sample, "--seed", seed]
    if jobs:
        argv += ["--jobs", jobs]
    if cards:
        argv += ["--cards", cards]
    if suits:
        argv += ["--suits", suits]
    if annotate:
        argv.append("--annotate")
    if quiet:
        argv.append("--quiet")
    return [*argv, "--report", f"{stem}.json", "--junit", f"{stem}.xml", "--resume", f"{stem}.resume"]


def shard_reports(directory: str) -> list[str]:
    reports = sorted(str(p) for p in Path(directory).rglob("shard-*.json"))
    if not reports:
        raise RequestError(f"ci merge: no shard-*.json under {directory}")
    return reports


def on_github() -> bool:
    return os.environ.get("GITHUB_ACTIONS") == "true"


def append_summary(text: str) -> None:
    """Add `text` to the job summary, when the runner asks for one ($GITHUB_STEP_SUMMARY)."""
    path = os.environ.get("GITHUB_STEP_SUMMARY")
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise RequestError(f"$GITHUB_STEP_SUMMARY {path}: cannot append: {exc.strerror or exc}") from None
