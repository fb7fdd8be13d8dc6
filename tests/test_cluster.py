"""`verify --cluster`: the engine's blocks on a real Dask scheduler and real workers on 127.0.0.1
(tests/dask_cluster.py), never a mock; the verdict must be the one a run on this machine gives."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from subprocess import PIPE

import pytest
from conftest import wait_for
from dask_cluster import DaskCluster, dask_cluster, free_port, marked

PLANTED = 123457


def verify(args: list[str], env: dict[str, str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "harness", "verify", *args, "-q"]
    return subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def planted_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaskCluster]:
    """Two workers whose `py:paced:deal` deals deal 123457 wrong."""
    for cluster in dask_cluster(tmp_path_factory.mktemp("dask")):
        cluster.add_worker("a", PLANTED_DEAL=str(PLANTED))
        cluster.add_worker("b", PLANTED_DEAL=str(PLANTED))
        yield cluster


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[DaskCluster]:
    logs = tmp_path / "dask"
    logs.mkdir()
    yield from dask_cluster(logs)


def _report(path: Path) -> dict[str, object]:
    data = json.loads(path.read_text())
    return {k: v for k, v in data.items() if k not in ("elapsed_s", "deals_per_s")}


@pytest.mark.parametrize(
    "ranges",
    [
        ["100001-160000"],
        # ranges not in deal order: after the failure, later blocks of the first range are moot, but
        # the second range's, before the failure, must still be checked
        pytest.param(["120001-200000", "100001-110000"], marks=pytest.mark.slow),
    ],
)
def test_a_planted_bad_deal_is_found_exactly_and_every_output_is_the_one_machine_s(
    planted_cluster: DaskCluster, tmp_path: Path, ranges: list[str]
) -> None:
    run = ["py:paced:deal", *(f"--range={r}" for r in ranges)]
    env = planted_cluster.env(PLANTED_DEAL=str(PLANTED))
    here = verify([*run, "--jobs", "2", "--report", "here.json"], env, tmp_path)
    there = verify(
        [*run, "--cluster", planted_cluster.address, "--report", "there.json", "--resume", "r.log"], env, tmp_path
    )
    assert there.returncode == here.returncode == 1, there.stderr
    assert f"first mismatch at deal {PLANTED}: cards 11 and 12 differ" in there.stdout
    assert there.stdout.splitlines()[0] == here.stdout.splitlines()[0]  # the same verdict line
    assert _report(tmp_path / "there.json") == _report(tmp_path / "here.json")
    checked = json.loads((tmp_path / "there.json").read_text())["checked"]
    assert checked == (PLANTED - 100001 + 1 if len(ranges) == 1 else PLANTED - 120001 + 1 + 10000)
    again = verify([*run, "--cluster", planted_cluster.address, "--resume", "r.log"], env, tmp_path)
    assert again.returncode == 1 and "more from the resume log" in again.stdout, again.stdout


def test_jobs_with_a_cluster_is_refused_in_one_line_not_ignored(tmp_path: Path) -> None:
    run = verify(["reference", "--range", "1-100", "--cluster", f"tcp://127.0.0.1:{free_port()}", "--jobs", "2"],
                 dict(os.environ), tmp_path)  # fmt: skip
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and "--jobs" in run.stderr and "--nthreads" in run.stderr, run.stderr


def test_an_unreachable_scheduler_is_one_line_and_exit_2_within_the_startup_timeout(tmp_path: Path) -> None:
    nobody = f"tcp://127.0.0.1:{free_port()}"
    started = time.monotonic()
    run = verify(
        ["reference", "--range", "1-100", "--cluster", nobody, "--startup-timeout", "2"], dict(os.environ), tmp_path
    )
    took = time.monotonic() - started
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and run.stderr.startswith(f"freecell-harness: --cluster {nobody}: no Dask")
    assert took < 2 + 20  # the timeout, and an interpreter's start on a busy machine


def test_workers_that_cannot_reach_the_dealer_say_so_in_one_line(planted_cluster: DaskCluster, tmp_path: Path) -> None:
    dealer = tmp_path / "dealer.sh"  # here, but not in the workers' working directory
    dealer.write_text("#!/bin/sh\nexec cat\n")
    dealer.chmod(0o755)
    run = verify(
        ["stream:./dealer.sh", "--range", "1-100", "--cluster", planted_cluster.address],
        dict(os.environ),
        tmp_path,
        timeout=120,
    )
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert run.stderr.count("\n") == 1 and "on worker tcp://127.0.0.1:" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.slow
def test_a_worker_killed_mid_run_has_its_blocks_run_again_and_the_verdict_is_complete(
    cluster: DaskCluster, tmp_path: Path
) -> None:
    doomed = cluster.add_worker("doomed", PACE_S="0.0003")
    cluster.add_worker("survivor", PACE_S="0.0003")
    log = tmp_path / "r.log"
    argv = [sys.executable, "-m", "harness", "verify", "py:paced:deal", "--range", "1-60000", "-q"]
    argv += ["--cluster", cluster.address, "--resume", str(log), "--report", "report.json"]
    cli = subprocess.Popen(
        argv, env=cluster.env(), cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        wait_for(lambda: log.exists() and len(log.read_text().splitlines()) >= 2, "a first block finished")
        os.killpg(doomed.pid, signal.SIGKILL)  # the worker and the dealers it runs
        out, err = cli.communicate(timeout=300)
    finally:
        if cli.poll() is None:
            cli.kill()
    assert cli.returncode == 0, err
    assert out.startswith("CONFORMS: py:paced:deal against reference (classic) on 1 … 60000: 60000 deals checked")
    assert json.loads((tmp_path / "report.json").read_text())["checked"] == 60000


@pytest.mark.slow
def test_a_worker_that_joins_late_takes_blocks(cluster: DaskCluster, tmp_path: Path) -> None:
    cluster.add_worker("first", PACE_S="0.0003")
    log, late = tmp_path / "r.log", tmp_path / "late.dealt"
    argv = [sys.executable, "-m", "harness", "verify", "py:paced:deal", "--range", "1-80000", "-q"]
    argv += ["--cluster", cluster.address, "--resume", str(log)]
    cli = subprocess.Popen(
        argv, env=cluster.env(), cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        wait_for(lambda: log.exists() and len(log.read_text().splitlines()) >= 2, "a first block finished")
        cluster.add_worker("late", PACE_S="0.0003", DEALT_LOG=str(late))
        out, err = cli.communicate(timeout=300)
    finally:
        if cli.poll() is None:
            cli.kill()
    assert cli.returncode == 0, err
    assert "80000 deals checked, all identical" in out
    dealt = {int(n) for n in late.read_text().split()} if late.exists() else set()
    assert len(dealt) >= 10000, "the late worker dealt no whole block"


@pytest.mark.slow
def test_ctrl_c_of_a_cluster_run_cancels_it_and_stops_the_dealers_on_the_workers(
    cluster: DaskCluster, tmp_path: Path
) -> None:
    cluster.add_worker("a", PACE_S="0.002")
    cluster.add_worker("b", PACE_S="0.002")
    argv = [sys.executable, "-m", "harness", "verify", "py:paced:deal", "--range", "1-100000", "-q"]
    argv += ["--cluster", cluster.address, "--report", "report.json"]

    def as_from_a_terminal() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    cli = subprocess.Popen(
        argv, env=cluster.env(), cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, preexec_fn=as_from_a_terminal, text=True,
    )  # fmt: skip
    try:
        wait_for(lambda: len(marked(cluster.marker, containing="py_runner")) >= 2, "a dealer on each worker")
        os.killpg(cli.pid, signal.SIGINT)
        out, err = cli.communicate(timeout=60)
    finally:
        if cli.poll() is None:
            cli.kill()
    assert cli.returncode == 130, err
    assert out.startswith("INTERRUPTED: py:paced:deal"), out
    assert json.loads((tmp_path / "report.json").read_text())["interrupted"] is True
    wait_for(lambda: marked(cluster.marker, containing="py_runner") == [], "no dealer left on the workers", limit_s=15)
    assert cluster.workers() == 2  # the workers themselves serve on


@pytest.mark.slow
def test_a_run_whose_every_worker_is_lost_ends_in_one_line_not_a_hang(cluster: DaskCluster, tmp_path: Path) -> None:
    only = cluster.add_worker("only", PACE_S="0.0003")
    log = tmp_path / "r.log"
    argv = [sys.executable, "-m", "harness", "verify", "py:paced:deal", "--range", "1-60000", "-q"]
    argv += ["--cluster", cluster.address, "--resume", str(log), "--startup-timeout", "3"]
    cli = subprocess.Popen(argv, env=cluster.env(), cwd=tmp_path, stdout=PIPE, stderr=PIPE, text=True)
    try:
        wait_for(lambda: log.exists() and len(log.read_text().splitlines()) >= 2, "a first block finished")
        os.killpg(only.pid, signal.SIGKILL)
        out, err = cli.communicate(timeout=120)
    finally:
        if cli.poll() is None:
            cli.kill()
    assert cli.returncode == 2, (out, err)
    assert err.count("\n") == 1 and "no worker left" in err and "Traceback" not in err, err


@pytest.mark.slow
def test_a_worker_of_another_harness_version_is_refused_in_one_line(cluster: DaskCluster, tmp_path: Path) -> None:
    other = tmp_path / "other-version"
    other.mkdir()
    # At the worker's start, its harness is given another version (`harness.version` is where it is written).
    (other / "sitecustomize.py").write_text("import harness.version\nharness.version.VERSION = '9.9.9'\n")
    cluster.add_worker("old", PYTHONPATH=f"{other}{os.pathsep}{cluster.env()['PYTHONPATH']}")
    run = verify(["reference", "--range", "1-100", "--cluster", cluster.address], dict(os.environ), tmp_path)
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert run.stderr.count("\n") == 1 and "has freecell-harness 9.9.9, but " in run.stderr, run.stderr
