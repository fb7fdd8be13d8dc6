"""`verify --junit`: JUnit XML for CI test views, one testcase per block of the run (this shard's).

A block before the first failure passed (the engine checks every block before it, so the failure
reported is the smallest); the block holding it fails, carrying the verdict, the diagnosis and the
board diff; blocks after it are skipped, not checked.  An interrupted run claims no block it may
not have finished.  More than MAX_TESTCASES blocks are grouped, consecutive ones together, so that
a whole-domain run stays a file a CI page can show.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from xml.etree import ElementTree as ET

from harness.files import write_atomically
from harness.intervals import Block, Shard
from harness.reports.report import Report, board_diff, diagnosis_line, verdict
from harness.text import counted, printable

MAX_TESTCASES = 1000


@dataclass(frozen=True, slots=True)
class _Span:
    """Consecutive blocks of this shard: their first and last deal, how many, and whether the failure is in one."""

    first: int
    last: int
    blocks: int
    failing: bool


def _span(block: Block, failing_deal: int | None) -> _Span:
    deals = block.deals
    if failing_deal is None:
        failing = False
    elif block.interval is not None:
        failing = block.interval.first <= failing_deal <= block.interval.last
    else:
        failing = failing_deal in deals
    return _Span(deals[0], deals[-1], 1, failing)


def _grouped(spans: list[_Span]) -> list[_Span]:
    per = math.ceil(len(spans) / MAX_TESTCASES)
    if per <= 1:
        return spans
    groups = (spans[i : i + per] for i in range(0, len(spans), per))
    return [_Span(g[0].first, g[-1].last, len(g), any(s.failing for s in g)) for g in groups]


def write_junit(path: str, report: Report, blocks: Iterable[Block]) -> None:
    """JUnit XML of `report`, one testcase per block of `blocks` (the blocks this run was asked to check)."""
    f = report.first_failure
    spans = _grouped([_span(block, f.deal if f else None) for block in blocks])
    sharded = Shard.parse(report.shard).count > 1
    suite = ET.Element("testsuite", name=printable(_suite_name(report), one_line=True))
    counts = {"failure": 0, "skipped": 0}
    for span in spans:
        name = f"deals {span.first}-{span.last}" if span.first != span.last else f"deal {span.first}"
        if span.blocks > 1:
            name += f" ({span.blocks} blocks{f' of shard {report.shard}' if sharded else ''})"
        case = ET.SubElement(suite, "testcase", classname=f"freecell-harness.{report.dialect}", name=name)
        if f is not None and span.failing:
            message = printable(f"deal {f.deal}: {f.kind}: {f.explanation}", one_line=True)
            node = ET.SubElement(case, "failure", message=message, type=printable(f.kind, one_line=True))
            node.text = verdict(report) + "\n" + printable(diagnosis_line(f)) + board_diff(f.expected, f.actual)
            counts["failure"] += 1
        elif f is not None and span.first > f.deal:
            ET.SubElement(case, "skipped", message=f"not checked: after the first failure at deal {f.deal}")
            counts["skipped"] += 1
        elif report.interrupted:
            checked = counted(report.checked, "deal")
            ET.SubElement(case, "skipped", message=f"the run was interrupted ({checked} checked): not known")
            counts["skipped"] += 1
    suite.set("tests", str(len(spans)))
    suite.set("failures", str(counts["failure"]))
    suite.set("errors", "0")
    suite.set("skipped", str(counts["skipped"]))
    suite.set("time", f"{report.elapsed_s:.3f}")
    ET.SubElement(suite, "system-out").text = verdict(report)
    root = ET.Element("testsuites")
    root.append(suite)
    ET.indent(root)
    write_atomically(path, ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n")


def _suite_name(report: Report) -> str:
    shard = "" if report.shard == "1/1" else f", shard {report.shard}"
    return f"freecell-harness: {report.implementation} against {report.against} ({report.dialect}{shard})"
