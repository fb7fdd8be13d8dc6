"""IMPL `node:PATH[#NAME]`: a JavaScript dealer, or a challenge document's solution, run under Node.

PATH is a script, a CommonJS module or an ES module (`.js`, `.cjs`, `.mjs`), or TypeScript
(`.ts`, `.mts`, `.cts`), with the files it requires from its own tree; or a freeCodeCamp
challenge document (its first solution).  The dealer is `dealFreeCell`, or the export or global
NAME (`#default`: the default export, or a module that is one function).  A file that cannot be loaded (unreadable, a
syntax error, a missing module, a top level that throws, no such function) is a request that
cannot be served: RequestError, one line naming the file, the line and the cause.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.challenge import read_challenge
from harness.errors import RequestError
from harness.failures import Failure
from harness.impl_hints import script_functions_hint
from harness.node.bridge import NodeBridge
from harness.node.locate import find_node
from harness.node.protocol import LoadAnswer, LoadRequest
from harness.node.sources import (
    JSX_SUFFIXES,
    SOURCE_SUFFIXES,
    DealerSpec,
    gather,
    parse_node_arg,
    script_request,
    source_files,
)
from harness.process import memory_words
from harness.seeds import missing_seed_hint


def load_request(spec: DealerSpec) -> LoadRequest:
    """What to load for `spec`: the JavaScript files, or a challenge document's first solution."""
    suffix = Path(spec.path).suffix
    if suffix in SOURCE_SUFFIXES:
        return gather(spec)
    if suffix in JSX_SUFFIXES:
        raise RequestError(
            f"{spec.path}: JSX ({suffix}) cannot run as a dealer: put the dealing function in a "
            f"{'.ts' if suffix == '.tsx' else '.js'} file of its own (the component can import it) and verify that file"
        )
    if hint := missing_seed_hint(spec.path):
        raise RequestError(f"{spec.path}: no such file: {hint}")
    document = read_challenge(spec.path)
    if not document.solutions:
        raise RequestError(f"{spec.path}: the challenge document has no solution to run")
    solution = document.solutions[0]
    return script_request(solution.code, spec.path, solution.line, spec.name)


def load_failure(what: str, answer: LoadAnswer) -> str:
    """One line: where and why a dealer could not be loaded."""
    where = answer.file or what
    location = f"{where}:{answer.line}" if answer.line is not None else where
    why = {"syntax-error": "does not compile", "runtime-error": "fails as it loads", "missing": "has no dealer"}
    said = f"{location}: cannot load the dealer: it {why.get(answer.status, answer.status)}: {answer.message}"
    if answer.status == "missing" and "(" not in (answer.message or ""):  # a script, which exports nothing
        said += script_functions_hint(Path(what))
    if answer.status == "syntax-error" and _AWAIT_OUTSIDE_ASYNC in (answer.message or ""):
        said += (
            " (a top-level await: the harness loads every module synchronously, ES modules too; "
            "move the await into the dealing function, which may be async)"
        )
    return said


_AWAIT_OUTSIDE_ASYNC = "await is only valid in async functions and the top level bodies of modules"


class NodeDealer(Dealer):
    kind, form = "node", "node:PATH"

    @classmethod
    def build_files(cls, argument: str) -> list[Path]:
        """The dealer's file and every module it requires (a challenge document: itself)."""
        spec = parse_node_arg(argument)
        if Path(spec.path).suffix in SOURCE_SUFFIXES:
            with contextlib.suppress(RequestError):  # the run itself says why it cannot be gathered
                return source_files(spec)
        return [Path(spec.path)]

    @classmethod
    def check(cls, argument: str, options: DealerOptions) -> None:
        """Cheap: the files can be read and gathered (every module found), and Node is there."""
        load_request(parse_node_arg(argument))
        find_node()

    def __init__(self, arg: str, options: DealerOptions) -> None:
        spec = parse_node_arg(arg)
        request = replace(
            load_request(spec), cards=options.cards, suits=options.suits
        )  # RequestError before Node starts
        bridge = NodeBridge(options.timeout, options.limits)
        try:
            answer = bridge.load(request)
        except BaseException:
            bridge.close()
            raise
        if not answer.ok:
            bridge.close()
            raise RequestError(load_failure(spec.path, answer))
        self._setup(f"node:{arg}", bridge, owns_bridge=True)

    @classmethod
    def loaded(cls, impl: str, bridge: NodeBridge) -> NodeDealer:
        """A dealer on a bridge that has already loaded it (the `challenge` command's)."""
        dealer = cls.__new__(cls)
        dealer._setup(impl, bridge, owns_bridge=False)
        return dealer

    def _setup(self, impl: str, bridge: NodeBridge, *, owns_bridge: bool) -> None:
        self.impl = impl
        self.bridge = bridge
        self._owns_bridge = owns_bridge

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        return [self._over_limit(a) for a in self.bridge.lines(deals)]

    def _over_limit(self, answer: Answer) -> Answer:
        """An allocation refused under the memory limit (typed arrays: RLIMIT_DATA) is a crash naming it."""
        if not isinstance(answer, Failure) or answer.kind != "error" or not self.bridge.limits.memory_mb:
            return answer
        if not memory_words(answer.message):
            return answer
        said = f"{answer.message}; over the memory limit (--memory-limit {self.bridge.limits.memory_mb} MB)"
        return Failure(answer.deal, "crash", said, answer.expected, answer.actual)

    def block_digest(self, deals: Sequence[int]) -> str | None:
        return self.bridge.digest(deals)

    def reset(self) -> None:
        if self._owns_bridge:
            self.bridge.close()  # the next request starts a fresh driver and loads the solution again

    def close(self) -> None:
        if self._owns_bridge:
            self.bridge.close()
