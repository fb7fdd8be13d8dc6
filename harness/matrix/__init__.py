"""The conformance matrix (SPEC.md, "The conformance matrix"): many implementations profiled into one
table (`matrix run`), and what changed between two runs (`matrix diff`).

`manifest` reads the TOML manifest; `runner` runs each row (setup, then `row`, a process that calls the
one profiler, `harness.dealer_profile`) and keeps unchanged ones; `results` says what a row means
(cells, coverage, expectations, badge); `outputs` writes matrix.json, summary.md and the badges, `site`
the HTML (boards drawn by `harness.reports.html`); `diff` compares two matrix.json.
"""

from __future__ import annotations

from harness.matrix.diff import Change, diff_markdown, diff_matrices, diff_text
from harness.matrix.manifest import Entry, Manifest, load_manifest
from harness.matrix.results import REGIONS, Region
from harness.matrix.runner import Outcome, read_matrix, run_matrix

__all__ = [
    "REGIONS",
    "Change",
    "Entry",
    "Manifest",
    "Outcome",
    "Region",
    "diff_markdown",
    "diff_matrices",
    "diff_text",
    "load_manifest",
    "read_matrix",
    "run_matrix",
]
