"""A dialect carries its boundaries: its rules, fixed layouts and landmarks say where dealers go wrong,
and the sample, the Hypothesis strategy, `profile`, the catalogue and `identify` derive theirs from
them.  So no module but `reference.dialects` writes down a number that only a dialect explains."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import reference
from harness.dealer_profile import BOUNDARIES, ORDER
from harness.diagnosis import identify
from harness.diagnosis.catalogue import CATALOGUE, CLAMP_LIMITS
from harness.intervals import sample_boundaries
from reference.dialects import DIALECTS, FCPRO_LAST, INTEGER_LIMITS, ORIGINAL_LAST, XP_LAST

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("dialect", "boundaries"),
    [
        ("classic", [1, 32000, 32001, 1_000_000, 1_000_001, 2**31 - 1]),
        ("fcpro", [1, 32000, 32001, 1_000_000, 1_000_001, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**33 - 1]),
        ("xp", [-2, 32000, 32001, 1_000_000]),
    ],
)
def test_each_dialect_s_boundaries_are_spec_s(dialect: str, boundaries: list[int]) -> None:
    assert DIALECTS[dialect].boundaries() == boundaries
    assert sample_boundaries(dialect) == boundaries


def test_profile_and_the_catalogue_take_every_seam_and_integer_limit() -> None:
    seams = {n for d in DIALECTS.values() for n in d.seams}
    assert seams == {ORIGINAL_LAST, XP_LAST, 2**31 - 1, 2**32 - 1, FCPRO_LAST}
    assert set(BOUNDARIES) == seams | set(INTEGER_LIMITS) | {n + 1 for n in INTEGER_LIMITS}
    assert set(CLAMP_LIMITS) == seams | set(INTEGER_LIMITS)
    assert ORDER == ("fcpro", "classic", "xp")


def test_each_rule_that_is_not_microsoft_s_is_a_known_mistake_elsewhere() -> None:
    other = {m.key: m.explanation for m in CATALOGUE if m.cause == "other-dialect" and m.same_dialect == "fcpro"}
    assert other == {
        "fcpro rule of 2^31 ... 2^32-1": "dealt by FreeCell Pro's rule for 2³¹ … 2³²−1 (rᵢ | 0x8000)",
        "fcpro rule of 2^32 ... 2^33-1": "dealt by FreeCell Pro's rule for 2³² … 2³³−1 (16-bit rᵢ + 1)",
    }


@pytest.mark.parametrize(
    ("dialect", "number"), [(name, n) for name, d in DIALECTS.items() for n in d.boundaries() + list(d.fixed_layouts)]
)
def test_identify_finds_every_boundary_deal_of_every_dialect(dialect: str, number: int) -> None:
    found = identify(reference.deal(number, dialect).cards)
    assert number in [m.deal for m in found]
    assert dialect in next(m.dialects for m in found if m.deal == number)


# Numbers only a dialect explains (integer widths, 2¹⁶, 2³¹ …, are the dealers' types: anyone may name them;
# XP's 1,000,000 is also the grid of the fixtures' digest tables).
_DIALECT_FACTS = {ORIGINAL_LAST, ORIGINAL_LAST + 1, FCPRO_LAST, FCPRO_LAST + 1}


def _numbers(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant | ast.BinOp | ast.UnaryOp):
            try:
                value = eval(compile(ast.Expression(node), "<constant>", "eval"), {"__builtins__": {}})
            except Exception:  # names, calls: not a literal number
                continue
            if isinstance(value, int) and not isinstance(value, bool):
                found.add(value)
    return found


@pytest.mark.parametrize(
    "module",
    ["harness/intervals.py", "harness/dealer_profile.py", "harness/strategies.py", "harness/diagnosis/catalogue.py",
     "harness/diagnosis/identification.py", "harness/diagnosis/diagnose.py"],
)  # fmt: skip
def test_no_module_but_the_dialects_writes_down_a_dialect_s_numbers(module: str) -> None:
    assert _numbers(ast.parse((ROOT / module).read_text())) & _DIALECT_FACTS == set()
