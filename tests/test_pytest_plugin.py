"""The pytest plugin, run as a user would run it, in a pytest of its own (pytester)."""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
DEALERS = Path(__file__).parent / "dealers"
CONFORMANCE_TEST = (Path(__file__).parent / "conformance" / "test_conformance.py").read_text()


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    # The inner pytest runs in a subprocess, with this checkout's harness and the test dealers.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join((str(ROOT), str(DEALERS))))
    pytester.makepyfile(test_conformance=CONFORMANCE_TEST)
    return pytester


def test_blocks_become_tests_and_a_divergence_fails_with_the_board_diff(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLANTED_DEAL", "1234")
    result = suite.runpytest_subprocess(
        "-p", "no:cacheprovider", "--fc-impl", "py:planted:deal", "--fc-range", "1-3000", "--fc-block-size", "1000"
    )
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        ["*1001-2000*", "*first mismatch at deal 1234*cards 11 and 12 differ*", "*expected*│ actual*"]
    )


def test_shards_and_several_impls_multiply_the_tests(suite: pytest.Pytester) -> None:
    result = suite.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--fc-impl",
        "reference",
        "--fc-impl",
        "pysol-cards",
        "--fc-range",
        "1-5000",
        "--fc-block-size",
        "1000",
        "--fc-shard",
        "2/2",
        "--collect-only",
        "-q",
    )
    ids = [line for line in result.stdout.lines if "::" in line]
    assert len(ids) == 2 * 2  # blocks 2 and 4 of 5, for each of 2 impls
    assert all("1001-2000" in i or "3001-4000" in i for i in ids)


def test_a_bad_range_is_a_usage_error(suite: pytest.Pytester) -> None:
    result = suite.runpytest_subprocess("--fc-impl", "reference", "--fc-range", "0-5")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*outside the classic domain*"])


def test_options_are_namespaced_so_a_projects_own_dialect_option_does_not_collide(suite: pytest.Pytester) -> None:
    """An unrelated conftest with its own `--dialect` (and `--impl`, `--shard`) crashed the session."""
    suite.makeconftest(
        """
        def pytest_addoption(parser):
            parser.addoption("--dialect", default="en")
            parser.addoption("--impl", default="mine")
            parser.addoption("--shard", default="none")
        """
    )
    result = suite.runpytest_subprocess(
        "-p", "no:cacheprovider", "--dialect", "de", "--fc-impl", "reference", "--fc-range", "1-200",
        "--fc-block-size", "100",
    )  # fmt: skip
    result.assert_outcomes(passed=2)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--fc-block-size", "0"], "--fc-block-size 0: must be 1"),
        (["--fc-block-size", "-5"], "--fc-block-size -5: must be 1"),
        (["--fc-block-size", "ten"], "--fc-block-size 'ten' is not a whole number"),
        (["--fc-timeout", "-1"], "--fc-timeout -1.0: must be"),
        (["--fc-timeout", "inf"], "--fc-timeout inf: must be"),
        (["--fc-dialect", "msvc"], "--fc-dialect 'msvc'"),
        (["--fc-shard", "3/2"], "--fc-shard '3/2'"),
        (["--fc-range", "0-5"], "outside the classic domain"),
        (["--fc-suits", "SHDX"], "--fc-suits 'SHDX': expected the four letters CDHS"),
        (["--fc-cards", "column-major"], "--fc-cards 'column-major': choose one of rank-major, suit-major"),
        (["--fc-impl", "py:no_such_module_here:f"], "cannot import no_such_module_here"),
        (["--fc-impl", "node:/no/such/dealer.js"], "no such file"),
    ],
)
def test_bad_values_and_unopenable_dealers_are_one_usage_error_up_front(
    suite: pytest.Pytester, args: list[str], says: str
) -> None:
    impl = [] if "--fc-impl" in args else ["--fc-impl", "reference"]
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", *impl, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.stdout.str() + result.stderr.str()
    errors = [line for line in result.stderr.lines if "freecell-harness:" in line]
    assert len(errors) == 1 and says in errors[0], result.stderr.lines
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


def test_a_dealer_that_fails_to_open_mid_session_stops_the_session_once(suite: pytest.Pytester) -> None:
    """A dealer that passes the cheap check but cannot be opened is one error, not one failure per block."""
    suite.makepyfile(broken_dealer="raise ImportError('this dealer is broken')\ndef deal(n): pass\n")
    suite.makeconftest(
        """
        import harness.conformance as conformance
        conformance.check_impl = lambda impl, options: None  # as if the cheap check could not tell
        """
    )
    result = suite.runpytest_subprocess(
        "-p", "no:cacheprovider", "--fc-impl", "py:broken_dealer:deal", "--fc-range", "1-5000", "--fc-block-size", "100"
    )  # fmt: skip
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    text = result.stdout.str() + result.stderr.str()
    assert text.count("this dealer is broken") == 1, text
    assert " failed" not in text


def test_a_dealer_s_control_characters_reach_the_terminal_escaped(suite: pytest.Pytester) -> None:
    """pytest escapes a failure message itself; this keeps it so."""
    result = suite.runpytest_subprocess(
        "-p", "no:cacheprovider", "--fc-impl", "py:control_characters:raises", "--fc-range", "1-10"
    )
    result.assert_outcomes(failed=1)
    out = "\n".join(result.stdout.lines)
    assert "\\x1b]0;owned\\x07" in out and "\x1b]" not in out and "\x07" not in out


def test_a_run_that_does_not_use_the_plugin_needs_nothing_of_it(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loaded into every pytest run of the environment, the plugin once failed them all when the seed
    document (its default --fc-impl) was missing."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("FREECELL_SEED", str(pytester.path / "no-such-document.txt"))
    pytester.makepyfile("def test_unrelated():\n    assert True\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


# A user's own dealer, in the user's project: Microsoft's shuffle, but the deck built suit by suit
# (AC 2C … KC AD …) — wrong from deal 1 on, so a run that checks it fails at once.
USER_DEALER = """
RANKS, SUITS = "A23456789TJQK", "CDHS"

def deal(n):
    deck = [rank + suit for suit in SUITS for rank in RANKS]
    state, dealt = n, []
    for left in range(52, 0, -1):
        state = (214013 * state + 2531011) % 2**31
        k = (state >> 16) % left
        deck[k], deck[left - 1] = deck[left - 1], deck[k]
        dealt.append(deck.pop())
    return [dealt[row : row + 8] for row in range(0, 52, 8)]
"""

# Where a user's project names its dealer: (file, its text); each names py:user_dealer:deal.
INI_FILES = {
    "pyproject.toml": ("pyproject.toml", '[tool.pytest.ini_options]\nfc_impl = ["py:user_dealer:deal"]\n'),
    "pytest.ini": ("pytest.ini", "[pytest]\nfc_impl =\n    py:user_dealer:deal\n"),
    "tox.ini": ("tox.ini", "[pytest]\nfc_impl = py:user_dealer:deal\n"),
}


@pytest.mark.parametrize(("name", "text"), INI_FILES.values(), ids=INI_FILES.keys())
def test_the_ini_option_fc_impl_names_the_users_dealer(suite: pytest.Pytester, name: str, text: str) -> None:
    """Without --fc-impl, the plugin checked the harness's own fixtures and original solution: "16 passed"."""
    suite.makepyfile(user_dealer=USER_DEALER)
    suite.path.joinpath(name).write_text(text)
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "--fc-range", "1-200", "--fc-block-size", "100")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*py:user_dealer:deal against reference*first mismatch at deal 1*"])


def test_fc_impl_on_the_command_line_wins_over_the_ini_option(suite: pytest.Pytester) -> None:
    suite.makepyfile(user_dealer=USER_DEALER)
    suite.makeini("[pytest]\nfc_impl = py:user_dealer:deal\n")
    result = suite.runpytest_subprocess(
        "-p", "no:cacheprovider", "--fc-impl", "reference", "--fc-range", "1-200", "--fc-block-size", "100"
    )
    result.assert_outcomes(passed=2)
    assert "user_dealer" not in result.stdout.str()


def test_no_dealer_named_is_one_usage_error_naming_both_ways_never_the_harness_s_own_data(
    suite: pytest.Pytester,
) -> None:
    """The same run once reported "16 passed": the harness's fixtures and original solution checked."""
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "--fc-range", "1-200", "--fc-block-size", "100")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    text = result.stdout.str() + result.stderr.str()
    errors = [line for line in text.splitlines() if "freecell-harness:" in line]
    assert len(errors) == 1, text
    assert "--fc-impl" in errors[0] and "fc_impl" in errors[0].replace("--fc-impl", ""), errors
    assert "passed" not in text and "Traceback" not in text and "INTERNALERROR" not in text


# A dealer of bare-number cards or suits: read as --fc-cards and --fc-suits state (the options of
# verify), else the whole session is one usage error naming the options by the plugin's spelling.
NUMBERED = "py:shapes.numeric_cards"
NODE_NUMBERS = Path(__file__).parent / "js" / "shapes" / "numbers.js"
ENCODINGS = {
    "cards stated": (f"{NUMBERED}:card_numbers", ("--fc-cards", "suit-major", "--fc-suits", "SHDC"), ""),
    "suits stated": (f"{NUMBERED}:numbered_suits", ("--fc-suits", "SHDC"), ""),
    "cards unstated": (f"{NUMBERED}:card_numbers", (), "with --fc-cards {rank-major,suit-major} and --fc-suits CDHS"),
    "no --fc-suits": (f"{NUMBERED}:card_numbers", ("--fc-cards", "suit-major"), "with --fc-suits CDHS"),
    "suits unstated": (f"{NUMBERED}:numbered_suits", (), "with --fc-suits, e.g. --fc-suits CDHS"),
    "node: cards stated": (f"node:{NODE_NUMBERS}#cardNumbers", ("--fc-cards", "rank-major", "--fc-suits", "SHDC"), ""),
    "node: cards unstated": (f"node:{NODE_NUMBERS}#cardNumbers", (), "with --fc-cards and --fc-suits"),
    "node: suits unstated": (f"node:{NODE_NUMBERS}#enumSuits", (), "with --fc-suits (the letters"),
}


@pytest.mark.parametrize(("impl", "options", "says"), ENCODINGS.values(), ids=ENCODINGS.keys())
def test_bare_numbers_are_read_as_fc_cards_and_fc_suits_state_else_one_usage_error_naming_them(
    suite: pytest.Pytester, request: pytest.FixtureRequest, impl: str, options: tuple[str, ...], says: str
) -> None:
    if impl.startswith("node:"):
        request.getfixturevalue("node")
    result = suite.runpytest_subprocess(
        "-p", "no:cacheprovider", "--fc-impl", impl, *options, "--fc-range", "1-200", "--fc-block-size", "100"
    )  # fmt: skip
    text = result.stdout.str() + result.stderr.str()
    if not says:
        result.assert_outcomes(passed=2)
        return
    assert result.ret == pytest.ExitCode.USAGE_ERROR, text
    errors = [line for line in text.splitlines() if "freecell-harness:" in line]
    assert len(errors) == 1 and says in errors[0], text
    assert re.search(r"(?<![\w-])--(cards|suits)\b", text) is None, "the command line's spelling, not the plugin's"
    assert " failed" not in text and "Traceback" not in text and "INTERNALERROR" not in text, text


STOPPING = {
    "suits unstated": (f"{NUMBERED}:numbered_suits", "with --fc-suits, e.g. --fc-suits CDHS"),
    "a dealer that fails to open": ("py:broken_dealer:deal", "this dealer is broken"),
}


@pytest.mark.parametrize(("impl", "says"), STOPPING.values(), ids=STOPPING.keys())
def test_under_xdist_what_stops_the_session_stops_it_saying_why_not_as_an_internal_error(
    suite: pytest.Pytester, impl: str, says: str
) -> None:
    """pytest.exit in an xdist worker is an INTERNALERROR (pytest-xdist issue 1239): the worker fails its
    test instead and stops, and so does the run, after at most one test per worker."""
    suite.makepyfile(broken_dealer="raise ImportError('this dealer is broken')\ndef deal(n): pass\n")
    suite.makeconftest(
        """
        import harness.conformance as conformance
        conformance.check_impl = lambda impl, options: None  # as if the cheap check could not tell
        """
    )
    result = suite.runpytest_subprocess(
        "-p", "no:cacheprovider", "-n", "2", "--fc-impl", impl, "--fc-range", "1-2000", "--fc-block-size", "100"
    )  # fmt: skip
    text = result.stdout.str() + result.stderr.str()
    assert "INTERNALERROR" not in text and result.ret not in (pytest.ExitCode.OK, pytest.ExitCode.INTERNAL_ERROR), text
    assert result.parseoutcomes().get("failed", 0) <= 2 and says in text, text
    assert re.search(r"(?<![\w-])--(cards|suits)\b", text) is None, "the command line's spelling, not the plugin's"


REFUSING = """
import sys
sys.path.insert(0, {dealers!r})
from planted_program import show
for line in sys.stdin:
    n = int(line)
    if n == 17:
        sys.stderr.write("cannot deal 17: not supported\\n")
        sys.exit(3)
    sys.stdout.write(show(n, 0))
    sys.stdout.flush()
"""


def test_a_dealer_that_exits_refusing_a_deal_fails_with_its_stderr_and_the_board_due(suite: pytest.Pytester) -> None:
    script = suite.makepyfile(refusing_stream=REFUSING.format(dealers=str(DEALERS)))
    impl = f"stream:{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "--fc-impl", impl, "--fc-range", "1-100")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*first crash at deal 17*status 3*stderr: cannot deal 17: not supported*", "*JH  8S  5D  6C  3S  JS  9S  QD*"]
    )
    result.stdout.no_fnmatch_line("*(no expected board)*")
