"""`freecell-harness verify` and `report merge` through the command line: exit codes and files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.cli import main

pytestmark = pytest.mark.usefixtures("test_dealers")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["verify", "reference", "--range", "0-10"], "outside the classic domain"),
        (["verify", "reference", "--range", "10-1"], "reversed"),
        (["verify", "reference", "--range", "1-x"], "not of the form A-B"),
        (["verify", "reference", "--range", "1-10", "--sample", "10"], "not both"),
        (["verify", "reference", "--seed", "3"], "--seed goes with --sample"),
        (["verify", "reference", "--shard", "3/2"], "--shard"),
        (["verify", "reference", "--jobs", "0"], "--jobs"),
        (["verify", "reference", "--timeout", "-1"], "timeout"),
        (["verify", "nonsense"], "unknown implementation"),
        (["verify", "py:no_such_module_here:f"], "cannot import"),
        (["verify", "py:planted:nothing"], "no callable nothing"),
        (["verify", "py:planted"], "py:MODULE:FUNCTION"),
        (["verify", "reference", "--encoding", "klingon"], "--encoding"),
        (["verify", "reference", "--dialect", "xp", "--range=-2-3"], "leaves the xp domain"),
        (["verify", "reference", "--dialect", "xp", "--range", "-2-3"], "leaves the xp domain"),
        (["deal", "--range", ""], "not of the form A-B"),
        (["deal"], "give deal numbers or --range"),
        (["report", "merge", "no-such-report.json"], "cannot read"),
    ],
)
def test_requests_that_cannot_be_served_exit_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_divergence_exits_1_and_the_report_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PLANTED_DEAL", "32001")
    report = tmp_path / "out" / "r.json"
    junit = tmp_path / "out" / "j.xml"
    argv = [
        "verify",
        "py:planted:rows",
        "--range",
        "31000-33000",
        "--jobs",
        "2",
        "--report",
        str(report),
        "--junit",
        str(junit),
    ]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "conforms on 31000 … 32000, first mismatch at deal 32001" in out
    data = json.loads(report.read_text())
    assert data["first_failure"]["deal"] == 32001 and data["conformant"] is False
    assert junit.read_text().startswith("<?xml")
    assert not [p for p in report.parent.iterdir() if p.name.startswith(".")]  # no temp files left


def test_shards_merge_into_the_verdict_of_one_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PLANTED_DEAL", "25555")
    reports = []
    for k in (1, 2, 3):
        path = tmp_path / f"shard{k}.json"
        main(
            [
                "verify",
                "py:planted:deal",
                "--range",
                "1-40000",
                "--shard",
                f"{k}/3",
                "--jobs",
                "1",
                "--report",
                str(path),
            ]
        )
        reports.append(str(path))
    merged = tmp_path / "merged.json"
    assert main(["report", "merge", *reports, "--out", str(merged)]) == 1
    data = json.loads(merged.read_text())
    assert data["first_failure"]["deal"] == 25555 and data["checked"] >= 25555
    assert main(["report", "merge", *reports[:2]]) == 2  # a shard missing is no verdict


def test_a_negative_range_may_follow_a_space(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--dialect", "xp", "--range", "-2--1"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2  # deals -2 and -1


def test_the_reference_conforms_to_itself_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "reference", "--dialect", "fcpro", "--sample", "200", "--seed", "9"]) == 0
    assert "CONFORMS" in capsys.readouterr().out
