"""`profile IMPL`: what a dealer implements, said in one line, from every dialect and boundary."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.seeds import default_seed_document

PROGRAM = Path(__file__).parent / "dealers" / "mistaken.py"

pytestmark = pytest.mark.usefixtures("test_dealers")


@pytest.mark.parametrize(
    ("impl", "summary", "matches", "status"),
    [
        ("reference", "fcpro", ["classic", "fcpro", "xp"], 0),
        ("pysol-cards", "fcpro", ["classic", "fcpro"], 0),
        ("py:mistaken:wraps", "classic; wraps above 2³¹−1", ["classic"], 0),
        (
            "py:mistaken:non_deterministic",
            "classic 1 … 32000, then a different random deal each time",
            [],
            1,
        ),
        ("py:mistaken:clamped", "classic 1 … 32000, then deal 32000's board for every deal above it", [], 1),
        ("py:mistaken:xp_range", "xp without the −1/−2 layouts", [], 1),
        (
            "py:mistaken:off_by_one",
            "no dialect: from deal 1, it is deal 2's board — the number is off by one (n + 1)",
            [],
            1,
        ),
        (
            f"stream:{shlex.quote(sys.executable)} {shlex.quote(str(PROGRAM))} wraps",
            "classic; wraps above 2³¹−1",
            ["classic"],
            0,
        ),
    ],
)
def test_profile_names_what_a_dealer_implements(
    impl: str, summary: str, matches: list[str], status: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["profile", impl, "--json"]) == status
    report = json.loads(capsys.readouterr().out)
    assert (report["summary"], report["matches"]) == (summary, matches)
    assert set(report) == {"implementation", "matches", "dialects", "summary"}
    for name, result in report["dialects"].items():
        assert result["checked"] > 0
        assert result["conformant"] == (name in matches) == (result["first_failure"] is None)


def test_the_text_says_each_dialect_and_why_it_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "py:mistaken:wraps"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "py:mistaken:wraps: classic; wraps above 2³¹−1"
    assert "  classic: conforms" in out
    wraps = "it is the board of seed 0 — the number wraps modulo 2³¹"
    assert out[2].startswith(f"  fcpro: first mismatch at deal 2147483648: {wraps}")
    assert out[3].startswith("  xp: first mismatch at deal -2: it is deal -2 dealt as a classic shuffle")


def test_the_original_solution_is_classic_and_wraps(node: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", f"node:{default_seed_document()}", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"] == "classic; wraps above 2³¹−1"


def test_a_dealer_that_cannot_be_opened_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profile", "py:no_such_module_here:deal"]) == 2
    assert "cannot import" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("impl", "dialect", "deal", "summary"),
    [
        # Far from any boundary of a dialect: found by bisection between the samples around it.
        ("py:bounded:range_checked", "classic", 10_000_000, "classic 1 … 9999999, then refuses deal 10000000 "),
        ("py:bounded:clamped", "classic", 12_345_679, "classic 1 … 12345678, then "),
        ("py:mistaken:wraps", "fcpro", 2**31, "classic; wraps above 2³¹−1"),
    ],
)
def test_profile_names_the_exact_boundary_where_a_dealer_stops_conforming(
    impl: str, dialect: str, deal: int, summary: str, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["profile", impl, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["dialects"][dialect]["first_failure"]["deal"] == deal, report
    assert report["summary"].startswith(summary), report["summary"]
