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
