"""What a matrix row says, computed from its profile: the cell of each region of the domain, what was
checked per dialect (sampled, or exhaustive by a `verify --report` of the same build), whether it met
its `expect`, its badge, and the command that re-runs a first failure.

A row is the JSON object matrix.json holds (schemas/matrix.schema.json): every function here reads it
and nothing else, so that a run, `--from`, `matrix diff` and the site say the same of the same row.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.dealer_profile import SAMPLE, WINDOW
from harness.errors import RequestError
from harness.matrix.manifest import Entry
from reference.dialects import DIALECTS

Row = dict[str, Any]
MAX_REPORT = 16 << 20  # bytes of a `verify --report` named by `exhaustive`


@dataclass(frozen=True, slots=True)
class Region:
    """A column of the table: deals first … last of one dialect."""

    key: str
    dialect: str
    first: int
    last: int
    title: str


REGIONS = (
    Region("classic-32000", "classic", 1, 32000, "classic 1…32000"),
    Region("classic-1000000", "classic", 32001, 10**6, "classic 32001…10⁶"),
    Region("classic-2^31", "classic", 10**6 + 1, 2**31 - 1, "classic 10⁶+1…2³¹−1"),
    Region("fcpro-2^32", "fcpro", 2**31, 2**32 - 1, "fcpro 2³¹…2³²−1"),
    Region("fcpro-2^33", "fcpro", 2**32, 2**33 - 1, "fcpro 2³²…2³³−1"),
    Region("xp", "xp", DIALECTS["xp"].first, DIALECTS["xp"].last, "xp (−2, −1, 1…10⁶)"),
)


def cell(row: Row, region: Region) -> dict[str, Any]:
    """`conforms` (every deal checked in it conforms), `fails` (its first failure lies in it: deal, kind,
    cause), `not-reached` (the part it lies in failed below it, and the profile stops at a part's first
    failure) or `not-run` (the row has no profile)."""
    parts = (row.get("parts") or {}).get(region.dialect)
    if not parts:
        return {"status": "not-run"}
    failures = [f for first, last, f in parts if f is not None and first <= region.last and last >= region.first]
    failure = min(failures, key=lambda f: f["deal"]) if failures else None
    if failure is None or failure["deal"] > region.last:
        return {"status": "conforms"}
    if failure["deal"] < region.first:
        return {"status": "not-reached", "deal": failure["deal"]}
    diagnosis = failure.get("diagnosis")
    return {
        "status": "fails",
        "deal": failure["deal"],
        "kind": failure["kind"],
        "cause": diagnosis["cause"] if diagnosis else None,
    }


def cell_text(c: dict[str, Any]) -> str:
    if c["status"] == "conforms":
        return "✓"
    if c["status"] == "fails":
        return f"✗ {c['deal']} ({c['cause'] or c['kind']})"
    if c["status"] == "not-reached":
        return "·"  # below it, the dealer already fails
    return "–"


# ------------------------------------------------------------------------------ what was checked


def coverage(entry: Entry, row: Row) -> dict[str, Any]:
    """Per dialect: the profile's sample (windows of WINDOW deals around each boundary and SAMPLE deals
    per part), and the ranges the manifest's `exhaustive` reports of this same build checked and found
    conforming.  A report of another build, dialect or `against`, or an interrupted one, counts for nothing
    (said in `ignored`); a report that found a failure is said in `refuted`."""
    found: dict[str, Any] = {
        name: {"sampled": {"window": WINDOW, "sample": SAMPLE, "seed": 0}, "exhaustive": [], "refuted": None}
        for name in DIALECTS
    }
    ignored: list[str] = []
    for path in entry.exhaustive:
        report = _read_report(path)
        why = _unusable(report, row.get("dealer_build"))
        if why:
            ignored.append(f"{path.name}: {why}")
            continue
        mine = found[report["dialect"]]
        if report["first_failure"] is not None:
            deal = report["first_failure"]["deal"]
            mine["refuted"] = deal if mine["refuted"] is None else min(deal, mine["refuted"])
        else:
            mine["exhaustive"] = _union([*mine["exhaustive"], *report.get("ranges", [])])
    return {"dialects": found, "ignored": ignored}


def _read_report(path: Path) -> dict[str, Any]:
    from harness.files import read_regular
    from harness.reports.report import Report

    try:
        data = json.loads(read_regular(path, MAX_REPORT, "verify report"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise RequestError(f"{path}: not JSON ({exc})") from None
    Report.from_json(data, str(path))  # refused in one line when it is not a verify report
    assert isinstance(data, dict)
    return data


def _unusable(report: dict[str, Any], build: str | None) -> str | None:
    if report.get("interrupted"):
        return "interrupted"
    if report.get("sample") is not None:
        return "a sample, not whole ranges"
    if report.get("against", "reference") != "reference":
        return f"checked against {report['against']}, not the reference"
    if report.get("shard", "1/1") != "1/1":
        return f"one shard ({report['shard']}) of a run"
    theirs = report.get("dealer_build")
    if build is None or theirs != build:
        return "of another build" if theirs else "names no dealer_build"
    return None


def _union(ranges: list[list[int]]) -> list[list[int]]:
    merged: list[list[int]] = []
    for a, b in sorted([int(a), int(b)] for a, b in ranges):
        if merged and a <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return merged


def exhaustive_over(row: Row, dialect: str) -> bool:
    """The dialect's whole domain was checked deal by deal (by reports of this build) and conforms."""
    d = DIALECTS[dialect]
    mine = row["coverage"]["dialects"][dialect]
    deals = [n for a, b in mine["exhaustive"] for n in (a, b)]
    if mine["refuted"] is not None or not deals:
        return False
    covered = mine["exhaustive"]
    wanted = [[r.first, r.last] for r in d.rules]
    fixed = sorted(d.fixed_layouts)
    if fixed:
        wanted.insert(0, [fixed[0], fixed[-1]])
    return all(any(a <= first and last <= b for a, b in covered) for first, last in wanted)


# ----------------------------------------------------------------------------------- expectations


def unmet(entry: Entry, row: Row) -> list[str]:
    """Each of the entry's expectations that its row does not meet, said in a line."""
    said: list[str] = []
    profile = row.get("profile")
    for dialect, wanted in entry.expect:
        want = "conforms" if wanted is True else f"first failure at deal {wanted}"
        if profile is None:
            said.append(f"{entry.id}: expected {dialect} {want}, but it could not be profiled ({row['reason']})")
            continue
        f = profile["dialects"][dialect]["first_failure"]
        got = "it conforms" if f is None else f"first {f['kind']} at deal {f['deal']}"
        if (wanted is True and f is not None) or (wanted is not True and (f is None or f["deal"] != wanted)):
            fixed = " (a known failure is fixed: update the expectation)" if f is None else ""
            said.append(f"{entry.id}: expected {dialect} {want}, but {got}{fixed}")
        elif row["coverage"]["dialects"][dialect]["refuted"] is not None and wanted is True:
            deal = row["coverage"]["dialects"][dialect]["refuted"]
            said.append(f"{entry.id}: expected {dialect} conforms, but an exhaustive report fails at deal {deal}")
    return said


# ------------------------------------------------------------------------------------------ badge


def badge(row: Row) -> dict[str, Any]:
    """shields.io endpoint JSON: the widest dialect matched, and whether sampled or exhaustive; never more."""
    from harness.dealer_profile import ORDER

    label = row["name"]
    profile = row.get("profile")
    if profile is None:
        return {"schemaVersion": 1, "label": label, "message": f"not run: {row['status']}", "color": "lightgrey"}
    dialects = row["coverage"]["dialects"]
    matched = [d for d in ORDER if d in profile["matches"] and dialects[d]["refuted"] is None]
    if matched:
        best = matched[0]
        if exhaustive_over(row, best):
            return {"schemaVersion": 1, "label": label, "message": f"{best} ✓ exhaustive", "color": "brightgreen"}
        return {"schemaVersion": 1, "label": label, "message": f"{best} ✓ sampled", "color": "green"}
    f = profile["dialects"]["classic"]["first_failure"]
    refuted = dialects["classic"]["refuted"]
    deal = f["deal"] if f is not None else refuted
    why = (f.get("diagnosis") or {}).get("cause") or f["kind"] if f is not None else "exhaustive report"
    return {"schemaVersion": 1, "label": label, "message": f"classic ✗ at deal {deal} ({why})", "color": "red"}


# ---------------------------------------------------------------------------------------- re-runs


def rerun_command(row: Row, dialect: str, deal: int) -> str:
    """The command, from the manifest's folder, that checks that one deal again as the row did."""
    verify = [
        "freecell-harness",
        "verify",
        row["impl"],
        "--dialect",
        dialect,
        f"--range={deal}-{deal}",
        *row["options"],
    ]
    command = shlex.join(verify)
    return command if row["cwd"] == "." else f"cd {shlex.quote(row['cwd'])} && {command}"
