"""IMPL `reference`: the project's Python reference dealer."""

from __future__ import annotations

from collections.abc import Sequence

import reference
from harness.adapters.base import Answer, Dealer, DealerOptions
from reference.cards import LINE_BYTES


class ReferenceDealer(Dealer):
    kind, form, package = "reference", "reference", "freecell-harness"
    bulk = True

    def __init__(self, options: DealerOptions) -> None:
        self.impl = "reference"
        self.dialect = reference.get_dialect(options.dialect)

    @classmethod
    def prepare(cls, options: DealerOptions) -> None:
        reference.block_digest((1,), options.dialect)  # the first deal builds the dialect's dealing tables

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        data = reference.canonical_lines(deals, self.dialect)
        return [data[i : i + LINE_BYTES] for i in range(0, len(data), LINE_BYTES)]

    def block_digest(self, deals: Sequence[int]) -> str:
        return reference.block_digest(deals, self.dialect)
