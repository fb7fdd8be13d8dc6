"""Choosing an implementation: a cheap parse, a cheap check, opening, and opening a pair."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import pytest

from harness.adapters import DealerOptions, ImplSpec, check_impl, open_pair, parse_impl
from harness.adapters.base import Answer, Dealer
from harness.errors import RequestError


@pytest.mark.parametrize(
    ("text", "kind", "argument"),
    [
        ("reference", "reference", ""),
        ("fixtures", "fixtures", ""),
        ("pysol-cards", "pysol-cards", ""),
        ("node:a b.js", "node", "a b.js"),
        ("node:doc.txt#deal", "node", "doc.txt#deal"),
        ("cmd:./deal {n} --x", "cmd", "./deal {n} --x"),
        ("stream:python3 -u d.py", "stream", "python3 -u d.py"),
        ("py:pkg.mod:deal", "py", "pkg.mod:deal"),
    ],
)
def test_an_impl_string_parses_into_kind_and_argument(text: str, kind: str, argument: str) -> None:
    spec = parse_impl(text)
    assert spec == ImplSpec(kind, argument) and str(spec) == text


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("nonsense", "unknown implementation"),
        ("reference:x", "unknown implementation"),
        ("node:", "nothing after 'node:'"),
        ("cmd:", "nothing after 'cmd:'"),
        ("py:mod", "py:MODULE:FUNCTION"),
        ("py::f", "py:MODULE:FUNCTION"),
        ("", "unknown implementation"),
    ],
)
def test_a_bad_impl_string_is_refused_without_opening_anything(text: str, says: str) -> None:
    with pytest.raises(RequestError, match=says):
        parse_impl(text)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("node:/no/such/solution.js", "no such file"),
        ("cmd:/no/such/program {n}", "program not found"),
        ("stream:/no/such/program", "program not found"),
        ("py:no_such_module_here:deal", "cannot import no_such_module_here"),
    ],
)
def test_the_cheap_check_refuses_what_surely_cannot_open(text: str, says: str) -> None:
    with pytest.raises(RequestError, match=says):
        check_impl(text, DealerOptions())


class Recorder(Dealer):
    closed: ClassVar[list[str]] = []

    def __init__(self, impl: str) -> None:
        self.impl = impl

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        return []

    def close(self) -> None:
        Recorder.closed.append(self.impl)


def test_open_pair_closes_the_first_dealer_when_the_second_cannot_open(monkeypatch: pytest.MonkeyPatch) -> None:
    import harness.adapters.registry as registry

    class Unopenable(Recorder):
        form = "cmd:TEMPLATE"

        def __init__(self, argument: str, options: DealerOptions) -> None:
            raise RequestError("cannot open the second")

    class First(Recorder):
        form = "reference"

        def __init__(self, options: DealerOptions) -> None:
            super().__init__("reference")

    monkeypatch.setattr(registry, "dealer_class", {"reference": First, "cmd": Unopenable}.__getitem__)
    Recorder.closed = []
    with pytest.raises(RequestError, match="second"):
        open_pair("reference", "cmd:x", DealerOptions())
    assert Recorder.closed == ["reference"]


def test_with_jobs_the_parent_checks_but_never_opens_the_dealers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening (for Node: starting it) happens in the workers only; the parent only checks."""
    import harness.engine as engine
    from harness.request import Request

    opened: list[str] = []
    real = engine.open_pair  # type: ignore[attr-defined]

    def counting(actual: str, expected: str, options: DealerOptions) -> tuple[Dealer, Dealer]:
        opened.append(actual)  # the workers are forked: only the parent's calls land in this list
        return real(actual, expected, options)

    monkeypatch.setattr(engine, "open_pair", counting)
    outcome = engine.run(Request("reference", ranges=((1, 3000),), jobs=2, block_size=1000))
    assert outcome.conformant and outcome.checked == 3000
    assert opened == []
    engine.open_comparer(Request("reference", ranges=((1, 10),), jobs=1)).close()
    assert opened == ["reference"]  # and the counter does see an open in this process


@pytest.mark.parametrize("suffix", ["", "#dealFreeCell"])
def test_the_cheap_check_accepts_an_existing_node_file_with_or_without_a_name(
    tmp_path: Path, node: str, suffix: str
) -> None:
    solution = tmp_path / "solution.js"
    solution.write_text("function dealFreeCell(n) { return []; }\n")
    assert check_impl(f"node:{solution}{suffix}", DealerOptions()).kind == "node"
