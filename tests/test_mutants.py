"""Every planted bug (tests/mutants/dealer.c) is caught at its exact first deal, with its kind,
through both `cmd:` and `stream:`, by `freecell-harness verify --jobs 2`.  The expectations are
data: tests/mutants/expectations.tsv, one bug a line, with the reason for its first failing deal."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import need_tools

from harness.cli import main

HERE = Path(__file__).parent / "mutants"
EXPECTATIONS = list(csv.DictReader((HERE / "expectations.tsv").open(), delimiter="\t"))
# HANG's stream range ends at 500: the chunks a stream is dealt in up to the one it hangs in (337 on)
# are those of any longer range from 1, whose deals before 400 are dealt again; 100 deals follow it.
TIMEOUT = "1"
STARTUP_TIMEOUT = "1"


@pytest.fixture(scope="session")
def mutants(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each bug compiled once per session ("OK": the dealer without a bug)."""
    need_tools("cc")
    cc = shutil.which("cc")
    assert cc is not None
    out = tmp_path_factory.mktemp("mutants")
    built = {}
    for bug in ["OK", *(e["bug"] for e in EXPECTATIONS)]:
        exe = out / f"dealer_{bug.lower()}"
        flags = [] if bug == "OK" else [f"-DBUG_{bug}"]
        subprocess.run([cc, "-O2", *flags, "-o", str(exe), str(HERE / "dealer.c")], check=True)
        built[bug] = exe
    return built


def verify(impl: str, deal_range: str, report: Path) -> tuple[int, dict[str, object]]:
    argv = ["verify", impl, "--range", deal_range, "--jobs", "2", "--timeout", TIMEOUT, "--report", str(report)]
    # A cmd: deal is a process of its own, whose start gets --startup-timeout too: the hanging mutant
    # would wait out the default 60 s twice (once more to see the hang recur); a C program starts in
    # a millisecond or two, so 1 s is a margin of hundreds, on a loaded machine too.
    status = main([*argv, "--startup-timeout", STARTUP_TIMEOUT])
    return status, json.loads(report.read_text())


def impl_for(adapter: str, exe: Path) -> str:
    return f"cmd:{exe} {{n}}" if adapter == "cmd" else f"stream:{exe}"


@pytest.mark.parametrize("adapter", ["cmd", "stream"])
def test_the_correct_dealer_conforms(adapter: str, mutants: dict[str, Path], tmp_path: Path) -> None:
    deal_range = "31995-32005" if adapter == "cmd" else "1-25000"
    status, report = verify(impl_for(adapter, mutants["OK"]), deal_range, tmp_path / "r.json")
    assert (status, report["conformant"], report["first_failure"]) == (0, True, None)


@pytest.mark.parametrize("adapter", ["cmd", "stream"])
@pytest.mark.parametrize("case", EXPECTATIONS, ids=[e["bug"] for e in EXPECTATIONS])
def test_each_bug_is_caught_at_its_deal(
    case: dict[str, str], adapter: str, mutants: dict[str, Path], tmp_path: Path
) -> None:
    deal = int(case["deal"])
    # One process per deal is slow: cmd: checks a few deals either side of the expected failure.
    deal_range = f"{max(1, deal - 4)}-{deal + 4}" if adapter == "cmd" else case["stream_range"]
    status, report = verify(impl_for(adapter, mutants[case["bug"]]), deal_range, tmp_path / "r.json")
    failure = report["first_failure"]
    assert isinstance(failure, dict), report
    assert (status, failure["deal"], failure["kind"]) == (1, deal, case["kind"]), f"{case['reason']}: {failure}"
    assert failure["message"]
