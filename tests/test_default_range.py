"""The default request (no --range, no --sample) catches the common bugs: Microsoft's 1 … 32000 and a
window around every boundary of the dialect (those `--sample` always checks), said in the verdict line;
the pytest plugin has the same default."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.request import Request

pytest_plugins = ["pytester"]

pytestmark = pytest.mark.usefixtures("test_dealers")
MISTAKEN = Path(__file__).parent / "dealers" / "mistaken.py"
CONFORMANCE_TEST = (Path(__file__).parent / "conformance" / "test_conformance.py").read_text()


@pytest.mark.parametrize(
    ("dialect", "ranges"),
    [
        ("classic", ((1, 33001), (999000, 1001001), (2147482647, 2147483647))),
        (
            "fcpro",
            (
                (1, 33001),
                (999000, 1001001),
                (2147482647, 2147484648),
                (4294966295, 4294968296),
                (8589933591, 8589934591),
            ),
        ),
        ("xp", ((-2, -1), (1, 33001), (999000, 1000000))),
    ],
)
def test_the_default_is_the_original_deals_and_a_window_around_every_boundary(
    dialect: str, ranges: tuple[tuple[int, int], ...]
) -> None:
    request = Request.from_text("reference", dialect=dialect, jobs="1")
    assert request.ranges == ranges


# A dealer wrong only from 32768 on (a Go `int16`, a C `short`) or from 65536 (an unsigned short)
# conformed on 1 … 32000, the whole default before.
@pytest.mark.parametrize(
    ("impl", "dialect", "verdict", "first_failure"),
    [
        ("py:mistaken:truncated_16_bit", "classic", 1, "first mismatch at deal 32768"),
        (f"stream:{sys.executable} {MISTAKEN} truncated-16-bit", "classic", 1, "first mismatch at deal 32768"),
        ("py:mistaken:wraps_16", "classic", 1, "first mismatch at deal 999000"),
        ("py:mistaken:wraps", "fcpro", 1, "first mismatch at deal 2147483648"),
        ("py:mistaken:wraps", "classic", 0, None),
    ],
)
def test_the_default_run_catches_a_dealer_wrong_past_the_original_deals(
    capsys: pytest.CaptureFixture[str], impl: str, dialect: str, verdict: int, first_failure: str | None
) -> None:
    assert main(["verify", impl, "--dialect", dialect, "--jobs", "1", "--quiet"]) == verdict
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith("DIVERGES" if verdict else "CONFORMS")
    assert first_failure is None or first_failure in line
    # the verdict line says what was covered
    assert " on 1 … 33001, 999000 … 100" in line and ("2147482647 … 2147483647" in line) == (dialect == "classic")


@pytest.mark.parametrize(
    ("argv", "covered"),
    [
        (["--range", "5-10"], "on 5 … 10: 6 deals checked"),
        (["--range", "5-10", "--range", "20-20"], "on 5 … 10, 20: 7 deals checked"),
        (["--sample", "40", "--seed", "3"], "on a sample of 40 deals (seed 3): 40 deals checked"),
    ],
)
def test_the_verdict_line_says_what_was_covered(
    capsys: pytest.CaptureFixture[str], argv: list[str], covered: str
) -> None:
    assert main(["verify", "reference", *argv, "--jobs", "1", "--quiet"]) == 0
    assert covered in capsys.readouterr().out.splitlines()[0]


def test_the_plugin_has_the_same_default(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    # the inner pytest runs in a subprocess: this checkout's harness first, wherever another is installed
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join((str(MISTAKEN.parent), str(MISTAKEN.parents[2]))))
    pytester.makepyfile(test_conformance=CONFORMANCE_TEST)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--fc-impl", "py:mistaken:truncated_16_bit", "--collect-only", "-q"
    )
    ids = [line.split("[")[1] for line in result.stdout.lines if "::" in line]
    assert ids[0] == "1-10000-py:mistaken:truncated_16_bit]" and ids[3].startswith("30001-33001-")
    assert ids[-1].startswith("2147482647-2147483647-")
