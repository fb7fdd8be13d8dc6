"""Choosing an implementation: parse an IMPL string (cheap: no I/O, only its kind's module imported),
check it (cheap: files, tools),
open it (the expensive part: processes, imports), or open a pair for comparing.

    spec = parse_impl("node:solution.js")     # RequestError if malformed
    check_impl(spec, options)                 # RequestError if it surely cannot be opened
    actual, expected = open_pair("node:a.js", "reference", options)
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Final

from harness.adapters.base import Dealer, DealerOptions
from harness.errors import RequestError
from harness.version import installed_version

# Every IMPL kind, and where its Dealer class is: imported only when that kind is used (pysol-cards,
# Node … stay unloaded).  Each class declares the rest itself: its `kind`, its `form` (how it is
# written), what a build of it is made of (`build_files`, `package`) and its cheap `check`.  A new
# kind is its module, its tests and one line here.
DEALERS: Final = {
    "reference": "harness.adapters.reference:ReferenceDealer",
    "fixtures": "harness.adapters.fixtures:FixturesDealer",
    "pysol-cards": "harness.adapters.pysol:PysolDealer",
    "node": "harness.adapters.node:NodeDealer",
    "cmd": "harness.adapters.program:CommandDealer",
    "stream": "harness.adapters.stream:StreamDealer",
    "py": "harness.adapters.python:PythonDealer",
}


def dealer_class(kind: str) -> type[Dealer]:
    """The Dealer class of a kind of DEALERS, imported now."""
    module, _, name = DEALERS[kind].partition(":")
    cls: type[Dealer] = getattr(importlib.import_module(module), name)
    return cls


def impl_forms() -> tuple[str, ...]:
    """How each kind is written ("reference", "node:PATH" …), in the order of DEALERS; imports every kind."""
    return tuple(dealer_class(kind).form for kind in DEALERS)


@dataclass(frozen=True, slots=True)
class ImplSpec:
    """An IMPL string, parsed: its kind and the argument after `kind:` ("" for bare kinds)."""

    kind: str
    argument: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.argument}" if dealer_class(self.kind).takes_argument() else self.kind


def parse_impl(text: str | ImplSpec) -> ImplSpec:
    """The kind and argument of an IMPL string; RequestError naming the forms if it is none."""
    if isinstance(text, ImplSpec):
        return text
    kind, sep, argument = text.partition(":")
    if kind in DEALERS and bool(sep) == dealer_class(kind).takes_argument():
        cls = dealer_class(kind)
        if sep and not argument:
            raise RequestError(f"{text!r}: nothing after '{kind}:' (expected {cls.form})")
        cls.parse_argument(argument)
        return ImplSpec(kind, argument)
    from harness.impl_hints import implied_impl, unknown_impl_hint

    if implied := implied_impl(text):
        return parse_impl(implied)
    hint = unknown_impl_hint(text)
    raise RequestError(
        f"unknown implementation {text!r}: expected one of {', '.join(impl_forms())}" + (f"; {hint}" if hint else "")
    )


def check_impl(impl: str | ImplSpec, options: DealerOptions) -> ImplSpec:
    """RequestError now if `impl` surely cannot be opened (a missing file, module, program or tool),
    without starting it: what a parent process checks before its workers open the dealer."""
    spec = parse_impl(impl)
    dealer_class(spec.kind).check(spec.argument, options)
    return spec


def dealer_version(impl: str | ImplSpec) -> str | None:
    """The version of what `impl` runs, where the harness knows it without running the dealer."""
    package = dealer_class(parse_impl(impl).kind).package
    version = None if package is None else installed_version(package)
    return None if version is None else f"{package} {version}"


def open_dealer(impl: str | ImplSpec, options: DealerOptions | None = None) -> Dealer:
    """Open the implementation that `impl` names; RequestError if it cannot be."""
    spec = parse_impl(impl)
    options = options or DealerOptions()
    cls: Any = dealer_class(spec.kind)  # bare kinds take the options only, the others an argument too
    dealer: Dealer = cls(spec.argument, options) if cls.takes_argument() else cls(options)
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
