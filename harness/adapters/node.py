"""IMPL `node:PATH`: a `.js` file or a challenge document whose `dealFreeCell(n)` is run under Node.

A solution that cannot be used (it does not compile, its top level throws, it defines no
`dealFreeCell`, the document has no solution) is not a request error: the dealer opens, and every
deal fails with kind `error` and a message naming the cause and the document line, so that
`verify` reports it like any other non-conformance.  `load` says what happened, for `challenge`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.challenge import ChallengeDocument, read_challenge
from harness.errors import RequestError
from harness.failures import Failure
from harness.node.bridge import LoadResult, NodeBridge
from harness.node.locate import find_node


class NodeDealer(Dealer):
    @classmethod
    def check(cls, argument: str, options: DealerOptions) -> None:
        path, _, name = argument.rpartition("#")  # node:PATH#NAME names the function
        if not Path(argument).is_file() and not (name and Path(path).is_file()):
            raise RequestError(f"node:{argument}: no such file: {argument}")
        find_node()

    def __init__(
        self,
        arg: str,
        options: DealerOptions,
        *,
        document: ChallengeDocument | None = None,
        bridge: NodeBridge | None = None,
    ) -> None:
        self.impl = f"node:{arg}"
        self.document = document if document is not None else read_challenge(arg)
        self._own_bridge = bridge is None
        self.bridge = bridge if bridge is not None else NodeBridge(options.timeout)
        if self.document.solution is None:
            self.load = LoadResult("missing", f"{arg}: the document has no solution code")
        else:
            self.load = self.bridge.load(self.document.solution, arg, self.document.solution_line)

    def _unusable(self, deals: Sequence[int]) -> list[Answer]:
        message = f"the solution cannot run ({self.load.status}): {self.load.message}"
        return [Failure(n, "error", message) for n in deals]

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        if not self.load.ok:
            return self._unusable(deals)
        return self.bridge.lines(deals)

    def block_digest(self, deals: Sequence[int]) -> str | None:
        if not self.load.ok:
            return None
        return self.bridge.digest(deals)

    def close(self) -> None:
        if self._own_bridge:
            self.bridge.close()
