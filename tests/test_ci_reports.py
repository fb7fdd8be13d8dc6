"""Results a CI page shows: JUnit XML with one testcase per checked block, GitHub `::error`
annotations for a divergence, and a job summary with the verdict, the diagnosis, the board diff and
a table of the shards."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from harness.cli import main
from harness.failures import Failure
from harness.reports.junit import MAX_TESTCASES, write_junit
from harness.reports.report import Report
from harness.request import Request
from reference import deal

pytestmark = pytest.mark.usefixtures("test_dealers")


def _cases(path: Path) -> list[ET.Element]:
    return list(ET.parse(path).getroot().iter("testcase"))


def _status(case: ET.Element) -> str:
    return next((child.tag for child in case if child.tag in ("failure", "skipped", "error")), "passed")


def test_junit_has_a_testcase_per_block_and_the_failing_one_carries_the_diagnosis_and_diff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junit = tmp_path / "j.xml"
    argv = ["verify", "py:mistaken:truncated_16_bit", "--jobs", "1", "-q", "--junit", str(junit)]
    assert main(argv) == 1
    cases = _cases(junit)
    assert [(c.get("name"), _status(c)) for c in cases] == [
        ("deals 1-10000", "passed"),
        ("deals 10001-20000", "passed"),
        ("deals 20001-30000", "passed"),
        ("deals 30001-33001", "failure"),
        ("deals 999000-1000000", "skipped"),
        ("deals 1000001-1001001", "skipped"),
        ("deals 2147482647-2147483647", "skipped"),
    ]
    failure = cases[3].find("failure")
    assert failure is not None and "deal 32768" in failure.get("message", "")
    text = failure.text or ""
    assert "diagnosis (truncated-16-bit)" in text and "expected" in text and "│ actual" in text
    skipped = cases[4].find("skipped")
    assert skipped is not None and "after the first failure at deal 32768" in skipped.get("message", "")
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("7", "1", "3")


def test_a_shards_junit_lists_only_its_own_blocks(tmp_path: Path) -> None:
    junit = tmp_path / "j.xml"
    argv = ["verify", "reference", "--range", "1-50000", "--shard", "2/3", "--jobs", "1", "-q"]
    assert main([*argv, "--junit", str(junit)]) == 0
    assert [(c.get("name"), _status(c)) for c in _cases(junit)] == [
        ("deals 10001-20000", "passed"),
        ("deals 40001-50000", "passed"),
    ]


@pytest.mark.parametrize(("blocks", "failing"), [(5000, None), (5000, 4321), (MAX_TESTCASES, 7), (30, 30)])
def test_many_blocks_are_grouped_into_at_most_max_testcases_that_cover_them_in_order(
    tmp_path: Path, blocks: int, failing: int | None
) -> None:
    request = Request("reference", ranges=((1, blocks),), block_size=1)
    failure = None if failing is None else Failure(failing, "mismatch", "x", deal(failing).line, deal(1).line)
    checked = blocks if failing is None else failing
    report = Report("reference", "reference", "classic", checked, failure, 1.0, ranges=request.ranges)
    write_junit(str(tmp_path / "j.xml"), report, request.blocks())
    cases = _cases(tmp_path / "j.xml")
    assert len(cases) == min(blocks, MAX_TESTCASES)
    words = [(c.get("name") or "").split()[1] for c in cases]  # "deals A-B" or "deal N"
    spans = [(int(w.partition("-")[0]), int(w.rpartition("-")[2])) for w in words]
    assert spans[0][0] == 1 and spans[-1][1] == blocks
    assert all(a[1] + 1 == b[0] for a, b in itertools.pairwise(spans))
    failed = [s for s, c in zip(spans, cases, strict=True) if _status(c) == "failure"]
    assert failed == ([] if failing is None else [next(s for s in spans if s[0] <= failing <= s[1])])


def test_an_interrupted_run_does_not_claim_blocks_it_may_not_have_checked(tmp_path: Path) -> None:
    request = Request("reference", ranges=((1, 30000),))
    report = Report("reference", "reference", "classic", 12000, None, 1.0, ranges=request.ranges, interrupted=True)
    write_junit(str(tmp_path / "j.xml"), report, request.blocks())
    assert {_status(c) for c in _cases(tmp_path / "j.xml")} == {"skipped"}


def _shards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, planted: str) -> list[int]:
    monkeypatch.setenv("PLANTED_DEAL", planted)
    statuses = []
    for k in (1, 2, 3):
        shard = ["shard", "py:planted:deal", "--range", "1-40000", "--shard", str(k), "--shards", "3"]
        statuses.append(main(["ci", *shard, "--jobs", "1", "--out", str(tmp_path / "artifacts" / f"shard-{k}")]))
    return statuses


@pytest.mark.parametrize(("github", "annotated"), [("true", True), (None, False)])
def test_a_diverging_shard_annotates_the_failure_on_github(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    github: str | None,
    annotated: bool,
) -> None:
    if github is None:
        monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    else:
        monkeypatch.setenv("GITHUB_ACTIONS", github)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    assert _shards(tmp_path, monkeypatch, "25555") == [0, 0, 1]
    errors = [line for line in capsys.readouterr().out.splitlines() if line.startswith("::error")]
    if not annotated:
        assert errors == []
        return
    assert len(errors) == 1  # only the shard that diverges
    properties, _, message = errors[0].removeprefix("::error ").partition("::")
    assert properties == "title=freecell-harness%3A DIVERGES at deal 25555"
    assert "\n" not in message and "%0A" in message  # one line: the diff's lines escaped
    lines = message.split("%0A")
    assert "first mismatch at deal 25555" in lines[0] and any("│ actual" in line for line in lines)


def test_verify_annotates_when_asked(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLANTED_DEAL", "7")
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    assert main(["verify", "py:planted:deal", "--range", "1-10", "--jobs", "1", "-q", "--annotate"]) == 1
    assert capsys.readouterr().out.count("::error title=freecell-harness%3A DIVERGES at deal 7::") == 1


@pytest.mark.parametrize(("planted", "verdict"), [("25555", "DIVERGES"), ("99999", "CONFORMS")])
def test_the_job_summary_has_the_verdict_diagnosis_diff_and_a_table_of_shards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, planted: str, verdict: str
) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    shard_summary, merge_summary = tmp_path / "shard.md", tmp_path / "merge.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(shard_summary))
    _shards(tmp_path, monkeypatch, planted)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(merge_summary))
    main(["ci", "merge", str(tmp_path / "artifacts"), "--out", str(tmp_path / "merged.json")])
    text = merge_summary.read_text()
    assert f"## freecell-harness: {verdict}" in text
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| shard | deals checked | verdict")
    assert [r.split("|")[1].strip() for r in rows[1:]] == ["1/3", "2/3", "3/3"]
    if verdict == "DIVERGES":
        assert "deal 25555" in rows[3] and "DIVERGES" in rows[3] and "CONFORMS" in rows[1]
        assert "**Diagnosis**" in text and "│ actual" in text and "first mismatch at deal 25555" in text
    else:
        assert "│ actual" not in text and "40000" in text
    # each shard's job has its own summary too (the action used alone)
    shard_text = shard_summary.read_text()
    assert shard_text.count("## freecell-harness:") == 3
    assert ("│ actual" in shard_text) == (verdict == "DIVERGES")


def test_the_merged_report_keeps_what_json_readers_need(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    _shards(tmp_path, monkeypatch, "25555")
    assert main(["ci", "merge", str(tmp_path / "artifacts"), "--out", str(tmp_path / "merged.json")]) == 1
    assert json.loads((tmp_path / "merged.json").read_text())["first_failure"]["deal"] == 25555


@pytest.mark.parametrize(
    ("message", "escaped"),
    [("100% wrong", "100%25 wrong"), ("one\r\ntwo", "one\\x0d\\x0atwo"), ("a::b", "a::b")],
)
def test_an_annotation_is_one_workflow_command_whatever_the_dealer_said(message: str, escaped: str) -> None:
    from harness.reports.github import annotation

    failure = Failure(5, "error", message)
    report = Report("py:x:y", "reference", "classic", 4, failure, 1.0, ranges=((1, 10),))
    line = annotation(report)
    assert line is not None and line.count("\n") == 0 and "\r" not in line
    assert line.startswith("::error title=freecell-harness%3A DIVERGES at deal 5::") and escaped in line
