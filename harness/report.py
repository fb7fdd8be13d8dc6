"""What a run says: the JSON report and JUnit XML of SPEC.md, the verdict line and the board diff."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree as ET

from harness.errors import RequestError
from harness.failures import Failure
from harness.files import write_atomically
from harness.text import printable
from reference.deal import COLUMNS


@dataclass(frozen=True, slots=True)
class Report:
    """SPEC.md's `verify --report` document (plus `shard` and `ranges`, which `report merge` reads)."""

    implementation: str
    against: str
    dialect: str
    checked: int
    first_failure: Failure | None
    elapsed_s: float
    shard: str = "1/1"
    ranges: tuple[tuple[int, int], ...] = ()

    @property
    def conformant(self) -> bool:
        return self.first_failure is None

    @property
    def deals_per_s(self) -> float:
        return self.checked / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "implementation": self.implementation,
            "against": self.against,
            "dialect": self.dialect,
            "checked": self.checked,
            "conformant": self.conformant,
            "first_failure": self.first_failure.to_json() if self.first_failure else None,
            "elapsed_s": round(self.elapsed_s, 3),
            "deals_per_s": round(self.deals_per_s),
            "shard": self.shard,
            "ranges": [list(r) for r in self.ranges],
        }

    @classmethod
    def from_json(cls, data: object, source: str) -> Report:
        try:
            assert isinstance(data, dict)
            failure = data["first_failure"]
            report = cls(
                implementation=str(data["implementation"]),
                against=str(data["against"]),
                dialect=str(data["dialect"]),
                checked=int(data["checked"]),
                first_failure=Failure.from_json(failure) if failure is not None else None,
                elapsed_s=float(data["elapsed_s"]),
                shard=str(data.get("shard", "1/1")),
                ranges=tuple((int(a), int(b)) for a, b in data.get("ranges", [])),
            )
        except (AssertionError, KeyError, TypeError, ValueError) as exc:
            raise RequestError(f"{source}: not a verify report ({type(exc).__name__}: {exc})") from None
        if bool(data["conformant"]) != report.conformant:
            raise RequestError(f"{source}: 'conformant' contradicts 'first_failure'")
        return report

    def write_json(self, path: str) -> None:
        write_atomically(path, json.dumps(self.to_json(), indent=2) + "\n")


def read_report(path: str) -> Report:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise RequestError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RequestError(f"{path}: not JSON: {exc}") from None
    return Report.from_json(data, path)


def merge_reports(reports: Sequence[tuple[str, Report]]) -> Report:
    """One verdict from the reports of the shards of one run."""
    if not reports:
        raise RequestError("report merge: no reports given")
    first_path, first = reports[0]
    seen: dict[str, str] = {}
    for path, r in reports:
        same = (r.implementation, r.against, r.dialect, r.ranges) == (
            first.implementation,
            first.against,
            first.dialect,
            first.ranges,
        )
        if not same:
            raise RequestError(f"report merge: {path} is of another run than {first_path}")
        if r.shard in seen:
            raise RequestError(f"report merge: shard {r.shard} appears twice ({seen[r.shard]}, {path})")
        seen[r.shard] = path
    counts = {s.split("/")[1] for s in seen}
    if len(counts) != 1:
        raise RequestError(f"report merge: shards of different splits: {', '.join(sorted(seen))}")
    total = int(counts.pop())
    missing = [f"{k}/{total}" for k in range(1, total + 1) if f"{k}/{total}" not in seen]
    if missing:
        raise RequestError(f"report merge: missing shard(s) {', '.join(missing)}")
    failures = [r.first_failure for _, r in reports if r.first_failure]
    return Report(
        implementation=first.implementation,
        against=first.against,
        dialect=first.dialect,
        checked=sum(r.checked for _, r in reports),
        first_failure=min(failures, key=lambda f: f.deal) if failures else None,
        elapsed_s=max(r.elapsed_s for _, r in reports),  # the shards ran side by side
        shard="1/1",
        ranges=first.ranges,
    )


def board_diff(expected: str | None, actual: str | None) -> str:
    """Expected and actual boards side by side, 8 columns each; differing cards marked with *."""
    want = expected.split() if expected else []
    got = actual.split() if actual else []
    cell = 4
    width = COLUMNS * cell
    lines = [f"{'expected':<{width}}  │ {'actual'}"]
    for row in range(max(math.ceil(len(want) / COLUMNS), math.ceil(len(got) / COLUMNS), 1)):
        halves = []
        for mine, other in ((want, got), (got, want)):
            cells = []
            for p in range(row * COLUMNS, (row + 1) * COLUMNS):
                if p < len(mine):
                    mark = "*" if other and (p >= len(other) or other[p] != mine[p]) else " "
                    cells.append(f"{mine[p]}{mark}".ljust(cell))
            halves.append("".join(cells))
        lines.append(f"{halves[0]:<{width}}  │ {halves[1]}".rstrip())
    if not want:
        lines.append("(no expected board)")
    if not got:
        lines.append("(no board from the implementation)")
    return printable("\n".join(lines))


def verdict(report: Report) -> str:
    """One line for people: what conformed, and where it first did not."""
    scope = f"{report.implementation} against {report.against} ({report.dialect})"
    where = "" if report.shard == "1/1" else f" in shard {report.shard}"
    f = report.first_failure
    if f is None:
        return printable(f"CONFORMS: {scope}: {report.checked} deals checked{where}, all identical", one_line=True)
    clean_prefix = ""
    if report.shard == "1/1" and report.ranges and report.ranges[0][0] <= f.deal <= report.ranges[0][1]:
        first = report.ranges[0][0]
        clean_prefix = f"conforms on {first} … {f.deal - 1}, " if f.deal > first else "no deal conforms before it, "
    line = f"DIVERGES: {scope}: {clean_prefix}first {f.kind} at deal {f.deal}{where}: {f.message}"
    return printable(line, one_line=True)


def write_junit(path: str, report: Report, label: str) -> None:
    suite = ET.Element(
        "testsuite",
        name="freecell-harness",
        tests="1",
        failures="0" if report.conformant else "1",
        errors="0",
        time=f"{report.elapsed_s:.3f}",
    )
    case = ET.SubElement(
        suite,
        "testcase",
        classname=f"freecell-harness.{report.dialect}",
        name=printable(f"{report.implementation} {label}", one_line=True),
    )
    case.set("time", f"{report.elapsed_s:.3f}")
    f = report.first_failure
    if f is not None:
        message = printable(f"deal {f.deal}: {f.kind}: {f.message}", one_line=True)
        node = ET.SubElement(case, "failure", message=message, type=printable(f.kind, one_line=True))
        node.text = verdict(report) + "\n" + board_diff(f.expected, f.actual)
    ET.SubElement(case, "system-out").text = f"{report.checked} deals checked"
    root = ET.Element("testsuites")
    root.append(suite)
    ET.indent(root)
    write_atomically(path, ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n")
