"""Dealer processes are started by spawners (`harness.process.spawner`), small single-threaded processes
that start them with posix_spawn: a dealer dies with the harness process however it ends, whatever
thread started it (the spawner kills what it started when the harness's socket closes; a dealer has
no parent-death signal of its own), and what cannot be started is an OSError of the kind the kernel
gave.  What escaped them all is the sentinel's (`harness.process.sentinel`).

Every case runs with each spawner and sentinel: the ones in C (`_spawner`, built at install where a C
compiler is: in CI it must be, elsewhere its cases skip loudly without it) and the ones in Python
(spawner_main.py, the sentinel's script)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import IN_CI

from harness import process
from harness.limits import NO_LIMITS, Limits
from harness.process import cgroups, interrupts, spawner
from harness.process.compiled import COMPILED
from harness.process.sentinel import start_sentinel

PY = sys.executable
ROOT = Path(__file__).resolve().parent.parent
# Where the harness under test was imported from: a harness-like process these tests start runs there, so that it
# imports the same one (an installed copy has the compiled spawner, the checkout beside it may not).
IMPORTED_FROM = Path(process.__file__).resolve().parent.parent.parent
SLEEPER = "import time; time.sleep(300)"


def need_c_spawner() -> None:
    """The spawner in C built: missing fails in CI, skips loudly elsewhere."""
    if not os.access(COMPILED, os.X_OK):
        message = f"{COMPILED} is not built (install the package where a C compiler is)"
        if IN_CI:
            pytest.fail(f"required in CI: {message}")
        pytest.skip(f"C SPAWNER MISSING, test not run: {message}")


@pytest.fixture(params=["c", "python"], autouse=True)
def spawner_kind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The spawner this case's processes are started by, here and in the processes it starts: the idle
    spawners of the other kind are ended first, so that this one is really used."""
    if request.param == "c":
        need_c_spawner()
        monkeypatch.delenv("FREECELL_HARNESS_SPAWNER", raising=False)
    else:
        monkeypatch.setenv("FREECELL_HARNESS_SPAWNER", "python")
    spawner.close_spawners()
    yield request.param
    spawner.close_spawners()


def _assert_run_by(kind: str, spawner_pid: int) -> None:
    """Spawner `spawner_pid` is the one of `kind`."""
    exe = os.readlink(f"/proc/{spawner_pid}/exe")
    command = Path(f"/proc/{spawner_pid}/cmdline").read_bytes().split(b"\0")
    if kind == "c":
        assert exe == os.path.realpath(COMPILED), exe
    else:
        assert exe == os.path.realpath(sys.executable) and str(spawner._MAIN).encode() in command, (exe, command)


def test_the_spawner_run_is_the_one_of_its_kind(spawner_kind: str) -> None:
    """The C one is the default where it was built; FREECELL_HARNESS_SPAWNER=python runs the Python one."""
    process.run(["true"], None, 60, 10, NO_LIMITS)
    _assert_run_by(spawner_kind, spawner._idle[0].pid)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != b"Z"


def _gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _alive(pid)


# A harness-like process without its sentinel (so that only its spawner can end its dealer):
# it starts a dealer from the main thread, from a thread that has ended since, or from one still running,
# prints the dealer's pid, and waits to be killed.
HARNESS = """
import sys, threading, time
from harness.process import child, supervisor
supervisor.start_sentinel = lambda *args: None
where, argv = sys.argv[1], sys.argv[2:]
started = []
if where == "main thread":
    started.append(child.spawn(argv))
else:
    thread = threading.Thread(target=lambda: started.append(child.spawn(argv)))
    thread.start()
    thread.join()
    if where == "live thread":
        threading.Thread(target=time.sleep, args=(300,), daemon=True).start()
print(started[0].pid, flush=True)
time.sleep(300)
"""


@pytest.mark.parametrize("where", ["main thread", "ended thread", "live thread"])
def test_a_dealer_dies_with_a_harness_killed_outright(where: str) -> None:
    marker = f"spawner-{uuid.uuid4().hex}"
    harness = subprocess.Popen(
        [PY, "-c", HARNESS, where, PY, "-c", SLEEPER, marker], stdout=subprocess.PIPE, cwd=IMPORTED_FROM, text=True
    )
    try:
        assert harness.stdout is not None
        dealer = int(harness.stdout.readline())
        time.sleep(0.5)  # a parent-death signal tied to an ended thread would have fired by now
        assert _alive(dealer), "the dealer died before the harness did"
        harness.kill()
        harness.wait()
        assert _gone_within(dealer, 10), "the dealer outlived a harness killed with SIGKILL"
    finally:
        harness.kill()
        harness.wait()


# A worker's SIGTERM handler kills every child and exits; it may interrupt its own thread while that
# thread waits for the very dealer it kills.
WAITER = """
import os, signal, sys, threading
from harness.process import child, interrupts
dealer = child.spawn(sys.argv[1:])
print(dealer.pid, flush=True)
def terminated(signum, frame):
    interrupts.kill_children()
    os._exit(143)
signal.signal(signal.SIGTERM, terminated)
threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM)).start()
while True:
    dealer.wait(0.05)
"""


def test_a_signal_handler_kills_the_dealer_its_thread_was_waiting_for() -> None:
    worker = subprocess.Popen(
        [PY, "-c", WAITER, PY, "-c", SLEEPER], stdout=subprocess.PIPE, cwd=IMPORTED_FROM, text=True
    )
    try:
        assert worker.stdout is not None
        dealer = int(worker.stdout.readline())
        assert worker.wait(timeout=60) == 143
        assert _gone_within(dealer, 10)
    finally:
        worker.kill()
        worker.wait()


@pytest.mark.parametrize(
    ("program", "error"),
    [
        ("no-such-program-anywhere", FileNotFoundError),
        ("/no/such/dir/program", FileNotFoundError),
        (__file__, PermissionError),  # a file, not executable
        (str(Path(__file__).parent), PermissionError),  # a directory
    ],
)
def test_what_cannot_be_started_is_the_oserror_the_kernel_gave(program: str, error: type[OSError]) -> None:
    with pytest.raises(error):
        process.spawn([program])


def test_a_dealer_runs_in_the_harness_s_working_directory_of_the_moment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run = process.run([PY, "-c", "import os; print(os.getcwd())"], None, 60, 1 << 10, NO_LIMITS)
    assert run.stdout.decode().strip() == str(tmp_path)


def test_a_dealer_starts_with_the_signals_a_program_expects() -> None:
    """Nothing ignored or blocked that a program would not be started with (SIGPIPE kills a writer)."""
    run = process.run(["cat", "/proc/self/status"], None, 60, 1 << 16, NO_LIMITS)  # not Python: it ignores SIGPIPE
    status = dict(line.split(":\t", 1) for line in run.stdout.decode().splitlines() if ":\t" in line)
    blocked, ignored = int(status["SigBlk"], 16), int(status["SigIgn"], 16)
    assert blocked == 0
    for number in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT, signal.SIGTERM, signal.SIGCHLD):
        assert not ignored & (1 << (number - 1)), signal.Signals(number).name


@pytest.mark.parametrize("signame", ["SIGHUP", "SIGINT", "SIGQUIT", "SIGUSR1", "SIGTERM", "SIGPIPE"])
def test_a_dealer_has_no_signal_ignored_that_its_harness_ignored(signame: str) -> None:
    """nohup's SIGHUP, a background job's SIGINT: ignored in the harness, so in the spawner it starts, and reset
    to its default in each dealer."""
    number = getattr(signal, signame)
    before = signal.signal(number, signal.SIG_IGN)
    try:
        run = process.run(["cat", "/proc/self/status"], None, 60, 1 << 16, NO_LIMITS)
    finally:
        signal.signal(number, before)
        spawner.close_spawners()
    status = dict(line.split(":\t", 1) for line in run.stdout.decode().splitlines() if ":\t" in line)
    assert int(status["SigIgn"], 16) & (1 << (number - 1)) == 0
    assert int(status["SigBlk"], 16) == 0


def _raw_spawner(setup: bytes) -> tuple[subprocess.Popen[bytes], socket.socket, bytes]:
    """A spawner of the kind asked for, talked to directly: the process, its socket, its answer to `setup`."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    with theirs:
        started = subprocess.Popen([*spawner._program(), str(theirs.fileno())], pass_fds=[theirs.fileno()])
    ours.send(setup)
    return started, ours, ours.recv(4096)


def _ask(control: socket.socket, argv: list[str], cwd: str, cpu_s: int = 0) -> tuple[bytes, bytes]:
    """Ask for `argv`, its stdout and stderr one pipe: (the answer, what it wrote, once it ended)."""
    read_end, write_end = os.pipe()
    with open(read_end, "rb") as output:
        socket.send_fds(control, [spawner._fields(len(argv), *argv, cwd, "the-marker", cpu_s)], [write_end] * 2)
        os.close(write_end)
        answer = control.recv(4096)
        if answer.startswith(b"P"):
            assert control.recv(4096).startswith(b"X" + answer[1:].split()[0] + b" ")
        return answer, output.read()


def _setup(env: list[str], marker_name: str = "MARK") -> bytes:
    return spawner._fields(None, None, marker_name, 0, 0, 0, len(env), *env)


@pytest.mark.parametrize(
    "setup",
    [
        b"",
        _setup(["A=1"])[:-1],  # not ended by a NUL byte
        _setup(["A=1"]) + b"more\0",
        _setup(["A=1", "A=2"]),
        _setup(["=1"]),
        _setup(["A"]),
        _setup(["A=1"], marker_name="M=N"),
        spawner._fields(None, None, "MARK", 1, 7, "+5", 0, 0, 0),  # not a number
        spawner._fields(None, None, "MARK", 1, 7, "1" * 19, 0, 0, 0),  # a number of 19 digits
        spawner._fields(None, None, "MARK", 5, 0, 0, 0),  # a list longer than the message
    ],
)
def test_a_malformed_setup_is_answered_as_such_and_ends_the_spawner(setup: bytes) -> None:
    started, control, answer = _raw_spawner(setup)
    with control:
        assert answer == b"E0:the spawner could not set itself up: a malformed message"
        assert started.wait(10) == 0


def test_a_malformed_request_is_answered_as_such(tmp_path: Path) -> None:
    started, control, answer = _raw_spawner(_setup(["PATH=/usr/bin:/bin"]))
    with control:
        assert answer == b"J00"
        for request in [
            spawner._fields(1, "true", str(tmp_path), "m", 0)[:-1],
            spawner._fields(1, "true", str(tmp_path), "m", 0) + b"more\0",
            spawner._fields(3, "true", str(tmp_path), "m", 0),
            spawner._fields(1, "true", str(tmp_path), "m", "-1"),
        ]:
            socket.send_fds(control, [request], [1, 2])
            assert control.recv(4096) == b"E0:a malformed message"
        socket.send_fds(control, [spawner._fields(1, "true", str(tmp_path), "m", 0)], [1])
        assert control.recv(4096) == b"E0:1 file descriptors, not 2 or 3"
        assert _ask(control, ["true"], str(tmp_path))[0].startswith(b"P")
    assert started.wait(10) == 0


@pytest.mark.parametrize(
    ("env", "seen"),
    [
        (["A=1", "MARK=before", "Z=2"], ["A=1", "MARK=the-marker", "Z=2"]),  # in its place
        (["A=1", "Z=2"], ["A=1", "Z=2", "MARK=the-marker"]),  # last
    ],
)
def test_a_dealer_gets_the_environment_in_its_order_with_its_marker(
    env: list[str], seen: list[str], tmp_path: Path
) -> None:
    started, control, _ = _raw_spawner(_setup(env))
    with control:
        answer, output = _ask(control, ["/bin/cat", "/proc/self/environ"], str(tmp_path))
    assert answer.startswith(b"P") and output.split(b"\0")[:-1] == [entry.encode() for entry in seen]
    assert started.wait(10) == 0


def test_a_program_is_looked_for_on_path_as_execvp_does(tmp_path: Path) -> None:
    """Each directory of the dealer's PATH in turn (an empty entry: the working directory); where none has it,
    the first error other than "not found"."""
    for where in ("no-exec", "exec", "cwd"):
        (tmp_path / where).mkdir()
    (tmp_path / "no-exec" / "prog").write_text("#!/bin/sh\necho no-exec\n")
    for where in ("exec", "cwd"):
        (tmp_path / where / "prog").write_text(f"#!/bin/sh\necho {where} $0\n")
        (tmp_path / where / "prog").chmod(0o755)
    cases = {
        f"/no/such:{tmp_path}/no-exec:{tmp_path}/exec/": b"exec " + f"{tmp_path}/exec/prog\n".encode(),
        f"/no/such::{tmp_path}/exec": b"cwd prog\n",
        f"/no/such:{tmp_path}/no-exec": b"E13:Permission denied",
        "/no/such": b"E2:No such file or directory",
        "": b"cwd prog\n",
    }
    for path, expected in cases.items():
        started, control, _ = _raw_spawner(_setup([f"PATH={path}"]))
        with control:
            answer, output = _ask(control, ["prog"], str(tmp_path / "cwd"))
        assert (output if answer.startswith(b"P") else answer) == expected, path
        assert started.wait(10) == 0


SPAWNER_PID = """
import time
from harness import process
from harness.process import cgroups, interrupts
from harness.limits import NO_LIMITS, Limits
from harness.process import spawner
process.run(["true"], None, 60, 10, NO_LIMITS)
print(spawner._idle[0].pid, flush=True)
time.sleep(300)
"""


def test_the_spawner_ends_with_its_harness(spawner_kind: str) -> None:
    code = SPAWNER_PID
    harness = subprocess.Popen([PY, "-c", code], stdout=subprocess.PIPE, cwd=IMPORTED_FROM, text=True)
    try:
        assert harness.stdout is not None
        spawner_pid = int(harness.stdout.readline())
        assert _alive(spawner_pid)
        _assert_run_by(spawner_kind, spawner_pid)
        os.kill(harness.pid, signal.SIGKILL)
        harness.wait()
        assert _gone_within(spawner_pid, 10)
    finally:
        harness.kill()
        harness.wait()


def test_a_spawner_killed_from_outside_is_replaced() -> None:
    """An interrupt kills every descendant of the harness (`kill_children`), the spawner too: what is
    started next, even while the spawner is still dying, is started by a fresh one."""
    for _ in range(5):
        run = process.run(["true"], None, 60, 10, NO_LIMITS)
        assert run.returncode == 0
        interrupts.kill_children()  # no wait: the next request may reach the spawner as it dies
        run = process.run(["true"], None, 60, 10, NO_LIMITS)
        assert run.returncode == 0


def test_a_dealer_that_ends_at_once_was_in_its_cgroup() -> None:
    """Whether a dealer joined its cgroup is what it reported before its exec, not what /proc says of
    it later: a dealer that has already ended and been reaped must not turn cgroups off for the run."""
    if not cgroups.cgroup_roots():
        pytest.skip("NO WRITABLE CGROUP HERE, test not run")
    for _ in range(30):  # each ends as soon as it starts: at least one before the harness could look at it
        run = process.run(["true"], None, 60, 10, Limits())
        assert run.returncode == 0
        assert run.child.cgroup is not None
    assert not cgroups.UNJOINABLE


def _marked(marker: str) -> list[int]:
    """Live processes (not zombies) with `marker` in their command line."""
    found = []
    for name in os.listdir("/proc"):
        try:
            if name.isdigit() and marker.encode() in Path(f"/proc/{name}/cmdline").read_bytes() and _alive(int(name)):
                found.append(int(name))
        except OSError:
            continue
    return found


@pytest.mark.parametrize("then", ["kill", "finish"])
def test_a_dealer_whose_spawner_was_killed_is_killed_by_the_harness(then: str) -> None:
    """A dealer has no parent-death signal (posix_spawn cannot ask for one): a spawner killed from outside
    leaves it running, and the harness, seeing the spawner's socket close, kills its tree itself."""
    marker = f"orphan-{uuid.uuid4().hex}"
    dealer = process.spawn([PY, "-c", SLEEPER, marker], limits=Limits())
    os.kill(dealer._spawner.pid, signal.SIGKILL)
    assert dealer.wait(30) == -signal.SIGKILL  # what the harness is told: the spawner took it down
    assert _marked(marker), "the dealer died with its spawner: the test shows nothing"
    if then == "kill":
        dealer.kill()
    else:
        dealer.finish()
    assert _gone_within(dealer.pid, 10)
    assert _marked(marker) == []


FORKS_UNTIL_REFUSED = """
import os, time
for _ in range(8):
    try:
        if os.fork() == 0:
            time.sleep(300)
    except OSError:
        break
"""


def test_a_process_limit_hit_is_blamed_on_the_tree_that_hit_it() -> None:
    """Processes started one after another share their spawner's cgroup: the count of forks it refused
    goes on from one to the next, and only what a tree added is that tree's."""
    if not any(root == cgroups.CGROUP_PIDS for root in cgroups.cgroup_roots()):
        pytest.skip("NO WRITABLE PIDS CGROUP HERE (it alone bounds processes), test not run")
    limits = Limits(processes=4)
    first = process.run([PY, "-c", FORKS_UNTIL_REFUSED], None, 60, 1 << 10, limits)
    assert first.returncode == 0
    assert first.child.limit_hit("") is not None  # it did run into the limit
    second = process.run(["sh", "-c", "exit 3"], None, 60, 1 << 10, limits)
    assert second.child.cgroup is first.child.cgroup is not None  # the same spawner: the case in question
    assert second.returncode == 3
    assert second.child.limit_hit("") is None


def test_a_process_limit_hit_before_the_harness_looks_is_still_blamed_on_its_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The harness, slowed between the spawner's answer and its own next step (a busy machine), still
    blames the limit on the tree that hit it: the refused forks before the tree are counted by the
    spawner as it starts it, not by the harness afterwards, when the tree may have hit the limit."""
    if not any(root == cgroups.CGROUP_PIDS for root in cgroups.cgroup_roots()):
        pytest.skip("NO WRITABLE PIDS CGROUP HERE (it alone bounds processes), test not run")
    answered = spawner.Spawner.started

    def slowly(self: spawner.Spawner) -> int:
        pid = answered(self)
        time.sleep(1)  # the tree forks until refused meanwhile
        return pid

    monkeypatch.setattr(spawner.Spawner, "started", slowly)
    first = process.run([PY, "-c", FORKS_UNTIL_REFUSED], None, 60, 1 << 10, Limits(processes=4))
    assert first.returncode == 0
    assert first.child.limit_hit("") is not None


# A dealer for deals run one process after another: each starts a daemon that escapes its session and
# leaves its pid behind, and says "alive" instead of its board if the daemon of the deal before still runs.
ESCAPING_DEALER = """
import os, sys, time
number, where = int(sys.argv[1]), sys.argv[2]
try:
    before = int(open(os.path.join(where, str(number - 1))).read())
    os.kill(before, 0)
    alive = open(f"/proc/{before}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
except (OSError, ValueError):
    alive = False
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        with open(os.path.join(where, str(number)), "w") as f:
            f.write(str(os.getpid()))
        time.sleep(300)
    os._exit(0)
os.wait()
while not os.path.exists(os.path.join(where, str(number))):
    time.sleep(0.001)
from reference import deal
print("alive" if alive else deal(number).line, end="")
"""


def test_each_deal_s_process_starts_once_the_last_one_s_tree_is_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`cmd:` asks for the next deal's process before the last one has been reported ended: it still
    starts only once every process of the last one's tree, escaped or not, is gone."""
    from harness.adapters.base import DealerOptions
    from harness.adapters.program import CommandDealer
    from reference import deal

    if not cgroups.cgroup_roots():
        pytest.skip("NO WRITABLE CGROUP HERE (only a cgroup finds a daemon at once), test not run")
    dealer_file = tmp_path / "dealer.py"
    dealer_file.write_text(ESCAPING_DEALER)
    dealer = CommandDealer(f"{PY} {dealer_file} {{n}} {tmp_path}", DealerOptions())
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    answers = dealer.lines(list(range(1, 7)))
    assert answers == [deal(n).line.encode() for n in range(1, 7)]


def test_stopping_at_a_failure_kills_the_next_deal_s_process(tmp_path: Path) -> None:
    """`cmd:` starts the next deal's process while it judges the last one's output: when that output is
    the failure the comparison stops at, the next process is killed, not left running."""
    from harness.adapters.base import DealerOptions
    from harness.adapters.program import CommandDealer

    marker = f"next-{uuid.uuid4().hex}"
    waits = tmp_path / "waits.py"  # no board for deal 1; then waits, the marker in its command line
    waits.write_text("import sys, time\nif sys.argv[1] == '1':\n    print('not a board')\nelse:\n    time.sleep(300)\n")
    dealer = CommandDealer(f"{PY} {waits} {{n}} {marker}", DealerOptions())
    answers = dealer.answers_until_failure([1, 2, 3])
    assert [getattr(a, "kind", None) for a in answers] == ["invalid-output"]
    assert _marked(marker) == []


def test_a_read_of_the_spawner_cut_short_does_not_hang_the_kill() -> None:
    """Ctrl-C may land between the spawner's message being read and its being kept: that message is lost,
    and waiting for it would hang the interrupt.  The harness retires that spawner and kills the tree."""
    marker = f"cut-short-{uuid.uuid4().hex}"
    dealer = process.spawn([PY, "-c", SLEEPER, marker], limits=Limits())
    os.kill(dealer.pid, signal.SIGKILL)
    spawner = dealer._spawner
    spawner.reading = True  # as a read that Ctrl-C cut short leaves it …
    assert spawner.control.recv(4096).startswith(b"X")  # … having taken the message it waited for
    killer = threading.Thread(target=dealer.kill, daemon=True)
    killer.start()
    killer.join(60)
    assert not killer.is_alive(), "the kill waited for a message that had been taken"
    assert dealer.returncode is not None
    assert _marked(marker) == []
    assert _gone_within(spawner.pid, 10)  # retired: it ended, with whatever it had started


# A `cmd:` dealer that notes each start in a file of its own (deal N: started-N), then deals.
NOTING_DEALER = """
import sys
from pathlib import Path
from reference import deal
number, notes = int(sys.argv[1]), Path(sys.argv[2])
with open(notes / f"started-{number}", "a") as note:
    note.write("started\\n")
print(deal(number).line, end="")
"""


@pytest.mark.parametrize(
    ("second_call", "used_ahead"),
    [
        ([3, 4, 5], True),  # the processes started ahead (deals 3 and 4) are the ones that deal them
        ([7, 8], False),  # another call: those started ahead are killed, and never asked again
    ],
)
def test_a_cmd_dealer_starts_the_next_call_s_first_deals_as_this_call_s_last_one_ends(
    second_call: list[int], used_ahead: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Told the deals the comparer's next call will ask for, a `cmd:` dealer asks for the first two as its
    last deal's process ends, and keeps them for that call, so that no call begins with a process to start."""
    from harness.adapters.base import DealerOptions
    from harness.adapters.program import CommandDealer
    from reference import deal

    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    (tmp_path / "dealer.py").write_text(NOTING_DEALER)
    starts = {n: tmp_path / f"started-{n}" for n in range(1, 9)}
    with CommandDealer(f"{PY} {tmp_path / 'dealer.py'} {{n}} {tmp_path}", DealerOptions()) as dealer:
        assert dealer.answers_until_failure([1, 2], [3, 4, 5]) == [deal(n).line.encode() for n in (1, 2)]
        deadline = time.monotonic() + 60
        # Its note written, not only its file made: a process killed in between would have noted nothing.
        while not (starts[3].exists() and "started" in starts[3].read_text()) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert starts[3].exists() and "started" in starts[3].read_text(), "deal 3's process was not started ahead"
        assert dealer.answers_until_failure(second_call) == [deal(n).line.encode() for n in second_call]
    counts = {n: path.read_text().count("started") if path.exists() else 0 for n, path in starts.items()}
    assert all(counts[n] == 1 for n in (1, 2, 3, *second_call)), counts
    assert counts[4] == 1 if used_ahead else counts[4] <= 1, counts  # 4 may have been killed before it began
    assert {n for n, count in counts.items() if count} <= {1, 2, 3, 4, *second_call}, counts


def test_a_process_started_ahead_is_killed_at_a_reset(tmp_path: Path) -> None:
    """The process started ahead for a call that never comes (the comparer narrows a failure instead) is
    killed when the dealer is reset, and at its close."""
    from harness.adapters.base import DealerOptions
    from harness.adapters.program import CommandDealer
    from reference import deal

    marker = f"ahead-{uuid.uuid4().hex}"
    waits = tmp_path / "waits.py"  # deal 1, then waits with the marker in its command line
    board = deal(1).line
    waits.write_text(f"import sys, time\nif sys.argv[1] == '1':\n    print({board!r})\nelse:\n    time.sleep(300)\n")
    with CommandDealer(f"{PY} {waits} {{n}} {marker}", DealerOptions()) as dealer:
        assert dealer.answers_until_failure([1], [2]) == [deal(1).line.encode()]
        deadline = time.monotonic() + 60
        while not _marked(marker) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _marked(marker), "deal 2's process was not started ahead"
        dealer.reset()
        assert _marked(marker) == []


def _spawner_pids() -> set[int]:
    """The spawners this process has started that are alive."""
    mine = str(os.getpid())
    found = set()
    for name in os.listdir("/proc"):
        try:
            ours = name.isdigit() and Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[1] == mine
            command = Path(f"/proc/{name}/cmdline").read_bytes().split(b"\0")
            if ours and any(part.endswith((b"spawner_main.py", b"_spawner")) for part in command):
                found.add(int(name))
        except OSError:
            continue
    return found


def test_a_cmd_dealer_started_early_has_its_spawner_ready_for_its_first_deal() -> None:
    """`start_early` (while the other dealer of a worker prepares) starts the spawner the first deal's process
    is then started by: the first deal waits for no Python to start."""
    from harness.adapters.base import DealerOptions
    from harness.adapters.program import CommandDealer
    from reference import deal

    spawner.close_spawners()
    before = _spawner_pids()
    with CommandDealer(
        f"{PY} -c 'from reference import deal; import sys; print(deal(int(sys.argv[1])).line)'", DealerOptions()
    ) as dealer:
        dealer.start_early()
        started_early = _spawner_pids() - before
        assert len(started_early) == 1, started_early
        assert dealer.lines([1]) == [deal(1).line.encode()]
        assert _spawner_pids() - before == started_early
    spawner.close_spawners()


def _commands_naming(text: str) -> list[list[bytes]]:
    """The command lines of the processes one of whose arguments holds `text`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(text.encode() in part for part in command):
            found.append(command)
    return found


def test_the_sentinel_kills_what_its_process_left_and_removes_its_cgroups(spawner_kind: str, tmp_path: Path) -> None:
    """Once the pipe from its harness process closes (that process's end, however), the sentinel kills every
    process whose environment holds the marker, and every member of the cgroups of its prefix, then removes
    them (here in a directory standing for a cgroup hierarchy)."""
    token = uuid.uuid4().hex
    environment = {**os.environ, "FREECELL_TEST_MARK": token}
    marked = subprocess.Popen([PY, "-c", SLEEPER], env=environment, start_new_session=True)
    member = subprocess.Popen([PY, "-c", SLEEPER], start_new_session=True)
    root = tmp_path / "hierarchy"
    (root / f"fc-{token}-1").mkdir(parents=True)
    (root / f"fc-{token}-1" / "cgroup.procs").write_text(f"{member.pid}\n")
    (root / f"fc-{token}-2").mkdir()  # empty: removed
    (root / "other").mkdir()  # not of its prefix: kept
    try:
        pipe = start_sentinel(f"FREECELL_TEST_MARK={token}", [root], f"fc-{token}-")
        assert pipe is not None
        # Its launcher has ended; the sentinel detaches by a fork of its own, whose parent then ends: one left.
        deadline = time.monotonic() + 10
        while len(sentinels := _commands_naming(f"fc-{token}-")) != 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(sentinels) == 1, sentinels
        assert (b"--sentinel" in sentinels[0]) == (spawner_kind == "c"), sentinels
        assert marked.poll() is None and member.poll() is None  # nothing before the pipe closes
        os.close(pipe)
        assert marked.wait(10) == -signal.SIGKILL
        assert member.wait(10) == -signal.SIGKILL
        (root / f"fc-{token}-1" / "cgroup.procs").unlink()  # as the kernel would: its member gone, then its files
        deadline = time.monotonic() + 10
        while len(os.listdir(root)) > 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert os.listdir(root) == ["other"]
    finally:
        for proc in (marked, member):
            proc.kill()
            proc.wait()
