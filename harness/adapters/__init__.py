"""Every IMPL of SPEC.md behind one interface: `open_dealer("node:solution.js", options)`."""

from __future__ import annotations

from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.errors import RequestError

IMPL_KINDS = (
    "reference",
    "fixtures",
    "pysol-cards",
    "node:PATH",
    "cmd:TEMPLATE",
    "stream:COMMAND",
    "py:MODULE:FUNCTION",
)


def open_dealer(impl: str, options: DealerOptions | None = None) -> Dealer:
    """Open the implementation that the IMPL string `impl` names; RequestError if it cannot be."""
    options = options or DealerOptions()
    kind, sep, arg = impl.partition(":")
    if sep and not arg:
        raise RequestError(f"{impl!r}: nothing after '{kind}:'")
    if impl == "reference":
        from harness.adapters.reference import ReferenceDealer

        return ReferenceDealer(options)
    if impl == "fixtures":
        from harness.adapters.fixtures import FixturesDealer

        return FixturesDealer(options)
    if impl == "pysol-cards":
        from harness.adapters.pysol import PysolDealer

        return PysolDealer(options)
    if sep and kind == "py":
        from harness.adapters.python import PythonDealer

        return PythonDealer(arg, options)
    if sep and kind == "node":
        from harness.adapters.node import NodeDealer

        return NodeDealer(arg, options)
    if sep and kind == "cmd":
        from harness.adapters.program import CommandDealer

        return CommandDealer(arg, options)
    if sep and kind == "stream":
        from harness.adapters.program import StreamDealer

        return StreamDealer(arg, options)
    raise RequestError(f"unknown implementation {impl!r}: expected one of {', '.join(IMPL_KINDS)}")


__all__ = ["IMPL_KINDS", "Answer", "Dealer", "DealerOptions", "open_dealer"]
