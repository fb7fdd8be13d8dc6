"""`matrix diff OLD.json NEW.json`: which implementations changed between two matrix.json: new failures,
fixed ones, first failures that moved, rows that could no longer run, rows added and removed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reference.dialects import DIALECTS

Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Change:
    id: str
    what: str  # new-failure, fixed, moved, not-run, runs-again, added, removed
    dialect: str | None
    old: str
    new: str
    worse: bool

    def text(self) -> str:
        where = f" {self.dialect}" if self.dialect else ""
        mark = "worse" if self.worse else "ok"
        return f"{self.id}{where}: {self.what.replace('-', ' ')}: {self.old} → {self.new} [{mark}]"


def _failure_text(f: dict[str, Any] | None) -> str:
    if f is None:
        return "conforms"
    cause = (f.get("diagnosis") or {}).get("cause")
    return f"{f['kind']} at deal {f['deal']}" + (f" ({cause})" if cause else "")


def diff_matrices(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    before = {r["id"]: r for r in old["implementations"]}
    after = {r["id"]: r for r in new["implementations"]}
    changes: list[Change] = []
    for ident, row in after.items():
        if ident not in before:
            changes.append(Change(ident, "added", None, "–", _said(row), False))
    for ident, was in before.items():
        now = after.get(ident)
        if now is None:
            changes.append(Change(ident, "removed", None, _said(was), "–", False))
        else:
            changes += _row_changes(ident, was, now)
    return changes


def _said(row: Row) -> str:
    profile = row.get("profile")
    return str(profile["summary"]) if profile else f"{row.get('status')}: {row.get('reason')}"


def _row_changes(ident: str, was: Row, now: Row) -> list[Change]:
    p, q = was.get("profile"), now.get("profile")
    if p is None and q is None:
        return []
    if q is None:
        return [Change(ident, "not-run", None, _said(was), _said(now), True)]
    if p is None:
        return [Change(ident, "runs-again", None, _said(was), _said(now), False)]
    changes = []
    for dialect in DIALECTS:
        f, g = p["dialects"][dialect]["first_failure"], q["dialects"][dialect]["first_failure"]
        old, new = _failure_text(f), _failure_text(g)
        if f is None and g is not None:
            changes.append(Change(ident, "new-failure", dialect, old, new, True))
        elif f is not None and g is None:
            changes.append(Change(ident, "fixed", dialect, old, new, False))
        elif f is not None and g is not None and (f["deal"], f["kind"]) != (g["deal"], g["kind"]):
            changes.append(Change(ident, "moved", dialect, old, new, g["deal"] < f["deal"]))
    return changes


def diff_text(changes: list[Change]) -> str:
    if not changes:
        return "no implementation changed"
    worse = sum(c.worse for c in changes)
    return "\n".join([*(c.text() for c in changes), f"{len(changes)} changes, {worse} worse"])


def diff_markdown(changes: list[Change]) -> str:
    if not changes:
        return "No implementation changed.\n"
    lines = ["| implementation | dialect | change | before | after | |", "|---|---|---|---|---|---|"]
    for c in changes:
        cells = [c.id, c.dialect or "", c.what, c.old, c.new, "**worse**" if c.worse else ""]
        lines.append("| " + " | ".join(x.replace("|", "\\|") for x in cells) + " |")
    return "\n".join(lines) + "\n"
