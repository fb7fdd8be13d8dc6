"""The pytest plugin, run as a user would run it, in a pytest of its own (pytester)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

DEALERS = Path(__file__).parent / "dealers"
CONFORMANCE_TEST = (Path(__file__).parent / "conformance" / "test_conformance.py").read_text()


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTHONPATH", str(DEALERS))  # the inner pytest runs in a subprocess
    pytester.makepyfile(test_conformance=CONFORMANCE_TEST)
    return pytester


def test_blocks_become_tests_and_a_divergence_fails_with_the_board_diff(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLANTED_DEAL", "1234")
    result = suite.runpytest_subprocess(
        "-p", "no:cacheprovider", "--impl", "py:planted:deal", "--deal-range", "1-3000", "--deal-block-size", "1000"
    )
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        ["*1001-2000*", "*first mismatch at deal 1234*cards 11 and 12 differ*", "*expected*│ actual*"]
    )


def test_shards_and_several_impls_multiply_the_tests(suite: pytest.Pytester) -> None:
    result = suite.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--impl",
        "reference",
        "--impl",
        "pysol-cards",
        "--deal-range",
        "1-5000",
        "--deal-block-size",
        "1000",
        "--shard",
        "2/2",
        "--collect-only",
        "-q",
    )
    ids = [line for line in result.stdout.lines if "::" in line]
    assert len(ids) == 2 * 2  # blocks 2 and 4 of 5, for each of 2 impls
    assert all("1001-2000" in i or "3001-4000" in i for i in ids)


def test_a_bad_range_is_a_usage_error(suite: pytest.Pytester) -> None:
    result = suite.runpytest_subprocess("--impl", "reference", "--deal-range", "0-5")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*outside the classic domain*"])


def test_a_dealer_s_control_characters_reach_the_terminal_escaped(suite: pytest.Pytester) -> None:
    """pytest escapes a failure message itself; this keeps it so."""
    result = suite.runpytest_subprocess(
        "-p", "no:cacheprovider", "--impl", "py:control_characters:raises", "--deal-range", "1-10"
    )
    result.assert_outcomes(failed=1)
    out = "\n".join(result.stdout.lines)
    assert "\\x1b]0;owned\\x07" in out and "\x1b]" not in out and "\x07" not in out
