"""The pytest plugin, run as a user would run it, in a pytest of its own (pytester)."""

from __future__ import annotations

import os
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
        (["--fc-block-size", "0"], "--block-size 0: must be 1"),
        (["--fc-block-size", "-5"], "--block-size -5: must be 1"),
        (["--fc-block-size", "ten"], "--block-size 'ten' is not a whole number"),
        (["--fc-timeout", "-1"], "--timeout -1.0: must be"),
        (["--fc-timeout", "inf"], "--timeout inf: must be"),
        (["--fc-dialect", "msvc"], "--dialect 'msvc'"),
        (["--fc-shard", "3/2"], "--shard '3/2'"),
        (["--fc-range", "0-5"], "outside the classic domain"),
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


def test_a_default_that_cannot_be_served_is_one_usage_error_when_a_test_uses_the_plugin(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FREECELL_SEED", str(suite.path / "no-such-document.txt"))
    result = suite.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    text = result.stdout.str() + result.stderr.str()
    assert text.count("freecell-harness: the freeCodeCamp seed document") == 1, text
    assert "Traceback" not in text and "INTERNALERROR" not in text
