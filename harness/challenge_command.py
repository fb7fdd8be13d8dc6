"""`freecell-harness challenge DOCUMENT … [--range A-B] [--json]` (SPEC.md).

Per document: the layout and language found, the solution's state, its hints run as
freeCodeCamp runs them, and whether the solution deals the reference's boards over the range.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from harness.adapters.base import Dealer, DealerOptions
from harness.adapters.node import NodeDealer
from harness.adapters.reference import ReferenceDealer
from harness.challenge import ChallengeDocument, read_challenge
from harness.compare import BlockComparer
from harness.engine import check_blocks
from harness.intervals import range_blocks
from harness.node.bridge import NodeBridge
from harness.text import printable
from harness.verdict import Verdict

EXIT_OK, EXIT_NONCONFORMANT = 0, 1


def check_conformance(dealer: Dealer, first: int, last: int) -> Verdict:
    """Compare `dealer` with the reference over first … last, block by block, as `verify` does
    (through the engine); `checked` counts deals up to and including the first failure."""
    comparer = BlockComparer(dealer, ReferenceDealer(DealerOptions()), owns_dealers=False)
    try:
        return check_blocks(comparer, range_blocks(first, last, dialect="classic")).verdict
    finally:
        comparer.close()


# ---------------------------------------------------------------------------------- reports


def challenge_report(document: ChallengeDocument, bridge: NodeBridge, first: int, last: int) -> dict[str, Any]:
    """The JSON object SPEC.md's `challenge --json` gives for one document."""
    ran = bridge.hints(
        {
            "solution": document.solution,
            "solution_filename": document.path,
            "solution_line": document.solution_line,
            "after_test": document.after_test,
            "after_test_line": document.after_test_line,
            "hints": [{"code": h.code, "line": h.line} for h in document.hints],
            "seed_names": list(document.seed_names),
        }
    )
    details = [
        {"text": hint.text, "line": hint.line, "status": result["status"], "reason": result["reason"]}
        for hint, result in zip(document.hints, ran["hints"], strict=True)
    ]
    counts = {status: sum(1 for d in details if d["status"] == status) for status in ("passed", "failed", "broken")}
    dealer = NodeDealer(document.path, DealerOptions(timeout=bridge.timeout), document=document, bridge=bridge)
    status, error = dealer.load.status, dealer.load.message
    if status == "ok" and ran["solution"]["status"] != "ok":
        status, error = ran["solution"]["status"], ran["solution"]["error"]
    conformant: bool | None = None
    checked = 0
    first_failure: dict[str, object] | None = None
    if status == "ok":
        result = check_conformance(dealer, first, last)
        conformant, checked = result.conformant, result.checked
        first_failure = result.first_failure.to_json() if result.first_failure else None
    return {
        "document": document.path,
        "format": document.format,
        "language": document.language,
        "solution": status,
        "solution_error": error,
        "hints": {**counts, "details": details},
        "after_test_error": ran.get("after_test_error"),
        "conformant": conformant,
        "checked": checked,
        "first_failure": first_failure,
    }


def run_challenge_command(documents: list[str], deal_range: tuple[int, int], *, as_json: bool) -> int:
    parsed = [read_challenge(path) for path in documents]  # RequestError (exit 2) before any work
    bridge = NodeBridge(DealerOptions().timeout)
    try:
        reports = [challenge_report(doc, bridge, *deal_range) for doc in parsed]
    finally:
        bridge.close()
    if as_json:
        json.dump(reports, sys.stdout, indent=2)  # ASCII: a document's control characters stay escaped
        sys.stdout.write("\n")
    else:
        sys.stdout.write(printable(format_table(reports, deal_range)))
    broken = any(r["solution"] != "ok" or r["conformant"] is not True for r in reports)
    return EXIT_NONCONFORMANT if broken else EXIT_OK


def format_table(reports: list[dict[str, Any]], deal_range: tuple[int, int]) -> str:
    header = (
        "document",
        "format",
        "lang",
        "solution",
        "hints ok/failed/broken",
        f"conforms {deal_range[0]}-{deal_range[1]}",
    )
    rows = [header]
    for r in reports:
        h = r["hints"]
        verdict = {True: "yes", False: "NO", None: "-"}[r["conformant"]]
        rows.append(
            (
                r["document"],
                r["format"],
                r["language"],
                r["solution"],
                f"{h['passed']}/{h['failed']}/{h['broken']}",
                verdict,
            )
        )
    widths = [max(len(row[c]) for row in rows) for c in range(len(header))]
    out = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() + "\n" for row in rows]
    for r in reports:
        notes = []
        if r["solution_error"]:
            notes.append(f"solution {r['solution']}: {r['solution_error']}")
        for d in r["hints"]["details"]:
            if d["status"] != "passed":
                notes.append(f"hint {d['status']} (line {d['line']}) {d['text']!r}: {d['reason']}")
        if r["first_failure"]:
            f = r["first_failure"]
            notes.append(f"first failure: deal {f['deal']} {f['kind']}: {f['message']}")
        if notes:
            out.append(f"\n{r['document']}:\n" + "".join(f"  {n}\n" for n in notes))
    return "".join(out)
