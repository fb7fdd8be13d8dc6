"""The `freecell-harness` command's launcher (harness/launcher.c): Ctrl-C and SIGTERM are blocked from its first
instruction, through the interpreter's own start-up, until the package's first lines hold them, so that one
that comes at any moment is exit 130 in one line.  Run without it (`freecell-harness-python`, the script it
runs), one that comes while the interpreter starts ends it with the interpreter's own traceback, or kills it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import IN_CI, need_tools

ROOT = Path(__file__).resolve().parent.parent
COMMAND = Path(sys.executable).with_name("freecell-harness")
STOPPING = (1 << (signal.SIGINT - 1)) | (1 << (signal.SIGTERM - 1))  # their bits in /proc/PID/status SigBlk


def installed_launcher() -> Path:
    """The installed command, which must be there; that it is the launcher, not the script it runs (as an install
    where no C compiler was has it), fails in CI and skips, loudly, elsewhere."""
    assert COMMAND.exists(), f"the command is not installed beside {sys.executable}"
    if COMMAND.read_bytes()[:2] == b"#!":
        message = f"{COMMAND} is a script: the launcher was not built (install the package where a C compiler is)"
        if IN_CI:
            pytest.fail(f"required in CI: {message}")
        pytest.skip(f"LAUNCHER MISSING, test not run: {message}")
    return COMMAND


def _as_from_a_terminal() -> None:
    """Ctrl-C at its default, as a terminal's foreground job has it (a run started in the background of a script
    inherits it ignored, and an ignored Ctrl-C stays ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _blocked(pid: int | str) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16)


# Sends its own process the signal $SIGNAL_AT_SITE while `site` imports it, within the interpreter's start-up,
# and notes in the file $SIGNAL_SENT whether the harness had been imported yet; both variables are taken
# away first, so that no process started later sends it again.
AT_SITE = """
import os, signal, sys
name, sent = os.environ.pop("SIGNAL_AT_SITE", ""), os.environ.pop("SIGNAL_SENT", "")
if name:
    open(sent, "w").write(str("harness" in sys.modules))
    os.kill(os.getpid(), getattr(signal, name))
"""


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize(
    "argv", [["deal", "1"], ["verify", "reference", "--range", "1-50", "--quiet"]], ids=["deal", "verify"]
)
def test_a_signal_while_the_interpreter_starts_is_130_in_one_line(
    argv: list[str], signame: str, tmp_path: Path
) -> None:
    """Without the launcher the same run ends with a traceback of `site` (SIGINT, exit 1) or by the signal
    (SIGTERM): what the launcher is for."""
    command = installed_launcher()
    (tmp_path / "sitecustomize.py").write_text(AT_SITE)
    sent = tmp_path / "sent"
    env = dict(os.environ, PYTHONPATH=str(tmp_path), SIGNAL_AT_SITE=signame, SIGNAL_SENT=str(sent))
    done = subprocess.run(
        [command, *argv],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
        preexec_fn=_as_from_a_terminal,
    )
    assert sent.read_text() == "False", "not sent before the harness's first line: the case tests nothing"
    assert (done.returncode, done.stderr.count("\n")) == (130, 1), done.stderr
    assert done.stderr.startswith("freecell-harness: interrupted") and "Traceback" not in done.stderr, done.stderr


def _started(run: subprocess.Popen[str], launcher: str) -> bool:
    """The launcher has run its first instruction: the signals are blocked, or it has started Python already."""
    if run.poll() is not None:
        pytest.fail(f"the command ended before it was interrupted: {run.returncode}, {run.communicate()}")
    try:
        return _blocked(run.pid) & STOPPING == STOPPING or os.readlink(f"/proc/{run.pid}/exe") != launcher
    except OSError:  # it ended a moment ago
        return False


# Runs that go on for hours unless interrupted: a case never passes by having finished first.
LONG = {
    "deal": ["deal", "--range", "1-2000000000"],
    "verify": ["verify", "reference", "--range", "1-1000000000", "--jobs", "1", "--quiet"],
}


@pytest.mark.parametrize(
    ("run_of", "signame", "delay_ms"),
    [("deal", "SIGINT", ms) for ms in (0, 1, 2, 5, 10, 20, 40)]
    + [("deal", "SIGTERM", ms) for ms in (0, 5, 20)]
    + [("verify", "SIGINT", ms) for ms in (0, 5, 20)],
)
def test_a_signal_at_any_moment_from_the_launcher_s_first_instruction_is_130_in_one_line(
    run_of: str, signame: str, delay_ms: int
) -> None:
    """The moment is counted from the launcher's first instruction: before it, the program is not yet running
    (from the fork, a shell's child has Ctrl-C at its default until the exec, and the kernel's exec is not ours)."""
    command = installed_launcher()
    launcher = os.path.realpath(command)
    run = subprocess.Popen(
        [command, *LONG[run_of]],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_as_from_a_terminal,
    )
    try:
        deadline = time.monotonic() + 60
        while not _started(run, launcher):
            if time.monotonic() > deadline:
                pytest.fail("never saw the launcher block the signals or start Python")
        time.sleep(delay_ms / 1000)
        run.send_signal(getattr(signal, signame))
        _, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert (run.returncode, err.count("\n")) == (130, 1), err
    assert err.startswith("freecell-harness: interrupted") and "Traceback" not in err, err


def test_the_command_runs_with_ctrl_c_and_sigterm_unblocked() -> None:
    """In every thread: the launcher blocked them, and `deal` unblocks nothing of its own."""
    run = subprocess.Popen([installed_launcher(), *LONG["deal"]], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert run.stdout is not None and run.stdout.read(1)  # it is dealing
        threads = {t.name: _blocked(f"{run.pid}/task/{t.name}") for t in os.scandir(f"/proc/{run.pid}/task")}
    finally:
        run.kill()
        run.communicate()
    assert {t: mask & STOPPING for t, mask in threads.items()} == dict.fromkeys(threads, 0), threads


# A `cmd:` dealer that deals as the reference does, and notes, for itself and each process above it, its
# pid, name and blocked signals (SigBlk) in the file $SIGBLK_LOG.
DEALER = """
import os, sys
import reference
pid, lines = str(os.getpid()), []
while pid != "0":
    status = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
    lines.append(" ".join([pid, status["Name"].strip(), status["SigBlk"].strip()]))
    pid = status["PPid"].strip()
with open(os.environ["SIGBLK_LOG"], "a") as log:
    log.write(" | ".join(lines) + "\\n")
print(reference.deal(int(sys.argv[1])).format("line"))
"""


def test_nothing_the_command_starts_has_ctrl_c_or_sigterm_blocked(tmp_path: Path) -> None:
    """The launcher blocked them for the command's whole start: the command itself, the processes between it and
    a dealer, and the dealer have them unblocked once it runs."""
    command = installed_launcher()
    (tmp_path / "dealer.py").write_text(DEALER)
    log = tmp_path / "sigblk.log"
    env = dict(os.environ, SIGBLK_LOG=str(log), PYTHONPATH=str(ROOT))
    impl = f"cmd:{sys.executable} {tmp_path / 'dealer.py'} {{n}}"
    run = subprocess.Popen(
        [command, "verify", impl, "--range", "1-3", "--jobs", "1", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        _, err = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert run.returncode == 0, err
    chains = [line.split(" | ") for line in log.read_text().splitlines()]
    assert chains, "the dealer never ran"
    for chain in chains:
        pids = [int(entry.split()[0]) for entry in chain]
        assert run.pid in pids, f"the command ({run.pid}) is not above the dealer: {chain}"
        up_to_the_command = chain[: pids.index(run.pid) + 1]
        assert [e for e in up_to_the_command if int(e.split()[-1], 16) & STOPPING] == [], up_to_the_command


PRINTS_HOW_IT_RUNS = """
import json, sys
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
print(json.dumps({"script": sys.argv[0], "args": sys.argv[1:], "no_site": sys.flags.no_site,
                  "blocked": int(status["SigBlk"], 16)}))
"""


@pytest.mark.parametrize(
    ("reached_by", "first_line", "no_site"),
    [
        ("its path", "#!{python}\n", 0),
        ("a symbolic link elsewhere", "#!{python}\n", 0),
        ("its path", "#!{python} -S\r\n", 1),  # the kernel's `#!interpreter argument`, and a CRLF line
        ("its name on PATH", "#! {python}  \n", 0),
    ],
)
def test_the_launcher_runs_its_sibling_with_the_signals_blocked(
    reached_by: str, first_line: str, no_site: int, tmp_path: Path
) -> None:
    home = tmp_path / "bin"
    home.mkdir()
    launcher = home / "freecell-harness"
    shutil.copy(installed_launcher(), launcher)
    sibling = home / "freecell-harness-python"
    sibling.write_text(first_line.format(python=sys.executable) + PRINTS_HOW_IT_RUNS)
    argv: list[str | Path] = [launcher, "a b", "", "--c"]
    env = dict(os.environ)
    if reached_by == "a symbolic link elsewhere":
        (tmp_path / "elsewhere").mkdir()
        argv[0] = tmp_path / "elsewhere" / "fh"
        (tmp_path / "elsewhere" / "fh").symlink_to(launcher)
    elif reached_by == "its name on PATH":
        argv[0] = "freecell-harness"
        env["PATH"] = f"{home}{os.pathsep}{env['PATH']}"
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, env=env)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    ran = json.loads(done.stdout)
    assert ran == {"script": str(sibling), "args": ["a b", "", "--c"], "no_site": no_site, "blocked": ran["blocked"]}
    assert ran["blocked"] & STOPPING == STOPPING


@pytest.mark.parametrize(
    ("sibling", "said"),
    [
        (None, "{sibling}: No such file or directory"),
        ("", "{sibling}: it is empty"),
        ("import sys\n", "{sibling}: its first line is not #!<interpreter>"),
        ("#!\n", "{sibling}: its #! line names no interpreter"),
        ("#!/no/such/python\nimport sys\n", "/no/such/python: No such file or directory"),
        ("#!{tmp}\n", "{tmp}: Permission denied"),  # a directory
    ],
)
def test_what_stops_the_launcher_is_one_line_and_exit_2(sibling: str | None, said: str, tmp_path: Path) -> None:
    launcher = tmp_path / "freecell-harness"
    shutil.copy(installed_launcher(), launcher)
    path = tmp_path / "freecell-harness-python"
    if sibling is not None:
        path.write_text(sibling.format(tmp=tmp_path))
    done = subprocess.run([launcher, "deal", "1"], capture_output=True, text=True, timeout=60)
    expected = f"freecell-harness: cannot start Python: {said.format(sibling=path, tmp=tmp_path)}\n"
    assert (done.returncode, done.stdout, done.stderr) == (2, "", expected)


@pytest.mark.parametrize("standard", [[], ["-std=c99", "-pedantic"], ["-std=c17", "-pedantic"]])
@pytest.mark.parametrize("source", ["harness/launcher.c", "harness/process/spawner.c"])
def test_the_launcher_and_the_spawner_compile_without_a_warning(
    source: str, standard: list[str], tmp_path: Path
) -> None:
    """The spawner in C (spawner.c) is tested in tests/test_spawner.py, beside the one in Python."""
    need_tools("cc")
    argv = ["cc", *standard, "-O2", "-Wall", "-Wextra", "-c", str(ROOT / source)]
    done = subprocess.run([*argv, "-o", str(tmp_path / "compiled.o")], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
