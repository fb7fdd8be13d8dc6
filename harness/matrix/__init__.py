"""The conformance matrix (SPEC.md, "The conformance matrix"): many implementations profiled into one
table (`matrix run`), and what changed between two runs (`matrix diff`).

`manifest` reads the TOML manifest; `runner` runs each row (setup, then `row`, a process that calls the
one profiler, `harness.dealer_profile`), keeps unchanged ones and writes DIR; `results` says what a row
means (cells, coverage, expectations, badge); `diff` compares two matrix.json.  What is written is
rendered by `harness.reports` (`matrix_table`: summary.md; `matrix_site`: the HTML, its boards drawn
by `harness.reports.cards`).
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
