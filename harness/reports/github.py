"""What a GitHub Actions page shows of a run: an `::error` annotation for a failure, and the job
summary (Markdown for `$GITHUB_STEP_SUMMARY`) with the verdict, the diagnosis, the board diff and a
table of the shards.  Text only: `ci` and `verify --annotate` decide when to write it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from harness.adapters.registry import parse_impl
from harness.errors import RequestError
from harness.intervals import Shard
from harness.reports.report import Report, board_diff, diagnosis_line, verdict
from harness.text import printable


def _data(text: str) -> str:
    """A workflow command's message: one line (GitHub turns %0A back into a line break)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(report: Report) -> str | None:
    """`::error …` for the report's first failure (None when there is none): its verdict line,
    diagnosis and board diff; on the dealer's file when it is a `node:` source in the checkout."""
    f = report.first_failure
    if f is None:
        return None
    properties = [f"title={_property(f'freecell-harness: DIVERGES at deal {f.deal}')}"]
    if (source := _source_file(report.implementation)) is not None:
        properties.insert(0, f"file={_property(source)}")
    message = verdict(report) + "\n" + printable(diagnosis_line(f)) + board_diff(f.expected, f.actual)
    return f"::error {','.join(properties)}::{_data(message)}"


def _source_file(impl: str) -> str | None:
    try:
        spec = parse_impl(impl)
    except RequestError:
        return None
    if spec.kind != "node":
        return None
    path = spec.argument.partition("#")[0]
    return path if not Path(path).is_absolute() and Path(path).is_file() else None


def job_summary(report: Report, shards: Sequence[Report]) -> str:
    """Markdown: the verdict, the diagnosis and board diff of a failure, and one row per shard."""
    line = verdict(report)
    lines = [f"## freecell-harness: {line.partition(':')[0]}", "", *_fenced(line)]
    f = report.first_failure
    if f is not None:
        if f.diagnosis is not None:
            lines += [f"**Diagnosis** ({f.diagnosis.cause}): {_cell(f.diagnosis.message)}", ""]
        lines += [f"**Deal {f.deal}**: expected and actual boards, differing cards marked `*`", ""]
        lines += _fenced(board_diff(f.expected, f.actual))
    lines += ["| shard | deals checked | verdict | first failure | time |", "|---|---:|---|---|---:|"]
    for r in sorted(shards, key=lambda r: Shard.parse(r.shard).index):
        word = "INTERRUPTED" if r.interrupted else "CONFORMS" if r.first_failure is None else "DIVERGES"
        failure = "—" if r.first_failure is None else f"deal {r.first_failure.deal} ({r.first_failure.kind})"
        lines.append(f"| {r.shard} | {r.checked:,} | {word} | {_cell(failure)} | {r.elapsed_s:.1f} s |")
    return "\n".join(lines) + "\n\n"


def _fenced(text: str) -> list[str]:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}text", text, fence, ""]


def _cell(text: str) -> str:
    return printable(text, one_line=True).replace("|", "\\|")
