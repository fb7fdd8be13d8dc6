"""The conformance matrix (SPEC.md, "The conformance matrix"): many implementations profiled into one
table (`matrix run`), and what changed between two runs (`matrix diff`).

`manifest` reads the TOML manifest; `runner` runs each row (setup, then `row`, a process that calls the
one profiler, `harness.dealer_profile`), keeps unchanged ones and writes DIR; `results` says what a row
means (cells, coverage, expectations, badge); `diff` compares two matrix.json.  What is written is
rendered by `harness.reports` (`matrix_table`: summary.md; `matrix_site`: the HTML, its boards drawn
by `harness.reports.cards`).
"""

from __future__ import annotations

from harness.lazy import lazy_names

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


# Loaded when first used, and named here only as strings: the renderers in harness.reports import
# harness.matrix.results, which must not bring the runner (and through it the renderers) with it.
_HOMES = {
    **dict.fromkeys(("Change", "diff_markdown", "diff_matrices", "diff_text"), "harness.matrix.diff"),
    **dict.fromkeys(("Entry", "Manifest", "load_manifest"), "harness.matrix.manifest"),
    **dict.fromkeys(("REGIONS", "Region"), "harness.matrix.results"),
    **dict.fromkeys(("Outcome", "read_matrix", "run_matrix"), "harness.matrix.runner"),
}
__getattr__, __dir__ = lazy_names(__name__, _HOMES, __all__)
