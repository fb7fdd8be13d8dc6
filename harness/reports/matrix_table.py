"""The matrix's table in words: summary.md (the table in Markdown, for a CI job summary), and what a
row's verdict, speed and expectations are called, in it and on the site (`matrix_site`)."""

from __future__ import annotations

from typing import Any

from harness.matrix.results import REGIONS, Row, cell, cell_text


def verdict(row: Row) -> str:
    """`conforms` (matches a dialect), `fails` (matches none) or `not run`: what the table filters by."""
    if row.get("profile") is None:
        return "not run"
    return "conforms" if row["profile"]["matches"] else "fails"


def expectation_text(row: Row) -> str:
    return {None: "–", True: "met", False: "NOT MET"}[row["expect_met"]]


def speed_text(row: Row) -> str:
    if row.get("deals_per_s") is None:
        return "–"
    return f"{row['deals_per_s']:,} deals/s, {row['elapsed_s']:.1f} s"


def summary_markdown(document: dict[str, Any]) -> str:
    def escaped(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    head = ["implementation", "language", *(r.title for r in REGIONS), "summary", "speed", "expect"]
    lines = [
        f"## {escaped(document['title'])}",
        "",
        f"freecell-harness {document['harness_version']}, {document['date']}. ✓: every deal checked conforms "
        "(boundaries and a sample, unless the badge says exhaustive); ✗ N: the first failing deal; "
        "·: not reached (it fails below); –: not run.",
        "",
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
    ]
    for row in document["implementations"]:
        name = f"[{escaped(row['name'])}]({row['source']})" if row.get("source") else escaped(row["name"])
        said = row["profile"]["summary"] if row.get("profile") else f"{row['status']}: {row['reason']}"
        cells = [cell_text(cell(row, region)) for region in REGIONS]
        values = [name, escaped(row["language"]), *cells, escaped(said), speed_text(row), expectation_text(row)]
        lines.append("| " + " | ".join(values) + " |")
    return "\n".join(lines) + "\n"
