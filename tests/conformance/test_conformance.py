"""The project's main job: every --fc-impl agrees with --fc-against on every block of --fc-range.

Unless the run names others, the golden fixtures and the original freeCodeCamp JavaScript solution
(under Node), as conftest.py names them, each against the reference, over the default of `verify`
(1 … 32000 and a window around every boundary); `tox -e conformance` runs 1 … 1000000 with -n auto.
"""

from __future__ import annotations

from harness import Block, ConformanceSession


def test_block_conforms(fc_conformance: ConformanceSession, conformance_impl: str, deal_block: Block) -> None:
    fc_conformance.check(conformance_impl, deal_block)
