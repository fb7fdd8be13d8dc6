"""Choosing an implementation: parse an IMPL string (cheap, no I/O), check it (cheap: files, tools),
open it (the expensive part: processes, imports), or open a pair for comparing.

    spec = parse_impl("node:solution.js")     # RequestError if malformed
    check_impl(spec, options)                 # RequestError if it surely cannot be opened
    actual, expected = open_pair("node:a.js", "reference", options)
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

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


def _open_reference(spec: ImplSpec, options: DealerOptions) -> Dealer:
    from harness.adapters.reference import ReferenceDealer

    return ReferenceDealer(options)


def _open_fixtures(spec: ImplSpec, options: DealerOptions) -> Dealer:
    from harness.adapters.fixtures import FixturesDealer

    return FixturesDealer(options)


def _open_pysol(spec: ImplSpec, options: DealerOptions) -> Dealer:
    from harness.adapters.pysol import PysolDealer

    return PysolDealer(options)


def _open_python(spec: ImplSpec, options: DealerOptions) -> Dealer:
    from harness.adapters.python import PythonDealer

    return PythonDealer(spec.argument, options)


def _open_node(spec: ImplSpec, options: DealerOptions) -> Dealer:
    from harness.adapters.node import NodeDealer

    return NodeDealer(spec.argument, options)


def _open_command(spec: ImplSpec, options: DealerOptions) -> Dealer:
    from harness.adapters.program import CommandDealer

    return CommandDealer(spec.argument, options)


def _open_stream(spec: ImplSpec, options: DealerOptions) -> Dealer:
    from harness.adapters.program import StreamDealer

    return StreamDealer(spec.argument, options)


_OPENERS: dict[str, Callable[[ImplSpec, DealerOptions], Dealer]] = {
    "reference": _open_reference,
    "fixtures": _open_fixtures,
    "pysol-cards": _open_pysol,
    "py": _open_python,
    "node": _open_node,
    "cmd": _open_command,
    "stream": _open_stream,
}


def check_impl(impl: str | ImplSpec, options: DealerOptions) -> ImplSpec:
    """RequestError now if `impl` surely cannot be opened (a missing file, module, program or tool),
    without starting it: what a parent process checks before its workers open the dealer."""
    spec = parse_impl(impl)
    if spec.kind == "pysol-cards" and importlib.util.find_spec("pysol_cards") is None:
        raise RequestError("pysol-cards is not installed: pip install pysol-cards")
    elif spec.kind == "fixtures":
        from harness.fixtures import find_fixtures

        find_fixtures()
    elif spec.kind == "py":
        from harness.adapters.python import load_callable

        load_callable(spec.argument)  # an import, no dealing: the message names what is missing
    elif spec.kind == "node":
        from harness.node.locate import find_node

        path, _, name = spec.argument.rpartition("#")  # node:PATH#NAME names the function
        if not Path(spec.argument).is_file() and not (name and Path(path).is_file()):
            raise RequestError(f"{spec}: no such file: {spec.argument}")
        find_node()
    elif spec.kind in ("cmd", "stream"):
        from harness.adapters.program import split_command

        split_command(spec.argument, str(spec))
    return spec


def dealer_version(impl: str | ImplSpec) -> str | None:
    """The version of what `impl` runs, where the harness knows it without running the dealer."""
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
    return _OPENERS[spec.kind](spec, options or DealerOptions())


def open_pair(actual: str | ImplSpec, expected: str | ImplSpec, options: DealerOptions) -> tuple[Dealer, Dealer]:
    """Both dealers of a comparison, or neither: the first is closed if the second cannot be opened."""
    first = open_dealer(actual, options)
    try:
        second = open_dealer(expected, options)
    except BaseException:
        first.close()
        raise
    return first, second
