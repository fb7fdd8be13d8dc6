"""What a run says, in every form it is said: one home for the outputs (DESIGN.md, "Outputs in one home").

`report` is the JSON report of `verify` (and `report merge`), the verdict line and the board diff in
text; `junit` the JUnit XML; `github` the GitHub Actions annotations and job summary; `html` the
self-contained pages of `verify --html` and `profile --html`; `matrix_table` and `matrix_site` the
matrix's summary.md and site; `cards`, the one place that draws a board as cards, which every page
showing boards calls.

The names load when first used (PEP 562): `--version` reads `harness_version` without the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from harness.lazy import lazy_names

if TYPE_CHECKING:
    from harness.reports.cards import boards_html
    from harness.reports.html import page, profile_html, verify_html, write_html
    from harness.reports.report import Report, harness_version, merge_reports, read_report, verdict

_HOMES: Final = {
    "Report": "harness.reports.report",
    "boards_html": "harness.reports.cards",
    "harness_version": "harness.reports.report",
    "merge_reports": "harness.reports.report",
    "page": "harness.reports.html",
    "profile_html": "harness.reports.html",
    "read_report": "harness.reports.report",
    "verdict": "harness.reports.report",
    "verify_html": "harness.reports.html",
    "write_html": "harness.reports.html",
}

__all__ = [
    "Report",
    "boards_html",
    "harness_version",
    "merge_reports",
    "page",
    "profile_html",
    "read_report",
    "verdict",
    "verify_html",
    "write_html",
]

__getattr__, __dir__ = lazy_names(__name__, _HOMES, __all__)
