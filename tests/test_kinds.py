"""Every IMPL kind describes itself: its class declares its kind, its form and what a build of it is
made of, and the registry's table only says where each class is.  So a new kind is one module (and
its tests): nothing else in the harness names a kind."""

from __future__ import annotations

import ast
import importlib.metadata
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import reference
from harness import engine
from harness.adapters import registry
from harness.adapters.base import Answer, Dealer, DealerOptions
from harness.adapters.build import dealer_identity
from harness.adapters.registry import DEALERS, dealer_class, impl_forms, open_dealer, parse_impl
from harness.reports.report import harness_version
from harness.request import Request

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("kind", "form", "example"),
    [
        ("reference", "reference", "reference"),
        ("fixtures", "fixtures", "fixtures"),
        ("pysol-cards", "pysol-cards", "pysol-cards"),
        ("node", "node:PATH", "node:dealer.js#deal"),
        ("cmd", "cmd:TEMPLATE", "cmd:./deal {n}"),
        ("stream", "stream:COMMAND", "stream:./deal --stream"),
        ("py", "py:MODULE:FUNCTION", "py:mydealer:deal"),
    ],
)
def test_each_kind_s_class_declares_its_kind_and_form(kind: str, form: str, example: str) -> None:
    cls = dealer_class(kind)
    assert (cls.kind, cls.form) == (kind, form)
    assert cls.takes_argument() == (":" in form)
    assert parse_impl(example).kind == kind and str(parse_impl(example)) == example


def test_the_table_lists_every_kind_once_and_the_forms_come_from_the_classes() -> None:
    assert [dealer_class(kind).kind for kind in DEALERS] == list(DEALERS)
    assert impl_forms() == (
        "reference", "fixtures", "pysol-cards", "node:PATH", "cmd:TEMPLATE", "stream:COMMAND", "py:MODULE:FUNCTION"
    )  # fmt: skip


# Modules that once each knew kinds by name (an if-chain, a dict of versions, `"fixtures" in (...)`).
@pytest.mark.parametrize(
    "module",
    ["harness/adapters/registry.py", "harness/resume.py", "harness/request.py", "harness/engine.py",
     "harness/compare.py", "harness/reports/report.py", "harness/cli.py", "harness/conformance.py"],
)  # fmt: skip
def test_no_module_outside_the_kinds_own_compares_with_a_kind_s_name(module: str) -> None:
    kinds = set(DEALERS)
    tree = ast.parse((ROOT / module).read_text())
    named = [
        (node.lineno, const.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare | ast.Dict)
        for const in ast.walk(node)
        if isinstance(const, ast.Constant) and const.value in kinds
    ]
    if module.endswith("registry.py"):  # its table says where each class is: that is its job
        table = next(n for n in tree.body if isinstance(n, ast.AnnAssign) and ast.unparse(n.target) == "DEALERS")
        named = [(line, kind) for line, kind in named if line != table.lineno]
        named = [(line, kind) for line, kind in named if not table.lineno <= line <= (table.end_lineno or 0)]
    assert named == []


class EchoDealer(Dealer):
    """A kind the harness has never heard of: the reference's boards, from a file it names."""

    kind, form = "echo", "echo:FILE"

    @classmethod
    def build_files(cls, argument: str) -> list[Path]:
        return [Path(argument)]

    def __init__(self, argument: str, options: DealerOptions) -> None:
        self.impl = f"echo:{argument}"
        self.dialect = options.dialect

    def lines(self, deals: Sequence[int]) -> list[Answer]:
        return [reference.deal(n, self.dialect).line.encode() for n in deals]


def test_a_new_kind_is_its_module_and_one_line_of_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.DEALERS, "echo", f"{__name__}:EchoDealer")
    build = tmp_path / "echo.bin"
    build.write_bytes(b"build 1")
    impl = f"echo:{build}"
    assert parse_impl(impl).kind == "echo" and "echo:FILE" in impl_forms()
    with open_dealer(impl) as dealer:
        assert dealer.lines([1])[0] == reference.deal(1).line.encode()
    outcome = engine.run(Request(impl, ranges=((1, 300),), jobs=1, block_size=100))
    assert outcome.conformant and outcome.checked == 300
    first = dealer_identity(impl)
    build.write_bytes(b"build 2")  # rebuilt: a resume log of the old build must not be continued
    assert list(first) == [str(build)] and dealer_identity(impl) != first


def _pysol_version() -> str:
    return importlib.metadata.version("pysol-cards")


@pytest.mark.parametrize(
    ("impl", "identity"),
    [
        ("reference", lambda: {"reference": f"freecell-harness {harness_version()}"}),
        ("pysol-cards", lambda: {"pysol-cards": _pysol_version()}),
        ("fixtures", lambda: ["MANIFEST.json"]),
        ("node:{dealers}/planted.py", lambda: ["planted.py"]),
        ("py:planted:deal", lambda: ["planted.py"]),
        (f"cmd:{sys.executable} {{dealers}}/planted.py {{{{n}}}}", lambda: [Path(sys.executable).name, "planted.py"]),
        (f"stream:{sys.executable} {{dealers}}/planted.py", lambda: [Path(sys.executable).name, "planted.py"]),
    ],
)
def test_a_resume_log_records_what_each_kind_s_build_is_made_of(
    impl: str, identity: object, test_dealers: Path
) -> None:
    found = dealer_identity(impl.format(dealers=test_dealers))
    wanted = identity()  # type: ignore[operator]
    if isinstance(wanted, dict):
        assert found == wanted
    else:  # the files' names, each with its SHA-256
        assert [Path(f).name for f in found] == wanted and all(len(h) == 64 for h in found.values())
