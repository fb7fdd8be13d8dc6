"""Ctrl-C or SIGTERM to `verify` stops every worker and dealer process, prints the verdict so far
(keeping a failure already found), writes the report marked interrupted, leaves a resumable log
and exits 130 — whatever the adapter."""

from __future__ import annotations

import fcntl
import json
import os
import shlex
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from conftest import wait_for

TESTS = Path(__file__).parent
DEALER = TESTS / "dealers" / "slow_dealer.py"
# What may follow a Ctrl-C beyond what the pipe held: Python's stdout buffers (8 KiB each), and what the
# kernel takes into the pipe while it is drained as the signal lands.  A batch of lines is 65,536 deals,
# some 10 MB: going on to the end of the batch in hand would be many times more.
AFTER_CTRL_C = 1 << 20


def _impl(kind: str, directory: Path) -> str:
    program = shlex.join([sys.executable, str(DEALER)])
    if kind == "py":
        return "py:slow_dealer:deal"
    if kind == "cmd":
        return f"cmd:{program} {{n}}"
    if kind == "stream":
        return f"stream:{program}"
    good = (TESTS / "js" / "good.js").read_text().replace("function dealFreeCell(n)", "function correct(n)")
    path = directory / "slow_then_wrong.js"
    path.write_text((TESTS / "js" / "slow_then_wrong.js").read_text() + good)
    return f"node:{path}"


def marked_processes(marker: str) -> list[int]:
    """Live processes (not zombies) whose environment holds the marker."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            environ = Path(entry.path, "environ").read_bytes()
            state = Path(entry.path, "stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in environ and state != b"Z":
            found.append(int(entry.name))
    return found


def _as_from_a_terminal() -> None:
    """Ctrl-C at its default, as a terminal's foreground job has it: a test run started in the background
    of a script (`cmd &`) inherits SIGINT ignored, and the harness keeps an ignored SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(
    ("kind", "how"),
    [("py", "ctrl-c"), ("cmd", "kill"), ("stream", "ctrl-c"), ("node", "kill")],
)
def test_an_interrupt_stops_everything_and_keeps_the_failure_found(
    kind: str, how: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if kind == "node":
        request.getfixturevalue("node")
    marker = f"FREECELL_TEST_MARKER={uuid.uuid4().hex}"
    env = dict(os.environ, PYTHONPATH=f"{TESTS / 'dealers'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    env[marker.split("=")[0]] = marker.split("=")[1]
    report, log = tmp_path / "report.json", tmp_path / "run.resume"
    argv = [sys.executable, "-m", "harness", "verify", _impl(kind, tmp_path), "--range", "1-20000"]
    argv += ["--jobs", "2", "--report", str(report), "--resume", str(log)]
    cli = subprocess.Popen(
        argv,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_as_from_a_terminal,
    )
    try:
        # Deals 1-10000 are slow; block 10001-20000 fails at once and is logged: then interrupt.
        wait_for(lambda: log.exists() and '"failure":{' in log.read_text(), "the failure at 10001 logged")
        assert len(marked_processes(marker)) >= 3  # the CLI, its workers, and dealers
        if how == "ctrl-c":
            os.killpg(cli.pid, signal.SIGINT)  # a terminal sends Ctrl-C to the whole foreground group
        else:
            os.kill(cli.pid, signal.SIGTERM)
        out, err = cli.communicate(timeout=60)
    finally:
        if cli.poll() is None:
            cli.kill()
    assert cli.returncode == 130, err
    # SPEC: within two seconds every child process is gone (one killed a moment ago may still be exiting).
    deadline = time.monotonic() + 2
    while marked_processes(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marked_processes(marker) == [], "processes outlived the run"
    assert "first mismatch at deal 10001" in out.decode() and "interrupted" in out.decode()
    assert b"Traceback" not in err
    data = json.loads(report.read_text())
    assert data["interrupted"] is True and data["first_failure"]["deal"] == 10001
    # what it found identical, for report merge: only deals of the slow block, before the failure
    assert isinstance(data["covered"], list) and all(1 <= a <= b <= 10000 for a, b in data["covered"])
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert "run" in entries[0] and {e["block"] for e in entries[1:] if e["failure"]} == {"10001-20000"}
    # The slow block is logged as far as it was compared, for --resume to go on from there (issue 20).
    assert all(e["checked"] < 10000 for e in entries[1:] if e["block"] == "1-10000"), entries


@pytest.mark.parametrize("kind", ["stream", "node"])
def test_workers_and_dealers_die_with_a_main_process_killed_outright(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if kind == "node":
        request.getfixturevalue("node")
    marker = uuid.uuid4().hex
    env = dict(os.environ, FREECELL_TEST_MARKER=marker)
    argv = [sys.executable, "-m", "harness", "verify", _impl(kind, tmp_path), "--range", "1-20000", "--jobs", "2"]
    cli = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: len(marked_processes(marker)) >= 5, "the CLI, two workers and their dealers running")
        cli.kill()
        cli.wait()
        wait_for(lambda: marked_processes(marker) == [], "every worker and dealer gone", limit_s=30)
    finally:
        if cli.poll() is None:
            cli.kill()


def test_a_py_dealer_that_ends_its_process_is_never_a_pass(test_dealers: Path, tmp_path: Path) -> None:
    (tmp_path / "quitter.py").write_text(
        "import os\nimport reference\n\n\ndef deal(n):\n"
        "    if n == 500:\n        os._exit(0)\n    return reference.deal(n).format('line')\n"
    )
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    argv = [sys.executable, "-m", "harness", "verify", "py:quitter:deal", "--range", "1-1000", "--jobs", "1"]
    run = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1 and "CONFORMS" not in run.stdout
    assert "first crash at deal 500" in run.stdout and "Traceback" not in run.stderr


def test_a_run_in_another_thread_leaves_the_signal_handlers_alone() -> None:
    import threading

    from harness.engine import run
    from harness.request import Request

    before = signal.getsignal(signal.SIGTERM)
    results: list[object] = []
    worker = threading.Thread(target=lambda: results.append(run(Request(impl="reference", ranges=((1, 100),)))))
    worker.start()
    worker.join()
    assert len(results) == 1 and getattr(results[0], "checked", None) == 100
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["deal", "--range", "1-2000000000"], "freecell-harness: interrupted\n"),
        (["deal", "--range", "1-2000000000", "--format", "rows"], "freecell-harness: interrupted\n"),
    ],
)
def test_ctrl_c_to_a_long_deal_ends_it_at_once_in_one_line(argv: list[str], said: str) -> None:
    """`deal` computes its next batch in a background thread: Ctrl-C still reaches the main one at once,
    and the line says nothing of a resume log that `deal` does not have."""
    dealing = subprocess.Popen(
        [sys.executable, "-m", "harness", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_as_from_a_terminal,
    )
    assert dealing.stdout is not None
    dealing.stdout.read(1_000_000)  # it is dealing, and blocks on the pipe once that is full
    pipe_held = fcntl.fcntl(dealing.stdout.fileno(), fcntl.F_GETPIPE_SZ)
    dealing.send_signal(signal.SIGINT)
    out, err = dealing.communicate(timeout=60)
    assert (dealing.returncode, err.decode()) == (130, said)
    assert len(out) <= pipe_held + AFTER_CTRL_C, len(out)  # at once, not at the end of the batch in hand


# Sends the harness's process a real SIGINT the moment module $INTERRUPT_AT is first looked for (by it, or
# by one of its workers), and notes that it did in the file $INTERRUPT_FIRED.
INTERRUPTER = """
import os, signal, sys
MAIN, AT, FIRED = os.getpid(), os.environ["INTERRUPT_AT"], os.environ["INTERRUPT_FIRED"]
class Interrupter:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name == AT and Interrupter in sys.meta_path:
            sys.meta_path.remove(Interrupter)
            open(FIRED, "w").close()
            os.kill(MAIN, signal.SIGINT)
        return None
sys.meta_path.insert(0, Interrupter)
"""


@pytest.mark.parametrize(
    "module",
    [
        "harness.lazy",  # the package's first import, right after its first lines
        "harness.process",
        "harness.process.interrupts",
        "harness.cli",
        "numpy",
        "harness.engine",
        "harness.compare",
        "harness.text",  # the verdict's words, at the end
    ],
)
@pytest.mark.parametrize("entry", [["-m", "harness"], ["-c", "from harness.__main__ import main; main()"]])
def test_ctrl_c_at_any_moment_of_the_start_is_130_in_one_line(module: str, entry: list[str], tmp_path: Path) -> None:
    """A Ctrl-C that comes while the command line, NumPy, the engine … are imported, from the first line of
    the harness's own that runs (what the interpreter runs before it is not ours to catch)."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(INTERRUPTER)
    fired = tmp_path / "fired"
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(hook), str(TESTS.parent)]),
        INTERRUPT_AT=module,
        INTERRUPT_FIRED=str(fired),
    )
    if entry[0] == "-c":  # as the `freecell-harness` script runs it: argv[0] names the command
        entry = ["-c", f"import sys; sys.argv[0] = 'freecell-harness'; {entry[1]}"]
    done = subprocess.run(
        # 5,000 deals: a run long enough for the reference to deal with NumPy (a short one deals without)
        [sys.executable, *entry, "verify", "reference", "--range", "1-5000", "--quiet"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
    )
    assert fired.exists(), f"{module} was never imported: the case tests nothing"
    assert (done.returncode, done.stderr.count("\n")) == (130, 1), done.stderr
    assert done.stderr.startswith("freecell-harness: interrupted") and "Traceback" not in done.stderr, done.stderr
