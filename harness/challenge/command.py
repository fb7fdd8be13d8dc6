"""`freecell-harness challenge DOCUMENT … [--range A-B] [--json]` (SPEC.md): the judgement.

Per document: the layout and language found, the solution's state, its hints run as
freeCodeCamp runs them, and whether the solution deals the reference's boards over the range.
`harness.cli` prints the reports (`format_table`, or JSON) and picks the exit status.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from harness.adapters.base import Dealer, DealerOptions
from harness.adapters.node import NodeDealer
from harness.adapters.reference import ReferenceDealer
from harness.challenge.layouts import ChallengeDocument, Code, read_challenge
from harness.challenge.names import undefined_names
from harness.compare import BlockComparer
from harness.engine import check_blocks
from harness.errors import RequestError
from harness.failures import Failure
from harness.intervals import range_blocks
from harness.limits import DEFAULT_LIMITS, Limits
from harness.node.bridge import NodeBridge
from harness.node.protocol import CodeBlock, HintsRequest
from harness.node.sources import script_request
from harness.verdict import Verdict


def check_conformance(dealer: Dealer, first: int, last: int) -> Verdict:
    """Compare `dealer` with the reference over first … last, block by block, as `verify` does
    (through the engine); `checked` counts deals up to and including the first failure.

    Cards or suits as bare numbers, which `verify` reads only as --cards/--suits state, are this
    solution's failure at `first`: a freeCodeCamp answer names its cards, and `challenge` has no such option."""
    comparer = BlockComparer(dealer, ReferenceDealer(DealerOptions()), owns_dealers=False)
    try:
        return check_blocks(comparer, range_blocks(first, last, dialect="classic")).verdict
    except RequestError as exc:
        if not (option := _STATE_THE_ENCODING.search(str(exc))):
            raise
        said = f'{str(exc)[: option.start()]}: the challenge asks for card names, such as "JD"'
        return Verdict(0, Failure(first, "invalid-output", said))
    finally:
        comparer.close()


# Where a refusal of bare numbers goes on to ask for --cards or --suits.
_STATE_THE_ENCODING = re.compile(r": (?:state|say) [^:]*--(?:cards|suits)\b")


# ---------------------------------------------------------------------------------- reports

_STATUS_ORDER = {"passed": 0, "failed": 1, "broken": 2}


def hints_request(document: ChallengeDocument, solution: Code | None) -> HintsRequest:
    return HintsRequest(
        file=document.path,
        solution=CodeBlock(solution.code, solution.line) if solution else None,
        hints=tuple(CodeBlock(h.code, h.line) for h in document.hints),
        hooks={name: CodeBlock(c.code, c.line) for name, c in document.hooks.items()},
        defined_names=document.defined_names,
    )


def solution_report(
    document: ChallengeDocument, index: int, bridge: NodeBridge, first: int, last: int
) -> dict[str, Any]:
    """One solution of a document: its state, its hints, and whether it deals the reference's boards."""
    solution = document.solutions[index] if index < len(document.solutions) else None
    ran = bridge.hints(hints_request(document, solution))
    details = []
    for hint, result in zip(document.hints, ran.hints, strict=True):
        hint_status, reason = result.status, result.reason
        if hint_status != "broken":
            unknown = undefined_names(hint.code, document.defined_names)
            if unknown:
                hint_status = "broken"
                reason = f"the hint uses {', '.join(unknown)}, which nothing in the document defines"
        details.append({"text": hint.text, "line": hint.line, "status": hint_status, "reason": reason})
    status, error = ran.solution_status, ran.solution_error
    conformant: bool | None = None
    checked = 0
    first_failure: dict[str, object] | None = None
    if solution is not None and status == "ok":
        answer = bridge.load(script_request(solution.code, document.path, solution.line))
        if not answer.ok:
            status, error = answer.status, answer.message
        else:
            dealer = NodeDealer.loaded(f"node:{document.path}", bridge)
            compared = check_conformance(dealer, first, last)
            conformant, checked = compared.conformant, compared.checked
            first_failure = compared.first_failure.to_json() if compared.first_failure else None
    return {
        "index": index,
        "line": solution.line if solution else None,
        "solution": status,
        "solution_error": error,
        "hints": _counted(details),
        "after_test_error": ran.after_test_error,
        "conformant": conformant,
        "checked": checked,
        "first_failure": first_failure,
    }


def _counted(details: list[dict[str, Any]]) -> dict[str, Any]:
    counts = {status: sum(1 for d in details if d["status"] == status) for status in _STATUS_ORDER}
    return {**counts, "details": details}


def challenge_report(document: ChallengeDocument, bridge: NodeBridge, first: int, last: int) -> dict[str, Any]:
    """The JSON object SPEC.md's `challenge --json` gives for one document; with several
    solutions, `solutions` holds each one's report and the top level the worst of them."""
    solutions = [solution_report(document, i, bridge, first, last) for i in range(max(1, len(document.solutions)))]
    worst = next((s for s in solutions if s["solution"] != "ok"), solutions[0])
    details = []
    for k in range(len(document.hints)):
        picked = max((s["hints"]["details"][k] for s in solutions), key=lambda d: _STATUS_ORDER[d["status"]])
        details.append(picked)
    verdicts = [s["conformant"] for s in solutions]
    conformant = False if False in verdicts else (None if None in verdicts else True)
    failures = [s["first_failure"] for s in solutions if s["first_failure"]]
    return {
        "document": document.path,
        "format": document.format,
        "language": document.language,
        "solution": worst["solution"],
        "solution_error": worst["solution_error"],
        "hints": _counted(details),
        "after_test_error": solutions[0]["after_test_error"],
        "conformant": conformant,
        "checked": sum(s["checked"] for s in solutions),
        "first_failure": failures[0] if failures else None,
        "solutions": solutions,
    }


def unreadable_report(path: str, error: str) -> dict[str, Any]:
    """A document that could not be read: reported as such; the others are still judged."""
    return {
        "document": path,
        "format": None,
        "language": None,
        "solution": None,
        "solution_error": None,
        "error": error,
        "hints": _counted([]),
        "conformant": None,
        "checked": 0,
        "first_failure": None,
        "solutions": [],
    }


@dataclass(frozen=True, slots=True)
class Judgement:
    """The reports of a `challenge` run, one per document in order, and why documents were unreadable."""

    reports: list[dict[str, Any]]
    unreadable: list[RequestError]

    @property
    def conformant(self) -> bool:
        """Every document's solution is ok and deals the reference's boards."""
        return all(r["solution"] == "ok" and r["conformant"] is True for r in self.reports)


def judge_documents(documents: list[str], deal_range: tuple[int, int], limits: Limits = DEFAULT_LIMITS) -> Judgement:
    """Read each document, run its solutions and hints under one Node driver, and compare over `deal_range`."""
    parsed: list[ChallengeDocument | RequestError] = []
    for path in documents:
        try:
            parsed.append(read_challenge(path))
        except RequestError as exc:
            parsed.append(exc)
    reports: list[dict[str, Any]] = []
    if any(isinstance(p, ChallengeDocument) for p in parsed):
        bridge = NodeBridge(DealerOptions().timeout, limits)
        try:
            for path, doc in zip(documents, parsed, strict=True):
                if isinstance(doc, ChallengeDocument):
                    reports.append(challenge_report(doc, bridge, *deal_range))
                else:
                    reports.append(unreadable_report(path, str(doc)))
        finally:
            bridge.close()
    else:
        reports = [unreadable_report(path, str(doc)) for path, doc in zip(documents, parsed, strict=True)]
    return Judgement(reports, [p for p in parsed if isinstance(p, RequestError)])


def format_table(reports: list[dict[str, Any]], deal_range: tuple[int, int]) -> str:
    """The reports as the human table, then each document's notes."""
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
                r["format"] or "-",
                r["language"] or "-",
                r["solution"] or "unreadable",
                f"{h['passed']}/{h['failed']}/{h['broken']}",
                verdict,
            )
        )
    widths = [max(len(row[c]) for row in rows) for c in range(len(header))]
    out = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() + "\n" for row in rows]
    for r in reports:
        notes = []
        if r.get("error"):
            notes.append(f"unreadable: {r['error']}")
        if len(r.get("solutions", [])) > 1:
            for s in r["solutions"]:
                verdict = {True: "conforms", False: "does NOT conform", None: "not compared"}[s["conformant"]]
                notes.append(f"solution {s['index'] + 1} (line {s['line']}): {s['solution']}, {verdict}")
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
