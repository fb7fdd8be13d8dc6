"""Every cause of SPEC.md's diagnosis table, planted in a dealer of our own (tests/dealers/mistaken.py
and its JavaScript twin tests/js/mistaken.js) and diagnosed right through py:, cmd:, stream: and node:;
the diagnosis in the verdict line, the JSON report, JUnit, the plugin's failure and the resume log."""

from __future__ import annotations

import itertools
import json
import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from harness.cli import main
from harness.compare import BlockResult
from harness.diagnosis import NONDETERMINISTIC, diagnose
from harness.diagnosis.catalogue import board_of
from harness.engine import Request, run
from harness.failures import CAUSES, Diagnosis, Failure, SameAs
from harness.resume import ResumeLog

TESTS = Path(__file__).parent
PROGRAM = TESTS / "dealers" / "mistaken.py"
SCRIPT = TESTS / "js" / "mistaken.js"
A = 2**31

# mistake planted, dialect, deals checked, first failing deal, cause, same_as (dialect, deal, transform)
SCENARIOS = [
    ("wraps", "fcpro", (A - 1, A + 1), A, "wraps", ("fcpro", 0, None)),
    ("wraps-16", "classic", (65535, 65537), 65536, "wraps", ("classic", 0, None)),
    ("truncated-16-bit", "classic", (32766, 32770), 32768, "truncated-16-bit", ("classic", -32768, None)),
    ("clamped", "classic", (31999, 32003), 32001, "clamped", ("classic", 32000, None)),
    ("off-by-one", "classic", (1, 3), 1, "off-by-one", ("classic", 2, None)),
    ("other-dialect", "xp", (-2, -1), -2, "other-dialect", ("classic", -2, "classic shuffle of a fixed layout")),
    ("fcpro-high-rule", "classic", (1, 3), 1, "other-dialect", ("fcpro", 1, "fcpro rule of 2^31 ... 2^32-1")),
    ("suit-order", "classic", (1, 3), 1, "suit-order", ("classic", 1, "suits SHDC")),
    ("suit-major", "classic", (1, 3), 1, "suit-order", ("classic", 1, "suit-major")),
    ("suit-order-reversed", "classic", (1, 3), 1, "suit-order", ("classic", 1, "suits SHDC, reversed")),
    ("transposed", "classic", (1, 3), 1, "transposed", ("classic", 1, "rows as columns")),
    ("reversed", "classic", (1, 3), 1, "reversed", ("classic", 1, "reversed")),
    ("state-32-bits", "classic", (1, 3), 1, "generator", ("classic", 1, "state kept to 32 bits")),
    ("unshifted", "classic", (1, 3), 1, "generator", ("classic", 1, "r not shifted")),
    ("glibc-rand", "classic", (5, 7), 5, "generator", ("classic", 5, "glibc rand")),
    ("skips-first", "classic", (1, 3), 1, "generator", ("classic", 1, "first random number skipped")),
    ("modulus", "classic", (1, 3), 1, "modulus", ("classic", 1, "r mod (left - 1)")),
    ("other-deal", "classic", (1, 3), 1, "other-deal", ("classic", 1001, None)),
    ("swapped-cards", "classic", (1, 3), 1, "unknown", None),
    ("non-deterministic", "classic", (31999, 32003), 32001, "other-deal", None),
]
# The Python twin covers these causes.
NOT_IN_JS = {"wraps-16", "fcpro-high-rule", "glibc-rand", "skips-first", "suit-major", "suit-order-reversed"}
KINDS = ["py", "cmd", "stream", "node"]


def test_every_cause_of_the_table_is_planted() -> None:
    assert {s[4] for s in SCENARIOS} == set(CAUSES)
    assert {s[4] for s in SCENARIOS if s[0] not in NOT_IN_JS} == set(CAUSES)


def impl(kind: str, mistake: str, directory: Path) -> str:
    if kind == "node":
        script = directory / f"{mistake}.js"
        name = mistake.replace("-", "_")
        script.write_text(SCRIPT.read_text() + f"function dealFreeCell(n) {{ return dealWith(n, '{name}'); }}\n")
        return f"node:{script}"
    program = f"{shlex.quote(sys.executable)} {shlex.quote(str(PROGRAM))} {mistake}"
    return {
        "py": f"py:mistaken:{mistake.replace('-', '_')}",
        "cmd": f"cmd:{program} {{n}}",
        "stream": f"stream:{program}",
    }[kind]


CASES = [
    pytest.param(kind, *s, id=f"{kind}-{s[0]}")
    for kind in KINDS
    for s in SCENARIOS
    if not (kind == "node" and s[0] in NOT_IN_JS)
    and (kind == "py" or s[0] not in ("wraps-16", "unshifted", "skips-first"))
]


@pytest.mark.usefixtures("test_dealers")
@pytest.mark.parametrize(("kind", "mistake", "dialect", "deals", "first", "cause", "same_as"), CASES)
def test_a_planted_mistake_is_diagnosed_through_every_adapter(
    kind: str,
    mistake: str,
    dialect: str,
    deals: tuple[int, int],
    first: int,
    cause: str,
    same_as: tuple[str, int, str | None] | None,
    request: pytest.FixtureRequest,
    tmp_path: Path,
) -> None:
    if kind == "node":
        request.getfixturevalue("node")
    outcome = run(Request(impl=impl(kind, mistake, tmp_path), dialect=dialect, ranges=(deals,), jobs=1, timeout=20))
    f = outcome.first_failure
    assert f is not None and (f.deal, f.kind) == (first, "mismatch")
    assert f.diagnosis is not None
    assert f.diagnosis.cause == cause, f.diagnosis.message
    if mistake == "non-deterministic":
        assert f.diagnosis.message.startswith(f"{NONDETERMINISTIC}: asked again for deal 32001")
    else:
        assert f.diagnosis.same_as == (SameAs(*same_as) if same_as else None)
    if cause == "unknown":
        assert "cards 11 and 12 differ" in f.diagnosis.message


def line(n: int, dialect: str = "classic") -> str:
    from reference import deal

    return deal(n, dialect).line.rstrip("\n")


@pytest.mark.parametrize("order", ["".join(p) for p in itertools.permutations("CDHS") if "".join(p) != "CDHS"])
def test_every_other_suit_order_is_named(order: str) -> None:
    relabelled = " ".join(name[0] + order["CDHS".index(name[1])] for name in line(617).split())
    d = diagnose(Failure(617, "mismatch", "x", line(617), relabelled), "classic")
    assert d is not None and (d.cause, d.same_as) == ("suit-order", SameAs("classic", 617, f"suits {order}"))


def test_a_number_kept_to_32_bits_wraps_modulo_2_32() -> None:
    n = 2**32 + 2**31 + 5  # kept to 32 bits: 2³¹ + 5, a deal of fcpro's middle rule
    d = diagnose(Failure(n, "mismatch", "x", line(n, "fcpro"), line(2**31 + 5, "fcpro")), "fcpro")
    assert d is not None and (d.cause, d.same_as) == ("wraps", SameAs("fcpro", 2**31 + 5))
    assert "modulo 2³²" in d.message


def _columns_exposed_first(cards: list[str]) -> list[str]:
    """The board as a game that keeps each column's exposed card first reads it, in dealing order."""
    columns = [cards[c::8][::-1] for c in range(8)]
    return [columns[p % 8][p // 8] for p in range(52)]


def _rows_right_to_left(cards: list[str]) -> list[str]:
    return [card for r in range(0, 52, 8) for card in cards[r : r + 8][::-1]]


# How node: dealers written as games keep a board get it wrong (tests/js-style dealers of an audit):
# each the board of deal n as the dealer laid it out, the mistake's key and words of its message.
LAYOUT_MISTAKES = {
    "columns-exposed-card-first": (_columns_exposed_first, "each column reversed", "its exposed card first"),
    "rows-right-to-left": (_rows_right_to_left, "each row reversed", "right to left"),
}


@pytest.mark.parametrize("case", sorted(LAYOUT_MISTAKES))
def test_a_board_laid_out_the_other_way_round_is_named(case: str) -> None:
    lay_out, key, words = LAYOUT_MISTAKES[case]
    actual = " ".join(lay_out(line(617).split()))
    d = diagnose(Failure(617, "mismatch", "x", line(617), actual), "classic")
    assert d is not None and (d.cause, d.same_as) == ("reversed", SameAs("classic", 617, key)), d
    assert words in d.message


# Two or three rearranging mistakes at once: (how the dealer builds its deck and lays out the board, the
# key of same_as.transform, words of the message).
def _deck(major: bool, suits: str) -> list[str]:
    return [r + s for s in suits for r in "A23456789TJQK"] if major else [r + s for r in "A23456789TJQK" for s in suits]


def _dealt(n: int, deck: list[str]) -> list[str]:
    """Deal n by the classic rule from a deck built some way (as a dealer written with that mistake does)."""
    deck, dealt, state = list(deck), [], n
    for left in range(52, 0, -1):
        state = (214013 * state + 2531011) & 0x7FFFFFFF
        k = (state >> 16) % left
        dealt.append(deck[k])
        deck[k] = deck[left - 1]
        deck.pop()
    return dealt


@pytest.mark.parametrize(
    ("major", "suits", "lay_out", "key", "words"),
    [
        (True, "CDHS", list, "suit-major", ["suit by suit"]),
        (True, "SHDC", list, "suit-major, suits SHDC", ["suit by suit", "suit order SHDC"]),
        (False, "SHDC", lambda c: c[::-1], "suits SHDC, reversed", ["suit order SHDC", "reverse dealing order"]),
        (True, "CDHS", _rows_right_to_left, "suit-major, each row reversed", ["suit by suit", "right to left"]),
        (False, "HSCD", _columns_exposed_first, "suits HSCD, each column reversed", ["HSCD", "exposed card"]),
    ],
)
def test_a_deck_built_suit_by_suit_and_mistakes_made_together_are_named(
    major: bool, suits: str, lay_out: Callable[[list[str]], list[str]], key: str, words: list[str]
) -> None:
    actual = " ".join(lay_out(_dealt(617, _deck(major, suits))))
    d = diagnose(Failure(617, "mismatch", "x", line(617), actual), "classic")
    assert d is not None and (d.cause, d.same_as) == ("suit-order", SameAs("classic", 617, key)), d
    assert all(w in d.message for w in words), d.message


def test_a_number_kept_to_15_bits_wraps_modulo_2_15() -> None:
    """A port of the original 32,000 games keeps the number to 15 bits: deal 32768 is seed 0's board."""
    seed_0 = " ".join("A23456789TJQK"[c // 4] + "CDHS"[c % 4] for c in board_of(0, "classic"))
    d = diagnose(Failure(32768, "mismatch", "x", line(32768), seed_0), "classic")
    assert d is not None and (d.cause, d.same_as) == ("wraps", SameAs("classic", 0)), d
    assert "modulo 2¹⁵" in d.message


@pytest.mark.parametrize(
    ("failure", "diagnosed"),
    [
        (Failure(5, "crash", "exit 1"), False),
        (Failure(5, "invalid-output", "found 51 cards", line(5), None), False),
        (Failure(5, "mismatch", "cards 1 and 2 differ", line(5), line(6)), True),
    ],
)
def test_only_a_mismatch_is_diagnosed(failure: Failure, diagnosed: bool) -> None:
    assert (diagnose(failure, "classic") is not None) == diagnosed


@pytest.mark.parametrize(
    ("dialect", "deal", "actual_deal", "asked_again", "cause"),
    [
        ("classic", 32001, 32000, "same board", "clamped"),  # asked again above: the same board, a clamp
        ("classic", 32001, 32000, None, "clamped"),  # 32000 is a usual limit, and nobody to ask
        ("classic", 32001, 32000, "n - 1", "off-by-one"),  # asked again above: the board moves on, no clamp
        ("classic", 40001, 40000, None, "off-by-one"),  # not a usual limit, and nobody to ask
        ("fcpro", A + 32000, 32000, None, "wraps"),  # a usual limit, but the wrap explains it exactly
        ("fcpro", A + 32000, 32000, "same board", "clamped"),  # asked again above: the same board
    ],
)
def test_a_clamp_is_told_from_off_by_one_by_asking_again(
    dialect: str, deal: int, actual_deal: int, asked_again: str | None, cause: str
) -> None:
    from reference import deal as reference_deal

    def redeal(n: int) -> tuple[int, ...]:
        return reference_deal(actual_deal if asked_again == "same board" else n - 1, dialect).cards

    failure = Failure(deal, "mismatch", "x", line(deal, dialect), line(actual_deal, dialect))
    d = diagnose(failure, dialect, redeal if asked_again else None)
    assert d is not None and d.cause == cause


@pytest.mark.usefixtures("test_dealers")
def test_the_verdict_report_and_junit_say_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report, junit = tmp_path / "r.json", tmp_path / "j.xml"
    argv = ["verify", "py:mistaken:wraps", "--dialect", "fcpro", "--range", f"{A + 1}-{A + 3}", "--jobs", "1"]
    assert main([*argv, "--report", str(report), "--junit", str(junit)]) == 1
    why = "it is deal 1's board — the number wraps modulo 2³¹ (a classic dealer asked for fcpro)"
    assert f"first mismatch at deal {A + 1}: {why}" in capsys.readouterr().out
    diagnosis = json.loads(report.read_text())["first_failure"]["diagnosis"]
    assert diagnosis == {
        "cause": "wraps",
        "message": why,
        "same_as": {"dialect": "fcpro", "deal": 1, "transform": None},
    }
    failure = ET.parse(junit).getroot().find(".//failure")
    assert failure is not None and why in failure.get("message", "") and "diagnosis (wraps)" in (failure.text or "")


def test_a_diagnosis_round_trips_through_json_and_the_resume_log(tmp_path: Path) -> None:
    diagnosis = Diagnosis("clamped", "it is deal 32000's board", SameAs("classic", 32000))
    failure = Failure(32001, "mismatch", "cards 1 and 2 differ", line(32001), line(32000), diagnosis)
    assert Failure.from_json(json.loads(json.dumps(failure.to_json()))) == failure
    log = ResumeLog(tmp_path / "resume.log")
    log.load({"run": 1})
    log.append(BlockResult("30001-40000", 2001, failure))
    log.close()
    assert ResumeLog(tmp_path / "resume.log").load({"run": 1})["30001-40000"].failure == failure


@pytest.mark.parametrize("bad", [{"cause": "cosmic-rays", "message": "x"}, "wraps", {"message": "x"}])
def test_a_report_with_a_bad_diagnosis_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="not a diagnosis"):
        Diagnosis.from_json(bad)


pytest_plugins = ["pytester"]


def test_the_plugin_failure_says_why(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join((str(TESTS.parent), str(TESTS / "dealers"))))  # this checkout
    pytester.makepyfile(test_conformance=(TESTS / "conformance" / "test_conformance.py").read_text())
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--fc-impl", "py:mistaken:off_by_one", "--fc-range", "1-10"
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*diagnosis (off-by-one): it is deal 2's board — the number is off by one (n + 1)*"])
