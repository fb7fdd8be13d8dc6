"""IMPL `pysol-cards`: the pysol-cards package (PyPI), an independent classic/fcpro dealer."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence

from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.cards import read_board
from harness.errors import RequestError
from harness.failures import Failure
from reference.cards import canonical_line

PYSOL_LAST = 2**33 - 1


class PysolDealer(Dealer):
    kind, form, package = "pysol-cards", "pysol-cards", "pysol-cards"

    @classmethod
    def check(cls, argument: str, options: DealerOptions) -> None:
        if importlib.util.find_spec("pysol_cards") is None:
            raise RequestError("pysol-cards is not installed: pip install pysol-cards")

    def __init__(self, options: DealerOptions) -> None:
        self.impl = "pysol-cards"
        try:
            from pysol_cards.cards import CardRenderer
            from pysol_cards.deal_game import Game
            from pysol_cards.random_base import RandomBase
        except ImportError:
            raise RequestError("pysol-cards is not installed: pip install pysol-cards") from None
        self._game, self._renderer, self._deals = Game, CardRenderer(True), RandomBase.DEALS_MS

    def board_text(self, number: int) -> str:
        """pysol-cards' own board for `number`: 8 columns, top card first."""
        return str(self._game("freecell", number, self._deals).calc_layout_string(self._renderer))

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        answers: list[Answer] = []
        for number in deals:
            try:
                cards = read_board(self.board_text(number))
            except Exception as exc:  # pysol-cards refuses numbers outside 1 … 2³³−1
                answers.append(Failure(number, "error", f"{type(exc).__name__}: {exc}"))
                continue
            answers.append(canonical_line(cards))
        return answers
