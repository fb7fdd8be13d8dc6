from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from harness.errors import RequestError
from harness.failures import Failure
from harness.intervals import Interval
from harness.reports.report import Report, board_diff, coverage, merge_reports, read_report, verdict
from harness.request import default_ranges
from reference import deal

EXPECTED = deal(617).line.strip()
SWAPPED = EXPECTED.split()
SWAPPED[10], SWAPPED[11] = SWAPPED[11], SWAPPED[10]
ACTUAL = " ".join(SWAPPED)


def shard(k: int, n: int, checked: int, failure: int | None = None, elapsed: float = 1.0) -> Report:
    f = Failure(failure, "mismatch", "cards 11 and 12 differ", EXPECTED, ACTUAL) if failure else None
    return Report("cmd:x {n}", "reference", "classic", checked, f, elapsed, shard=f"{k}/{n}", ranges=((1, 100_000),))


def run(first: int, last: int, checked: int, failure: int | None = None, elapsed: float = 1.0) -> Report:
    """A whole run (1/1) of first … last."""
    return replace(shard(1, 1, checked, failure, elapsed), ranges=((first, last),))


# 1-100000 is ten blocks of 10000: shard K/N holds blocks K, K+N, … (1-10000 is block 1).
@pytest.mark.parametrize(
    ("reports", "checked", "first", "elapsed"),
    [
        ([shard(1, 2, 50_000), shard(2, 2, 50_000)], 100_000, None, 1.0),
        # shards of different cuts: 1/2 holds blocks 1 3 5 7 9, 2/4 blocks 2 6 10, 4/4 blocks 4 8
        ([shard(1, 2, 50_000), shard(2, 4, 30_000), shard(4, 4, 20_000)], 100_000, None, 1.0),
        # a shard and runs of other ranges that hold the other shard's blocks
        ([shard(1, 2, 50_000), run(10_001, 20_000, 10_000), run(30_001, 100_000, 70_000)], 100_000, None, 1.0),
        # 1/3 (blocks 1 4 7 10) fails at 30500: every deal before it was checked by one shard or another
        ([shard(1, 3, 10_500, 30_500), shard(2, 3, 30_000, None, 2.5), shard(3, 3, 30_000)], 30_500, 30_500, 2.5),
        ([shard(2, 2, 50_000), shard(1, 2, 20_007, 20_007)], 20_007, 20_007, 1.0),  # any order
        # a deal checked twice, by a run and a shard, agreeing
        ([shard(1, 2, 50_000), shard(2, 2, 50_000), run(1, 100_000, 100_000)], 100_000, None, 1.0),
    ],
)
def test_merge_is_the_union_of_what_the_reports_checked(
    reports: list[Report], checked: int, first: int | None, elapsed: float
) -> None:
    merged = merge_reports([(f"r{i}.json", r) for i, r in enumerate(reports)])
    assert merged.gaps == ()
    assert merged.checked == checked
    assert merged.conformant is (first is None) and not merged.incomplete
    assert (merged.first_failure.deal if merged.first_failure else None) == first
    assert merged.elapsed_s == elapsed
    assert merged.ranges == ((1, 100_000),) and merged.shard == "1/1"
    assert verdict(merged).startswith("DIVERGES" if first else "CONFORMS")


@pytest.mark.parametrize(
    ("reports", "gaps", "line"),
    [
        (
            [shard(1, 2, 50_000)],
            [(10_001, 20_000), (30_001, 40_000), (50_001, 60_000), (70_001, 80_000), (90_001, 100_000)],
            "PARTIAL: cmd:x {n} against reference (classic) on 1 … 100000: 50000 deals checked, all identical; "
            "not checked: 50000 deals (10001 … 20000, 30001 … 40000, 50001 … 60000, 70001 … 80000, 90001 … 100000)",
        ),
        (  # a failure after a gap: DIVERGES, but it may not be the first
            [shard(1, 3, 10_500, 30_500), shard(3, 3, 30_000)],
            [(10_001, 20_000)],
            "first mismatch at deal 30500: cards 11 and 12 differ (not checked before it: 10000 deals "
            "(10001 … 20000): an earlier deal may fail too)",
        ),
        (  # an interrupted run vouches for what it says it checked, and for no more
            [shard(1, 2, 50_000), replace(shard(2, 2, 15_000), interrupted=True, covered=(Interval(10_001, 25_000),))],
            [(30_001, 40_000), (50_001, 60_000), (70_001, 80_000), (90_001, 100_000)],  # 20001-30000: 1/2's
            "PARTIAL: ",
        ),
        ([shard(1, 2, 50_000), replace(shard(2, 2, 15_000), interrupted=True)], None, "PARTIAL: "),
    ],
)
def test_a_merge_with_gaps_is_a_partial_verdict_naming_them(
    reports: list[Report], gaps: list[tuple[int, int]] | None, line: str
) -> None:
    merged = merge_reports([(f"r{i}.json", r) for i, r in enumerate(reports)])
    if gaps is not None:
        assert [tuple(g) for g in merged.gaps] == gaps
    assert merged.gaps and merged.covered is None  # what it checked: its ranges but its gaps
    assert line in verdict(merged)
    assert merged.to_json()["conformant"] is (None if merged.first_failure is None else False)
    # a merged report is a report: merging it with what fills its gaps completes it
    fill = [run(a, b, b - a + 1) for a, b in merged.gaps]
    whole = merge_reports([("merged.json", merged), *((f"f{i}.json", f) for i, f in enumerate(fill))])
    assert whole.gaps == () and whole.covered is None


def test_a_partial_merge_exits_130_and_writes_null_conformant(tmp_path: Path) -> None:
    from harness.cli import main

    one = tmp_path / "one.json"
    shard(1, 2, 50_000).write_json(str(one))
    assert main(["report", "merge", str(one), "--out", str(tmp_path / "m.json")]) == 130
    data = json.loads((tmp_path / "m.json").read_text())
    assert data["conformant"] is None and data["gaps"][0] == [10_001, 20_000]
    assert read_report(str(tmp_path / "m.json")).gaps == merge_reports([("one.json", read_report(str(one)))]).gaps


@pytest.mark.parametrize(
    ("reports", "message"),
    [
        ([], "no reports"),
        # counts that disagree with the blocks of their shard: each shard of two holds 50000 deals
        ([shard(1, 2, 1), shard(2, 2, 1)], "r0.json: 'checked' is 1, but shard 1/2 of --range 1-100000, finished"),
        ([shard(1, 2, 50_000), shard(2, 2, 50_001, 60_000)], "r1.json: 'checked' is 50001, but shard 2/2"),
        ([shard(1, 2, 50_000), shard(2, 2, 10, 200_000)], "r1.json: its first failure, deal 200000, lies outside"),
        # what is not the same dealer judged the same way, naming both reports
        (
            [shard(1, 2, 50_000), replace(shard(2, 2, 50_000), dealer_version="b")],
            "r0.json and r1.json are of different dealers",
        ),
        (
            [shard(1, 2, 50_000), replace(shard(2, 2, 50_000), implementation="cmd:y {n}")],
            "r0.json and r1.json are of different dealers",
        ),
        (
            [shard(1, 2, 50_000), replace(shard(2, 2, 50_000), against="pysol-cards")],
            "r0.json and r1.json are of different dealers compared with",
        ),
        (
            [shard(1, 2, 50_000), replace(shard(2, 2, 50_000), dialect="fcpro")],
            "r0.json and r1.json are of different dialects",
        ),
        # a deal checked twice must agree
        ([run(1, 20_000, 20_000), run(15_000, 20_000, 1, 15_000)], "r1.json and r0.json disagree on deal 15000"),
    ],
)
def test_merge_refuses_reports_that_cannot_be_one_verdict(reports: list[Report], message: str) -> None:
    with pytest.raises(RequestError, match=message):
        merge_reports([(f"r{i}.json", r) for i, r in enumerate(reports)])


A_BUILD, B_BUILD = "a" * 64, "b" * 64


@pytest.mark.parametrize(
    ("second", "message"),
    [
        (replace(shard(2, 2, 50_000), dealer_build=B_BUILD), "r0.json and r1.json are of different builds"),
        # two programs under one IMPL string: the build tells them apart
        (replace(shard(2, 2, 50_000), dealer_build=B_BUILD, implementation="cmd:x {n}"), "different builds"),
        (replace(shard(2, 2, 50_000), dealer_build=None, implementation="cmd:y {n}"), "different dealers"),
        # one build, but another kind of IMPL, or another version: not one dealer
        (replace(shard(2, 2, 50_000), dealer_build=A_BUILD, implementation="node:x.js"), "different dealers"),
        (replace(shard(2, 2, 50_000), dealer_build=A_BUILD, dealer_version="2.0"), "different dealers"),
    ],
)
def test_merge_refuses_reports_of_other_builds_naming_both(second: Report, message: str) -> None:
    first = replace(shard(1, 2, 50_000), dealer_build=A_BUILD)
    with pytest.raises(RequestError, match=message):
        merge_reports([("r0.json", first), ("r1.json", second)])


def test_merge_accepts_one_build_under_another_impl_string() -> None:
    here = replace(shard(1, 2, 50_000), implementation="stream:/home/a/dealer", dealer_build=A_BUILD)
    there = replace(shard(2, 2, 50_000), implementation="stream:/srv/b/dealer", dealer_build=A_BUILD)
    merged = merge_reports([("a.json", here), ("b.json", there)])
    assert merged.conformant and merged.checked == 100_000 and merged.dealer_build == A_BUILD


def test_merge_accepts_reports_of_other_harness_versions_of_one_dealer() -> None:
    merged = merge_reports([("a", shard(1, 2, 50_000)), ("b", replace(shard(2, 2, 50_000), harness_version="0.0.1"))])
    assert merged.conformant and merged.checked == 100_000


def test_a_report_round_trips_through_its_json_with_spec_fields(tmp_path: Path) -> None:
    report = shard(1, 1, 100, 42)
    path = tmp_path / "r.json"
    report.write_json(str(path))
    data = json.loads(path.read_text())
    spec_fields = {
        "implementation",
        "against",
        "dialect",
        "checked",
        "conformant",
        "first_failure",
        "elapsed_s",
        "deals_per_s",
    }
    assert spec_fields <= set(data)
    assert set(data["first_failure"]) == {"deal", "kind", "message", "expected", "actual", "diagnosis"}
    assert data["conformant"] is False and data["deals_per_s"] == 100
    assert read_report(str(path)) == report


@pytest.mark.parametrize(
    ("content", "message"),
    [("{", "not JSON"), ('{"implementation": "x"}', "not a verify report"), ("[]", "not a verify report")],
)
def test_bad_reports_are_refused_in_one_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(RequestError, match=message):
        read_report(str(path))


def test_the_board_diff_marks_exactly_the_differing_cards() -> None:
    diff = board_diff(EXPECTED, ACTUAL)
    rows = diff.splitlines()[1:]
    assert len(rows) == 7
    assert diff.count("*") == 4  # two cards, each marked on both sides
    left, right = rows[1].split("│")
    assert f"{SWAPPED[11]}*" in left and f"{SWAPPED[10]}*" in right


@pytest.mark.parametrize(
    ("report", "expected"),
    [
        (shard(1, 1, 100, 32001), "conforms on 1 … 32000, first mismatch at deal 32001"),
        (shard(1, 1, 1, 1), "no deal conforms before it, first mismatch at deal 1"),
        (shard(2, 4, 100, 500), "first mismatch at deal 500 in shard 2/4"),
        (shard(1, 1, 100), "CONFORMS"),
    ],
)
def test_the_verdict_says_how_far_it_conformed(report: Report, expected: str) -> None:
    assert expected in verdict(report)


def _edited(field: str, value: object) -> str:
    data = shard(1, 2, 50).to_json()
    data[field] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (_edited("shard", "3/2"), "'shard' '3/2'"),
        (_edited("shard", "one of two"), "'shard' 'one of two'"),
        (_edited("shard", 1), "'shard' is not a string"),
        (_edited("checked", -5), "'checked' is negative"),
        (_edited("checked", "5"), "'checked': '5' is not a whole number"),
        (_edited("checked", True), "'checked': True is not a whole number"),
        (_edited("elapsed_s", -1), "'elapsed_s' -1"),
        (_edited("resumed", 51), "'resumed' exceeds 'checked'"),
        (_edited("sample", {"size": -3, "seed": 1}), "'sample size' is negative"),
        (_edited("sample", [1, 2]), "'sample' is not an object"),
        (_edited("conformant", "yes"), "'conformant' is not true or false"),
        (json.dumps({k: v for k, v in shard(1, 2, 50).to_json().items() if k != "conformant"}), "not true or false"),
    ],
)
def test_report_merge_refuses_a_bad_shard_field_or_count_in_one_line(
    tmp_path: Path, content: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from harness.cli import main

    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    shard(2, 2, 50).write_json(str(good))
    bad.write_text(content)
    assert main(["report", "merge", str(bad), str(good)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err, err


@pytest.mark.parametrize(
    ("other", "message"),
    [
        ({"sample": 40, "seed": 1, "ranges": ()}, "different samples"),
        ({"sample": 40, "seed": 2, "ranges": ()}, "different samples"),
        ({"dialect": "xp"}, "different dialects"),
    ],
)
def test_report_merge_refuses_shards_of_different_samples_or_seeds(other: dict[str, object], message: str) -> None:
    from dataclasses import replace

    first = replace(shard(1, 2, 50), sample=40, seed=1, ranges=())
    second = replace(shard(2, 2, 50), **other)  # type: ignore[arg-type]
    if other == {"sample": 40, "seed": 1, "ranges": ()}:
        second = replace(second, sample=41)
    with pytest.raises(RequestError, match=message):
        merge_reports([("a.json", first), ("b.json", second)])


def test_a_merged_sample_keeps_its_size_and_seed() -> None:
    from dataclasses import replace

    parts = [replace(shard(k, 2, 40 if k == 1 else 0), sample=40, seed=1, ranges=()) for k in (1, 2)]  # one block
    merged = merge_reports([(f"{k}.json", r) for k, r in enumerate(parts)])
    assert (merged.sample, merged.seed, merged.checked) == (40, 1, 40)


@pytest.mark.parametrize(
    ("ranges", "sample", "dialect", "block_size", "shards"),
    [
        (((1, 1000),), None, "classic", 10_000, 2),
        (((1, 100_000),), None, "classic", 10_000, 3),
        (((5, 95_003), (17, 17), (40_000, 40_001)), None, "classic", 10_000, 4),
        (((9_995, 10_005), (1, 10_000)), None, "classic", 10_000, 7),
        (((-2, 25_000),), None, "xp", 10_000, 3),  # 0 is no xp deal: two parts
        (((2_999_999_999, 3_000_100_002),), None, "fcpro", 1_000_000, 5),
        ((), 40, "classic", 10_000, 2),
        ((), 25_001, "fcpro", 10_000, 3),
    ],
)
def test_a_shards_deals_are_counted_as_its_blocks_hold_them(
    ranges: tuple[tuple[int, int], ...], sample: int | None, dialect: str, block_size: int, shards: int
) -> None:
    from harness.intervals import Shard
    from harness.reports.report import _deals_of_shard
    from harness.request import Request

    for k in range(1, shards + 1):
        request = Request("reference", dialect=dialect, ranges=ranges, sample=sample, shard=Shard(k, shards),
                          block_size=block_size)  # fmt: skip
        assert _deals_of_shard(request) == sum(len(block.deals) for block in request.blocks()), k


@pytest.mark.parametrize(
    ("ranges", "sample", "said"),
    [
        (((1, 1),), None, "1"),
        (((1, 5), (7, 9)), None, "1 … 5, 7 … 9"),
        (tuple((n, n) for n in range(1, 6)), None, "1, 2, 3, 4, 5"),
        (tuple((n, n) for n in range(1, 14)), None, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 1 more range"),
        (tuple((n, n) for n in range(1, 15)), None, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 2 more ranges"),
        ((), 1, "a sample of 1 deal (seed 0)"),
        ((), 300, "a sample of 300 deals (seed 0)"),
    ],
)
def test_the_verdict_line_says_what_was_covered(
    ranges: tuple[tuple[int, int], ...], sample: int | None, said: str
) -> None:
    report = Report("reference", "reference", "classic", 1, None, 0.1, ranges=ranges, sample=sample, seed=0)
    assert coverage(report) == said


@pytest.mark.parametrize("dialect", ["classic", "fcpro", "xp"])
def test_the_default_verdict_line_names_every_range_it_checked(dialect: str) -> None:
    ranges = tuple((r.first, r.last) for r in default_ranges(dialect))
    report = Report("reference", "reference", dialect, 1, None, 0.1, ranges=ranges)
    line = verdict(report)
    assert "more range" not in line
    for first, last in ranges:
        assert f"{first} … {last}" in line


def test_the_board_diff_of_a_board_with_a_repeated_card_marks_it_and_the_one_missing() -> None:
    due = deal(5).line.split()
    given = ["QS" if c == "KD" else c for c in due]  # QS twice (positions 4 and 21), KD missing
    shown = board_diff(" ".join(due), " ".join(given)).splitlines()
    assert shown[1].endswith("│ AH  8S  2D  QS! 4C  9H  2S  3D")
    assert shown[3] == "3S  5D  KC  3H  KD? 5H  6S  8D    │ 3S  5D  KC  3H  QS! 5H  6S  8D"
    assert shown[-1] == "(not a board: repeated, marked !: QS; missing, marked ? where due: KD)"
