"""`freecell-harness verify` and `report merge` through the command line: exit codes and files."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.errors import REPORT_BUGS_TO, HarnessBug, HarnessError, RequestError

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
        (["verify", "reference", "--dialect", "xp", "--range=0-3"], "outside the xp domain"),
        (["verify", "reference", "--jobs", "100000"], "--jobs 100000: must be 1"),
        (["verify", "reference", "--timeout", "inf"], "--timeout inf: must be 0.01 … 86400 seconds"),
        (["verify", "reference", "--timeout", "1e308"], "--timeout 1e+308: must be 0.01"),
        (["verify", "reference", "--timeout", "nan"], "--timeout nan: must be"),
        (["verify", "reference", "--timeout", "1e-9"], "--timeout 1e-09: must be"),
        (["verify", "reference", "--sample", "-5"], "--sample -5: must be at least 1"),
        (["verify", "reference", "--sample", "3000000000"], "only 2147483647 deals"),
        (["verify", "reference", "--sample", "50", "--seed", "-1"], "--seed -1: must be 0"),
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
    (tmp_path / "out").mkdir()
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
    assert data["first_failure"]["deal"] == 25555 and data["checked"] == 25555
    capsys.readouterr()
    # a shard missing is a partial verdict naming what is missing: shard 3's block, 20001-30000
    assert main(["report", "merge", *reports[:2]]) == 130
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith("PARTIAL: ") and line.endswith("not checked: 10000 deals (20001 … 30000)"), line


def test_a_negative_range_may_follow_a_space(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--dialect", "xp", "--range", "-2--1"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2  # deals -2 and -1


def test_the_reference_conforms_to_itself_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "reference", "--dialect", "fcpro", "--sample", "200", "--seed", "9"]) == 0
    assert "CONFORMS" in capsys.readouterr().out


PLANTED = ["verify", "py:planted:deal", "--range", "1-100", "--jobs", "1"]


@pytest.mark.parametrize(
    ("option", "where", "message"),
    [
        ("--report", "a-directory", "is a directory"),
        ("--junit", "a-directory", "is a directory"),
        ("--resume", "a-directory", "is a directory"),
        ("--report", "missing/r.json", "does not exist (create it first)"),
        ("--junit", "missing/deeper/j.xml", "does not exist"),
        ("--resume", "a-file/run.resume", "does not exist"),
    ],
)
def test_bad_output_paths_are_refused_before_any_deal_is_dealt(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    option: str,
    where: str,
    message: str,
) -> None:
    (tmp_path / "a-directory").mkdir()
    (tmp_path / "a-file").write_text("mine\n")
    dealt = tmp_path / "dealt.txt"
    monkeypatch.setenv("DEALT_LOG", str(dealt))
    assert main([*PLANTED, option, str(tmp_path / where)]) == 2
    err = capsys.readouterr().err
    assert option in err and message in err and err.count("\n") == 1
    assert not dealt.exists(), "the run started before its output path was checked"
    assert not (tmp_path / "missing").exists()


def test_a_report_that_cannot_be_written_at_the_end_does_not_take_the_verdict_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from harness.errors import RequestError
    from harness.reports.report import Report

    def disk_full(self: Report, path: str) -> None:
        raise RequestError(f"cannot write {path}: No space left on device")

    monkeypatch.setattr(Report, "write_json", disk_full)
    monkeypatch.setenv("PLANTED_DEAL", "50")
    assert main([*PLANTED, "--report", str(tmp_path / "r.json")]) == 1
    captured = capsys.readouterr()
    assert "first mismatch at deal 50" in captured.out and "No space left" in captured.err


@pytest.mark.parametrize(
    ("pipeline", "planted", "status"),
    [
        ("| head -1", "50", 1),
        ("| head -1", "1000", 0),
        ("| true", "50", 1),  # the reader is gone before the verdict is written
        (">&-", "50", 1),  # stdout closed outright
    ],
)
def test_the_exit_status_is_the_verdict_whatever_happens_to_stdout(
    test_dealers: Path, pipeline: str, planted: str, status: int
) -> None:
    import os
    import shlex
    import subprocess
    import sys

    env = dict(os.environ, PLANTED_DEAL=planted, PYTHONPATH=str(test_dealers))
    command = f"{shlex.join([sys.executable, '-m', 'harness', *PLANTED])} {pipeline}"
    run = subprocess.run(["bash", "-o", "pipefail", "-c", command], env=env, capture_output=True, text=True)
    assert run.returncode == status, run.stderr
    assert "Traceback" not in run.stderr and "Exception ignored" not in run.stderr


@pytest.mark.parametrize(
    ("argv", "hint"),
    [
        (["verfy", "reference"], "did you mean 'verify'?"),
        (["verify", "reference", "--rnage", "1-5"], "did you mean '--range'?"),
        (["verify", "reference", "--junti=x.xml"], "did you mean '--junit'?"),
        (["fixtures", "chek"], "did you mean 'check'?"),
        (["deal", "1", "--format", "column"], "did you mean 'columns'?"),
        # an option of other commands: never "did you mean" itself
        (["verify", "reference", "--json"], "--json is an option of challenge, identify, profile only"),
    ],
)
def test_a_mistyped_command_or_option_gets_a_suggestion(
    argv: list[str], hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert hint in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--version"], "freecell-harness 0."),
        (["--help"], "130  interrupted"),
        (["verify", "--help"], "how program output is decoded (default: utf-8)"),
        (["verify", "--help"], "--quiet"),
        (["verify", "--help"], "2    the request itself is wrong"),
    ],
)
def test_version_and_help_say_what_users_need(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 0
    assert expected in capsys.readouterr().out


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(("planted", "first_failure"), [("-1", -1), ("-2", -2), ("1", 1), ("100", 100), ("0", None)])
def test_xp_ranges_across_zero_are_checked_deal_minus_1_included(
    jobs: str,
    planted: str,
    first_failure: int | None,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("PLANTED_DEAL", planted)
    report = tmp_path / "r.json"
    argv = ["verify", "py:planted:xp", "--dialect", "xp", "--range=-2-100", "--jobs", jobs, "--report", str(report)]
    assert main(argv) == (0 if first_failure is None else 1), capsys.readouterr().err
    data = json.loads(report.read_text())
    assert (data["first_failure"] or {}).get("deal") == first_failure
    if first_failure is None:
        assert data["checked"] == 102  # -2, -1, 1 … 100: 0 skipped, not refused


def test_a_sample_report_records_its_size_seed_and_versions(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    assert main(["verify", "reference", "--sample", "40", "--seed", "7", "--jobs", "1", "--report", str(report)]) == 0
    data = json.loads(report.read_text())
    assert data["sample"] == {"size": 40, "seed": 7} and data["checked"] == 40
    assert data["harness_version"] not in ("", "unknown") and data["dealer_version"].startswith("freecell-harness ")


def test_checked_counts_deals_up_to_the_first_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLANTED_DEAL", "150")
    report = tmp_path / "r.json"
    argv = ["verify", "py:planted:deal", "--range", "1-1000", "--jobs", "1", "--report", str(report)]
    assert main(argv) == 1
    assert json.loads(report.read_text())["checked"] == 150


def test_a_resumed_run_counts_only_its_own_work_in_the_rate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log, report = tmp_path / "log", tmp_path / "r.json"
    base = ["verify", "reference", "--range", "1-30000", "--jobs", "1", "--resume", str(log), "--report", str(report)]
    assert main(base) == 0
    capsys.readouterr()
    assert main(base) == 0  # every block is in the log: this run checks nothing itself
    data = json.loads(report.read_text())
    assert (data["checked"], data["resumed"], data["deals_per_s"]) == (30000, 30000, 0)
    assert capsys.readouterr().out.splitlines()[1].startswith("0 deals in ")


@pytest.mark.parametrize("bug", [ZeroDivisionError("division by zero"), HarnessBug("a verdict of -1 deals checked")])
def test_a_bug_of_ours_exits_3_saying_so_and_where_to_report_it(
    bug: Exception, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise bug

    monkeypatch.delenv("FREECELL_DEBUG", raising=False)
    monkeypatch.setattr("harness.engine.run", broken)
    assert main(["verify", "reference", "--range", "1-10", "--jobs", "1"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "a bug in freecell-harness" in err and str(bug) in err and REPORT_BUGS_TO in err


def test_every_harness_exception_shares_one_base() -> None:
    from harness.cards import BoardError
    from harness.fixtures import FixturesError
    from harness.fixtures.regen import Disagreement

    for kind in (RequestError, HarnessBug, FixturesError, Disagreement, BoardError):
        assert issubclass(kind, HarnessError)
    assert issubclass(BoardError, ValueError)  # caught where a dealer's output is judged


def test_report_merge_tells_two_programs_under_one_impl_apart_and_one_program_under_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two different programs, each `stream:./dealer` in its own folder, are not one dealer; the same program
    under two paths is (the report's dealer_build)."""
    program = Path(__file__).parent / "dealers" / "planted_program.py"
    reports = {}
    for name, planted in (("a", "0"), ("b", "-1"), ("c", "0")):  # a and c: the same script, b another
        folder = tmp_path / name
        folder.mkdir()
        dealer = folder / "dealer"
        dealer.write_text(f"#!/bin/sh\nexec {sys.executable} {program} {planted}\n")
        dealer.chmod(0o755)
        impl = "stream:./dealer" if name != "c" else f"stream:{dealer}"
        shard = "1/2" if name == "a" else "2/2"
        report = folder / "r.json"
        with contextlib.chdir(folder):
            argv = [
                "verify",
                impl,
                "--range",
                "1-20000",
                "--shard",
                shard,
                "--jobs",
                "1",
                "-q",
                "--report",
                str(report),
            ]
            assert main(argv) == 0
        reports[name] = str(report)
    capsys.readouterr()
    assert main(["report", "merge", reports["a"], reports["b"]]) == 2
    err = capsys.readouterr().err
    assert f"{reports['a']} and {reports['b']} are of different builds of the dealer" in err and err.count("\n") == 1
    assert main(["report", "merge", reports["a"], reports["c"]]) == 0
    assert capsys.readouterr().out.startswith("CONFORMS: stream:./dealer against reference (classic) on 1 … 20000")
