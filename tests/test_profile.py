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
        ("py:mistaken:clamped", "classic 1 … 32000, then deal 32000's board for every deal from 32001 on", [], 1),
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
    assert out[1] == (
        "  classic: conforms on the 148 deals checked (8 on each side of every boundary and 60 drawn from each "
        "part), not every deal of its domain"
    )
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
        # Rosetta Code's C dealer: deal 11982 (its default) where the number does not fit its parsing.
        ("py:bounded:fallback", "fcpro", 2**31, "classic; deal 11982's board for every deal from 2147483648 on"),
        (
            "py:bounded:fcpro_but_classic_below_2_32",
            "fcpro",
            2**31,
            "classic; wraps above 2³¹−1, up to 2³²−1 only (2³² … 2³³−1 conforms on the deals checked)",
        ),
    ],
)
def test_profile_names_the_exact_boundary_where_a_dealer_stops_conforming(
    impl: str, dialect: str, deal: int, summary: str, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["profile", impl, "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["dialects"][dialect]["first_failure"]["deal"] == deal, report
    assert report["summary"].startswith(summary), report["summary"]


# A dealer whose cards or suits are bare numbers: refused in one line naming the option without it
# (never fitted to the expected board), profiled as stated with it.
NUMBERED = "py:shapes.numeric_cards"
SUIT_MAJOR = ("--cards", "suit-major")
ENCODINGS = {
    "cards as numbers, stated": (f"{NUMBERED}:card_numbers", (*SUIT_MAJOR, "--suits", "SHDC"), 0),
    "suits as numbers, stated": (f"{NUMBERED}:numbered_suits", ("--suits", "shdc"), 0),
    "stated wrongly: a mismatch, not a fit": (f"{NUMBERED}:card_numbers", (*SUIT_MAJOR, "--suits", "CDHS"), 1),
}


@pytest.mark.parametrize(("impl", "options", "status"), ENCODINGS.values(), ids=ENCODINGS.keys())
def test_profile_reads_bare_numbers_as_the_options_state(
    impl: str, options: tuple[str, ...], status: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["profile", impl, *options, "--json"]) == status
    report = json.loads(capsys.readouterr().out)
    if status == 0:
        assert (report["summary"], report["matches"]) == ("classic; wraps above 2³¹−1", ["classic"])
    else:
        assert report["matches"] == [] and report["dialects"]["classic"]["first_failure"]["deal"] == 1
        assert report["dialects"]["classic"]["first_failure"]["kind"] == "mismatch"


REFUSED = {
    "cards as numbers": (f"{NUMBERED}:card_numbers", (), "with --cards {rank-major,suit-major} and --suits CDHS"),
    "cards as numbers, no --suits": (f"{NUMBERED}:card_numbers", ("--cards", "suit-major"), "with --suits CDHS"),
    "suits as numbers": (f"{NUMBERED}:numbered_suits", (), "with --suits"),
    "a bad --suits": (f"{NUMBERED}:numbered_suits", ("--suits", "SHDX"), "--suits 'SHDX': expected the four letters"),
    "a bad --cards": (f"{NUMBERED}:card_numbers", ("--cards", "column-major"), "--cards: invalid choice"),
}


@pytest.mark.parametrize(("impl", "options", "says"), REFUSED.values(), ids=REFUSED.keys())
def test_profile_refuses_bare_numbers_it_is_not_told_how_to_read_in_one_line(
    impl: str, options: tuple[str, ...], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["profile", impl, *options]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and says in captured.err, captured.err


NODE_NUMBERS = Path(__file__).parent / "js" / "shapes" / "numbers.js"


@pytest.mark.parametrize(
    ("function", "options", "status", "says"),
    [
        ("cardNumbers", ("--cards", "rank-major", "--suits", "SHDC"), 0, "classic; wraps above 2³¹−1"),
        ("enumSuits", ("--suits", "SHDC"), 0, "classic; wraps above 2³¹−1"),
        ("cardNumbers", (), 2, "with --cards and --suits"),
        ("enumSuits", (), 2, "with --suits"),
    ],
)
def test_profile_of_a_node_dealer_takes_the_options_too(
    node: str, function: str, options: tuple[str, ...], status: int, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["profile", f"node:{NODE_NUMBERS}#{function}", *options]) == status
    captured = capsys.readouterr()
    assert says in (captured.out.splitlines()[0] if status == 0 else captured.err), captured


def test_a_dealer_wrong_between_the_deals_checked_is_said_to_conform_only_on_those(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["profile", "py:bounded:wrong_at_77777"]) == 0
    out = capsys.readouterr().out.splitlines()
    for dialect in ("classic", "fcpro"):
        line = next(ln for ln in out if ln.startswith(f"  {dialect}: "))
        assert line.startswith(f"  {dialect}: conforms on the "), line
        assert "deals checked (8 on each side of every boundary and 60 drawn from each part)" in line
        assert line.endswith("not every deal of its domain")
    assert main(["verify", "py:bounded:wrong_at_77777", "--range", "77770-77780", "-q"]) == 1  # as it is
