"""The project's main job: every --impl agrees with --against on every block of --deal-range.

Default: the golden fixtures and the original freeCodeCamp JavaScript solution (under Node),
each against the reference, over 1 … 20000; `tox -e conformance` runs 1 … 1000000 with -n auto.
"""

from __future__ import annotations

from harness.plan import Block
from harness.pytest_plugin import Conformance


def test_block_conforms(conformance: Conformance, conformance_impl: str, deal_block: Block) -> None:
    conformance.check(conformance_impl, deal_block)
