"""Choosing an implementation: parse an IMPL string (cheap, no I/O), check it (cheap: files, tools),
open it (the expensive part: processes, imports), or open a pair for comparing.

    spec = parse_impl("node:solution.js")     # RequestError if malformed
    check_impl(spec, options)                 # RequestError if it surely cannot be opened
    actual, expected = open_pair("node:a.js", "reference", options)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness.adapters.base import Dealer, DealerOptions
from harness.errors import RequestError

# kind → (how it is written, whether it takes an argument)
IMPL_FORMS: dict[str, tuple[str, bool]] = {
    "reference": ("reference", False),
    "fixtures": ("fixtures", False),
    "pysol-cards": ("pysol-cards", False),
    "node": ("node:PATH", True),
    "cmd": ("cmd:TEMPLATE", True),
    "stream": ("stream:COMMAND", True),
    "py": ("py:MODULE:FUNCTION", True),
}
IMPL_KINDS = tuple(form for form, _ in IMPL_FORMS.values())


@dataclass(frozen=True, slots=True)
class ImplSpec:
    """An IMPL string, parsed: its kind and the argument after `kind:` ("" for bare kinds)."""

    kind: str
    argument: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.argument}" if IMPL_FORMS[self.kind][1] else self.kind


def parse_impl(text: str | ImplSpec) -> ImplSpec:
    """The kind and argument of an IMPL string; RequestError naming the forms if it is none."""
    if isinstance(text, ImplSpec):
        return text
    if text in IMPL_FORMS and not IMPL_FORMS[text][1]:
        return ImplSpec(text, "")
    kind, sep, argument = text.partition(":")
    if sep and kind in IMPL_FORMS and IMPL_FORMS[kind][1]:
        if not argument:
            raise RequestError(f"{text!r}: nothing after '{kind}:' (expected {IMPL_FORMS[kind][0]})")
        if kind == "py":
            module, colon, function = argument.partition(":")
            if not colon or not module or not function:
                raise RequestError(f"{text}: expected py:MODULE:FUNCTION, e.g. py:mydealer:deal")
        return ImplSpec(kind, argument)
    raise RequestError(f"unknown implementation {text!r}: expected one of {', '.join(IMPL_KINDS)}")


def _dealer_class(kind: str) -> type[Dealer]:
    """The adapter class of a kind, imported only when asked for (pysol-cards, Node … stay unloaded)."""
    if kind == "reference":
        from harness.adapters.reference import ReferenceDealer

        return ReferenceDealer
    if kind == "fixtures":
        from harness.adapters.fixtures import FixturesDealer

        return FixturesDealer
    if kind == "pysol-cards":
        from harness.adapters.pysol import PysolDealer

        return PysolDealer
    if kind == "py":
        from harness.adapters.python import PythonDealer

        return PythonDealer
    if kind == "node":
        from harness.adapters.node import NodeDealer

        return NodeDealer
    from harness.adapters.program import CommandDealer, StreamDealer

    return {"cmd": CommandDealer, "stream": StreamDealer}[kind]


def check_impl(impl: str | ImplSpec, options: DealerOptions) -> ImplSpec:
    """RequestError now if `impl` surely cannot be opened (a missing file, module, program or tool),
    without starting it: what a parent process checks before its workers open the dealer."""
    spec = parse_impl(impl)
    _dealer_class(spec.kind).check(spec.argument, options)
    return spec


def dealer_version(impl: str | ImplSpec) -> str | None:
    """The version of what `impl` runs, where the harness knows it without running the dealer."""
    from importlib import metadata

    spec = parse_impl(impl)
    package = {"reference": "freecell-harness", "fixtures": "freecell-harness", "pysol-cards": "pysol-cards"}
    if spec.kind not in package:
        return None
    try:
        return f"{package[spec.kind]} {metadata.version(package[spec.kind])}"
    except metadata.PackageNotFoundError:
        return None


def open_dealer(impl: str | ImplSpec, options: DealerOptions | None = None) -> Dealer:
    """Open the implementation that `impl` names; RequestError if it cannot be."""
    spec = parse_impl(impl)
    options = options or DealerOptions()
    cls: Any = _dealer_class(spec.kind)  # bare kinds take the options only, the others an argument too
    dealer: Dealer = cls(spec.argument, options) if IMPL_FORMS[spec.kind][1] else cls(options)
    return dealer


def open_pair(actual: str | ImplSpec, expected: str | ImplSpec, options: DealerOptions) -> tuple[Dealer, Dealer]:
    """Both dealers of a comparison, or neither: the first is closed if the second cannot be opened."""
    first = open_dealer(actual, options)
    try:
        second = open_dealer(expected, options)
    except BaseException:
        first.close()
        raise
    return first, second
