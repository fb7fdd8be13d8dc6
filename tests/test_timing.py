"""Verdicts that do not depend on the clock (issue 20): slow starts, busy machines, slow moments.

Every test here runs with both cores kept busy (`busy_cores`), and its dealers start slowly
behind `sh -c 'sleep S; exec …'` or sleep where a busy runner would be slow: what is checked and
what is reported must be the same as on a quiet machine.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.cli import main

PY = sys.executable

# Keeps one core busy for at most two minutes, even if the test that started it is killed.
HOG = "import time\nend = time.monotonic() + 120\nwhile time.monotonic() < end: pass\n"


@pytest.fixture
def busy_cores() -> Iterator[None]:
    """Both cores (or as many as this process may use) kept busy while the test runs."""
    hogs = [subprocess.Popen([PY, "-c", HOG]) for _ in range(max(2, len(os.sched_getaffinity(0))))]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


# A dealer of lines; BEFORE runs once before the first number is read, SLOW before each answer
# (both may use `first`, true in the first process started in this directory only).
DEALER = textwrap.dedent(
    """
    import os, sys, time
    import reference
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        os.close(os.open(os.path.join(here, "started"), os.O_CREAT | os.O_EXCL))
        first = True
    except FileExistsError:
        first = False
    {before}
    def answer(n):
        {slow}
        print(reference.deal(n).format("line"), flush=True)
    if len(sys.argv) > 1:
        answer(int(sys.argv[1]))
    else:
        for line in sys.stdin:
            answer(int(line))
    """
)


def dealer(tmp_path: Path, *, before: str = "pass", slow: str = "pass") -> Path:
    path = tmp_path / "dealer.py"
    path.write_text(DEALER.format(before=before, slow=slow))
    return path


def verify(
    *argv: str, capsys: pytest.CaptureFixture[str], report: Path | None = None
) -> tuple[int, str, dict[str, object]]:
    extra = ["--report", str(report)] if report else []
    status = main(["verify", *argv, "--jobs", "1", "--quiet", *extra])
    out = capsys.readouterr().out
    data = json.loads(report.read_text()) if report else {}
    return status, out, data


@pytest.mark.parametrize("kind", ["stream", "cmd"])
def test_a_slow_start_is_not_a_timeout(
    kind: str, tmp_path: Path, busy_cores: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """A program that takes longer to start than --timeout allows a deal (a JVM on a busy runner)."""
    script = dealer(tmp_path)
    # Twice --timeout, however fast the machine: a start that only --timeout bounded would time out.
    program = f"sh -c 'sleep 2; exec {PY} {script}" + (" {n}'" if kind == "cmd" else "'")
    deals = "1-40" if kind == "stream" else "1-2"
    status, out, _ = verify(f"{kind}:{program}", "--range", deals, "--timeout", "1", capsys=capsys)
    assert status == 0 and out.startswith("CONFORMS"), out


@pytest.mark.parametrize("kind", ["stream", "cmd"])
def test_startup_timeout_bounds_a_start_that_never_ends(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = dealer(tmp_path, before="time.sleep(3600)")  # it never starts: any bound is waited out in full
    status, out, _ = verify(
        f"{kind}:{PY} {script}", "--range", "1-5", "--timeout", "0.5", "--startup-timeout", "0.5", capsys=capsys
    )
    assert status == 1 and "first timeout at deal 1" in out and "did not start" in out, out


CRASH_REPORT = "print('fatal: segmentation fault, writing a core dump', file=sys.stderr, flush=True)"


@pytest.mark.parametrize(
    ("kind", "stuck", "quoted"),
    [
        ("cmd", "time.sleep(3600)", None),
        ("cmd", f"{CRASH_REPORT}; time.sleep(3600)", "fatal: segmentation fault"),
        ("stream", f"{CRASH_REPORT}; time.sleep(3600)", "fatal: segmentation fault"),
    ],
)
def test_a_process_stuck_after_deals_were_answered_is_described_as_it_was(
    kind: str, stuck: str, quoted: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Deals 1-3 answered, then stuck at deal 4 (a crash handler that never ends, a core dump): it is no
    program that "did not start"; what it wrote on stderr is quoted."""
    script = dealer(tmp_path, slow=f"if n == 4: {stuck}")
    program = f"{PY} {script}"
    # --timeout 1: deal 4 is waited out four times (dealt, pinned, narrowed); a start gets 2 s more
    status, out, _ = verify(
        f"{kind}:{program}", "--range", "1-6", "--timeout", "1", "--startup-timeout", "2", capsys=capsys
    )
    assert status == 1 and "first timeout at deal 4" in out, out
    assert "did not start" not in out, out
    if quoted is not None:
        assert f"stderr: {quoted}" in out, out


@pytest.mark.parametrize(("wrong", "first"), [(None, [400, "timeout"]), (350, [350, "mismatch"])])
def test_a_hang_inside_a_chunk_is_waited_out_to_meet_it_and_to_pin_it_only(
    wrong: int | None, first: list[object], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Deal 400 hangs, in the chunk 337-500: the first pass meets it and pins it there (dealt alone); then
    only the deals before it in the chunk are compared again, alone (the hang was waited out eight times,
    narrowing the chunk down to it again).  A wrong deal before it in the chunk is still the first failure."""
    hung = tmp_path / "hung"
    slow = f"if n == 400: open({str(hung)!r}, 'a').write('x'); time.sleep(3600)"
    if wrong is not None:
        slow += f"\n    if n == {wrong}: n += 1"
    script = dealer(tmp_path, slow=slow)
    status, out, data = verify(
        f"stream:{PY} {script}", "--range", "1-500", "--timeout", "1", "--startup-timeout", "2",
        capsys=capsys, report=tmp_path / "r.json",
    )  # fmt: skip
    failure = data["first_failure"]
    assert status == 1 and isinstance(failure, dict), out
    assert [failure["deal"], failure["kind"]] == first, failure
    assert len(hung.read_text()) == 2, f"deal 400 dealt {len(hung.read_text())} times"


def test_a_timeout_that_does_not_recur_is_a_timeout_not_non_determinism(
    tmp_path: Path, busy_cores: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first process, once started, is slow to answer deal 1; every later process is quick."""
    script = dealer(tmp_path, slow="if first and n == 1: time.sleep(30)")
    status, out, data = verify(
        f"stream:{PY} {script}", "--range", "1-40", "--timeout", "1", capsys=capsys, report=tmp_path / "r.json"
    )
    failure = data["first_failure"]
    assert isinstance(failure, dict), out
    assert status == 1 and (failure["deal"], failure["kind"]) == (1, "timeout"), out
    assert "non-deterministic" not in failure["message"] and "agreed" not in failure["message"], failure
    assert failure["message"].count("did not recur") == 1, failure


def test_an_interrupted_run_counts_its_partial_block_is_not_conformant_and_resumes_from_there(
    tmp_path: Path, busy_cores: None
) -> None:
    """A slow cmd: dealer, stopped by SIGTERM inside its only block: what was compared counts, and the
    run continued with --resume deals the rest of the block only."""
    log = tmp_path / "dealt.log"
    script = dealer(tmp_path, slow=f"open({str(log)!r}, 'a').write(f'{{n}}\\n')")
    argv = [PY, "-m", "harness", "verify", f"cmd:{PY} {script} {{n}}", "--range", "1-60", "--jobs", "1", "-q"]
    argv += ["--resume", str(tmp_path / "resume.log"), "--report", str(tmp_path / "r.json")]
    run = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    try:
        for _ in range(1200):  # until 20 deals were dealt (at most two minutes)
            if log.exists() and len(log.read_text().split()) >= 20:
                break
            with contextlib.suppress(subprocess.TimeoutExpired):
                run.wait(0.1)
        run.send_signal(signal.SIGTERM)
        out, _ = run.communicate(timeout=60)
    finally:
        run.kill()
    first = json.loads((tmp_path / "r.json").read_text())
    assert run.returncode == 130, out
    assert first["interrupted"] is True and first["conformant"] is None, first
    assert first["checked"] >= 16 and f"{first['checked']} deals checked" in out, (first, out)  # a chunk of 16 at least
    log.write_text("")
    again = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    second = json.loads((tmp_path / "r.json").read_text())
    assert again.returncode == 0 and second["conformant"] is True, again.stdout
    assert (second["checked"], second["resumed"]) == (60, first["checked"]), second
    assert sorted(map(int, log.read_text().split())) == list(range(first["checked"] + 1, 61))


# Answers each number as it reads it, but writes them only when its stdin ends: a buffering program.
BUFFERING = textwrap.dedent(
    """
    import sys
    import reference
    out = open(1, "w", buffering=1 << 20, closefd=False)
    for line in sys.stdin:
        out.write(reference.deal(int(line)).format("rows"))
    out.flush()
    """
)


@pytest.mark.parametrize(
    ("program", "buffering"),
    [
        ("slow start, slow first deals", False),
        # An event loop waiting on a timer (select with a timeout) sleeps for a set time, as a sleep does.
        ("slow start, first deals after a timer", False),
        ("buffering", True),
    ],
)
def test_buffering_is_told_from_slowness_by_what_the_program_does(
    program: str, buffering: bool, tmp_path: Path, busy_cores: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """A program that answers as it reads, behind a slow start and slow first answers, keeps one process
    for the whole block; a program that writes only at the end of its input gets one per chunk, and
    the verdict says so and why."""
    starts = tmp_path / "starts"
    if buffering:
        script = tmp_path / "buffering.py"
        script.write_text(f"open({str(starts)!r}, 'a').write('x')\n" + BUFFERING)
    else:
        wait = "time.sleep(0.25)" if "timer" not in program else "__import__('select').select([], [], [], 0.25)"
        slow = f"if n <= 4 or 16 < n <= 20: {wait}"
        script = dealer(tmp_path, before=f"open({str(starts)!r}, 'a').write('x')", slow=slow)
    status, out, _ = verify(f"stream:sh -c 'sleep 1; exec {PY} {script}'", "--range", "1-3000", capsys=capsys)
    assert status == 0 and out.startswith("CONFORMS"), out
    # 3000 deals are dealt in chunks of 16, 64, 256, 1024 and 1640 (the slow deals: the first two chunks' first four).
    assert (len(starts.read_text()), "process of its own" in out) == ((5, True) if buffering else (1, False)), out


def test_a_dealer_wrong_after_many_deals_in_one_process_is_found_whatever_the_load(
    tmp_path: Path, busy_cores: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its 200th answer in one process is wrong: the same verdict on every run, slow start or not."""
    script = dealer(
        tmp_path,
        before="answered = [0]",
        slow="answered[0] += 1\n    if answered[0] == 200: n += 1",
    )
    status, out, data = verify(
        f"stream:sh -c 'sleep 1; exec {PY} {script}'", "--range", "1-3000", capsys=capsys, report=tmp_path / "r.json"
    )
    failure = data["first_failure"]
    assert status == 1 and isinstance(failure, dict), out
    assert (failure["deal"], failure["kind"]) == (200, "mismatch") and "stateful" in failure["message"], failure


def test_blocks_go_to_the_same_processes_in_the_same_order_whatever_the_load(tmp_path: Path, busy_cores: None) -> None:
    """Two workers, blocks of 100: block i is dealt by worker i mod 2, so a dealer whose 250th answer in
    one process is wrong goes wrong at deal 450 (the 50th deal of its first worker's third block), in the
    chunk 417-480 of that block, every run; dealt again from a fresh process, that chunk is right, and the
    verdict says the dealer is stateful."""
    from harness import engine
    from harness.request import Request

    script = dealer(tmp_path, before="answered = [0]", slow="answered[0] += 1\n    if answered[0] == 250: n += 1")
    request = Request(impl=f"stream:{PY} {script}", ranges=((1, 1000),), jobs=2, block_size=100)
    outcome = engine.run(request)
    failure = outcome.first_failure
    assert failure is not None and (failure.deal, failure.kind) == (417, "error"), failure
    assert "deals 417-480" in failure.message and "stateful" in failure.message, failure
