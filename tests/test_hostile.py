"""Hostile dealers (tests/hostile/): every case asserts its verdict, that no process it started is
left running (each carries the run's mark in its argv or environment) and that nothing was
written but the outputs asked for."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar
from xml.etree import ElementTree

import pytest

import reference
from harness import process
from harness.adapters import DealerOptions, open_dealer
from harness.adapters.base import Dealer
from harness.adapters.python import PythonDealer
from harness.cli import main
from harness.errors import RequestError
from harness.failures import Failure

HOSTILE = Path(__file__).parent / "hostile"
PY = sys.executable
T = TypeVar("T")


def survivors(marker: str) -> list[int]:
    """Processes (not zombies) whose command line carries `marker`."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            state = Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state != b"Z":
            found.append(int(name))
    return found


def wait_for_no_survivors(marker: str, within: float = 10.0) -> list[int]:
    deadline = time.monotonic() + within
    while (left := survivors(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@pytest.fixture
def marker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A marker for this test's processes; STARTED_DIR collects what the dealer's helpers started."""
    mark = f"hostile-{uuid.uuid4().hex}"
    monkeypatch.setenv("STARTED_DIR", str(tmp_path))
    yield mark
    for pid in survivors(mark):  # never leave one behind for the next test, even when this one failed
        os.kill(pid, signal.SIGKILL)


def verify(impl: str, tmp_path: Path, *options: str) -> tuple[int, dict[str, object] | None]:
    report = tmp_path / "report.json"
    status = main(["verify", impl, "--report", str(report), *options])
    return status, json.loads(report.read_text())["first_failure"] if status == 1 else None


# -- the hostile table: every case its verdict, and nothing left running or written -------------


@dataclass(frozen=True)
class Hostile:
    """A hostile dealer run through `verify`, and what the run must come to.

    In `impl`, {py} is this Python, {hostile} tests/hostile, {run} the run's mark (in the argv of
    whatever the dealer starts) and {dealer} the assembled Node dealer."""

    impl: str
    deal: int | None  # the first failure (None: the dealer conforms)
    kind: str | None = None
    named: str = ""  # in the failure's message
    options: tuple[str, ...] = ()
    deals: str = "1-4"
    needs_cgroup: bool = False  # only a cgroup finds what it starts (README: Security)
    helper: str = ""  # what it leaves in $STARTED_DIR once its helper process has started


def program(adapter: str, behaviour: str, deal: int | None, kind: str | None = None, **more: object) -> Hostile:
    helper = f"{behaviour}-{{run}}" if behaviour in HELPERS else ""
    return Hostile(f"{adapter}:{{py}} {{hostile}}/hostile.py {behaviour} {{run}}", deal, kind, helper=helper, **more)  # type: ignore[arg-type]


def node(script: str, deal: int | None, kind: str | None = None, **more: object) -> Hostile:
    return Hostile(f"node:{{dealer}}/{script}", deal, kind, **more)  # type: ignore[arg-type]


HELPERS = {"forker", "sleeper", "escaper", "double-fork", "nohup", "daemon", "env-clearing-escaper"}
MEMORY = ("--memory-limit", "256")
# A program run for one deal that ends normally without a board printed no board (SPEC: a crash is
# an abnormal exit); a stream that ends before answering has crashed.
QUIT_KIND = {"cmd": "invalid-output", "stream": "crash"}

CASES: dict[str, Hostile] = {
    **{
        f"{adapter}-{behaviour}{'-jobs-2' if jobs == 2 else ''}": program(
            adapter, behaviour, None, options=("--jobs", str(jobs)), needs_cgroup=behaviour == "env-clearing-escaper"
        )
        for adapter in ("cmd", "stream")
        for behaviour, jobs in [
            ("forker", 1),
            ("sleeper", 1),
            ("escaper", 1),
            ("escaper", 2),
            ("double-fork", 1),
            ("double-fork", 2),
            ("nohup", 1),
            ("daemon", 1),
            ("daemon", 2),
            ("env-clearing-escaper", 1),
            ("writer", 1),
        ]
    },
    **{
        f"{adapter}-{behaviour}": program(adapter, behaviour, 3, kind, named=named, options=options)
        for adapter in ("cmd", "stream")
        for behaviour, kind, named, options in [
            ("memory-bomb", "crash", "--memory-limit 256 MB", MEMORY),
            ("fd-exhauster", "crash", "--max-open-files 64", ("--max-open-files", "64")),
            ("fork-bomb", "crash", "--max-processes 32", ("--max-processes", "32")),
            ("cpu-burner", "crash", "--cpu-limit 1 s", ("--cpu-limit", "1", "--timeout", "30")),
            ("quitter", QUIT_KIND[adapter], "", ()),
            ("control-stderr", "crash", "owned", ()),
            ("control-board", "invalid-output", "owned", ()),
        ]
    },
    "py-escaper": Hostile("py:py_hostile:escaper", None, helper="escaper"),
    "py-double-fork": Hostile("py:py_hostile:double_fork", None, options=("--jobs", "2"), helper="double_fork"),
    "py-fork-bomb": Hostile(
        "py:py_hostile:fork_bomb",
        3,
        "error",
        "(over the process limit (--max-processes 32))",
        ("--max-processes", "32"),
    ),
    "py-memory-raiser": Hostile("py:py_hostile:memory_raiser", 3, "crash", "--memory-limit 256 MB", MEMORY),
    "py-memory-bomb": Hostile("py:quitter:bomb", 3, "crash", "--memory-limit 256 MB", MEMORY),
    "py-quitter": Hostile("py:quitter:os_exit", 101, "crash", deals="95-104"),
    "py-control-chars": Hostile("py:py_hostile:control_chars", 3, "error", "cursed"),
    "py-control-board": Hostile("py:py_hostile:control_board", 3, "invalid-output", "owned"),
    "py-writer": Hostile("py:py_hostile:writer", None),
    "node-escaper": node("escaper.js", 3, "error"),
    "node-fork-bomb": node("fork_bomb.js", 3, "error"),
    "node-writer": node("writer.js", 3, "error"),
    "node-quitter": node("quitter.js", 3, "error"),
    "node-control-chars": node("control.js", 3, "error", named="cursed"),
    "node-control-board": node("control_board.js", 3, "invalid-output", named="owned"),
    "node-memory-bomb": node("typed_arrays.js", 3, "crash", named="--memory-limit 256 MB", options=MEMORY),
}
# With the slow tests: each repeats, more slowly, what another case of the default run covers.
SLOW = {
    "stream-cpu-burner",
    "cmd-control-board",
    "cmd-fd-exhauster",
    "cmd-memory-bomb",
    "cmd-sleeper",
    "cmd-daemon-jobs-2",
    "stream-double-fork-jobs-2",
}

# C0 and C1 control characters but tab and newline: none may reach the terminal from a dealer.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def processes_of(run: str) -> list[int]:
    """Live processes (not zombies, not this one) with the run's mark in their argv or environment."""
    mark, entry, me = run.encode(), f"HOSTILE_RUN={run}".encode(), os.getpid()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            environ = Path(f"/proc/{name}/environ").read_bytes()
            state = Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != b"Z" and (mark in cmdline or entry in environ.split(b"\0")):
            found.append(int(name))
    return found


def settled(look: Callable[[], list[T]], within: float = 5.0) -> list[T]:
    """`look()` once it is empty, or what it still finds after `within` seconds."""
    deadline = time.monotonic() + within
    while (found := look()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def listing(root: Path) -> dict[str, tuple[int, int]]:
    """Every path under `root` with its size and modification time."""
    return {str(path.relative_to(root)): (path.lstat().st_size, path.lstat().st_mtime_ns) for path in root.rglob("*")}


@pytest.fixture
def hostile_run() -> Iterator[str]:
    """The run's mark; whatever carries it is killed afterwards, even when the test failed."""
    run = f"hostile-{uuid.uuid4().hex}"
    yield run
    for pid in processes_of(run):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def cgroup_root(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Path | None]:
    """A cgroup of the test's own, under which the harness makes its dealers': of the kind it would
    choose ("best", the default), of one kind only ("v1": pids v1, "v2"), or none at all ("none");
    or one the harness must not use: "not-a-cgroup" (a plain directory), "unjoinable" (the dealer
    does not get into it)."""
    kind = getattr(request, "param", "best")
    if kind == "not-a-cgroup":
        monkeypatch.setattr(process, "_CGROUP_PIDS", tmp_path / "no-cgroup")
        monkeypatch.setattr(process, "_own_cgroup2", lambda: tmp_path)
        yield None
        return
    if kind == "unjoinable":
        monkeypatch.setattr(process._Cgroup, "holds", lambda self, pid: False)
        kind = "best"
    offered = {
        "v1": process._CGROUP_PIDS if os.access(process._CGROUP_PIDS, os.W_OK) else None,
        "v2": process._own_cgroup2(),
    }
    if kind == "best":
        kind = next((k for k, root in offered.items() if root is not None), "none")
    if kind != "none" and offered[kind] is None:
        pytest.skip(f"CGROUP {kind} NOT WRITABLE HERE, test not run")
    monkeypatch.setattr(process, "_CGROUP_PIDS", tmp_path / "no-cgroup")
    monkeypatch.setattr(process, "_own_cgroup2", lambda: None)
    if kind == "none":
        yield None
        return
    root = offered[kind] / f"freecell-hostile-{uuid.uuid4().hex}"  # type: ignore[operator]
    root.mkdir()
    if kind == "v1":
        monkeypatch.setattr(process, "_CGROUP_PIDS", root)
    else:
        monkeypatch.setattr(process, "_own_cgroup2", lambda: root)
    yield root
    for group in [*(p for p in root.iterdir() if p.is_dir()), root]:  # only the root, unless the test failed
        for pid in (group / "cgroup.procs").read_text().split():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)
        settled(lambda g=group: [] if _removed(g) else [g])  # type: ignore[misc]


def _removed(group: Path) -> bool:
    try:
        group.rmdir()
        return True
    except FileNotFoundError:
        return True
    except OSError:
        return False


def child_cgroups(root: Path | None) -> list[str]:
    return [] if root is None else sorted(p.name for p in root.iterdir() if p.is_dir())


# Each case in the cgroup the harness would choose here; and some in each kind of cgroup (v1, v2, none:
# only a cgroup surely catches an escaper that clears its environment), or in one it cannot use. No fork bomb without a
# pids cgroup: RLIMIT_NPROC is all that bounds it then, and root ignores that.
@pytest.mark.parametrize(
    ("name", "cgroup_root"),
    [pytest.param(n, "best", marks=[pytest.mark.slow] if n in SLOW else []) for n in CASES]
    + [
        (n, kind)
        for n in ("stream-escaper", "stream-env-clearing-escaper", "cmd-daemon")
        for kind in ("v1", "v2", "none")
    ]
    + [(n, kind) for n in ("stream-escaper", "cmd-daemon") for kind in ("not-a-cgroup", "unjoinable")],
    indirect=["cgroup_root"],
)
def test_a_hostile_dealer_gets_its_verdict_and_leaves_nothing_behind(
    name: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    cgroup_root: Path | None,
    hostile_run: str,
    request: pytest.FixtureRequest,
) -> None:
    case = CASES[name]
    # Without a cgroup, an escaper that clears its environment is caught only if a sweep happens to find it
    # while its parent still lives (README): all else is checked, and the test kills what is left of it.
    may_escape = case.needs_cgroup and cgroup_root is None
    run = hostile_run
    work, home, out, evidence, dealer = (tmp_path / d for d in ("work", "home", "out", "evidence", "dealer"))
    for directory in (work, home, out, evidence, dealer):
        directory.mkdir()
    (home / ".profile").write_text("# the user's\n")
    (work / "notes.txt").write_text("the user's notes\n")
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("HOSTILE_RUN", run)
    monkeypatch.setenv("STARTED_DIR", str(evidence))
    monkeypatch.setenv("HOSTILE_WRITE_TO", str(evidence / "written.txt"))
    monkeypatch.syspath_prepend(str(HOSTILE))
    if case.impl.startswith("node:"):
        request.getfixturevalue("node")
        monkeypatch.delenv("NODE_OPTIONS", raising=False)
        correct = (Path(__file__).parent / "js" / "good.js").read_text(encoding="utf-8")
        script = case.impl.rsplit("/", 1)[1]
        assembled = (HOSTILE / script).read_text(encoding="utf-8")
        (dealer / script).write_text(assembled + correct.replace("function dealFreeCell(n)", "function correct(n)"))
    impl = case.impl.format(py=PY, hostile=HOSTILE, run=run, dealer=dealer)
    before = (listing(work), listing(home))
    report, junit, resume = out / "report.json", out / "junit.xml", out / "resume.log"

    outputs = ["--report", str(report), "--junit", str(junit), "--resume", str(resume)]
    status = main(["verify", impl, "--range", case.deals, *outputs, "--jobs", "1", *case.options])
    terminal = capsys.readouterr()

    # its verdict
    failure = json.loads(report.read_text())["first_failure"]
    if case.deal is None:
        assert (status, failure) == (0, None), failure
    else:
        assert status == 1 and failure is not None
        assert (failure["deal"], failure["kind"]) == (case.deal, case.kind), failure
        assert case.named in failure["message"]
    # nothing left running
    if may_escape:
        for pid in processes_of(run):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert settled(lambda: processes_of(run)) == []
    assert settled(lambda: child_cgroups(cgroup_root)) == []
    # nothing written but what was asked for, and that well formed
    assert (listing(work), listing(home)) == before
    assert sorted(os.listdir(out)) == sorted(p.name for p in (report, junit, resume) if p.exists())
    assert report.exists() and junit.exists()
    ElementTree.parse(junit)
    assert not CONTROL.search(terminal.out + terminal.err), (terminal.out + terminal.err)[-400:]
    if case.helper:
        assert (evidence / case.helper.format(run=run)).exists()  # the helper did start
    if "writer" in name and not name.startswith("node"):
        assert (evidence / "written.txt").exists()  # it did write, with the user's rights, where it chose


@pytest.mark.parametrize("jobs", [1, 2])
def test_nothing_outlives_a_harness_killed_with_sigkill(jobs: int, marker: str, tmp_path: Path) -> None:
    impl = f"stream:{PY} {HOSTILE / 'hostile.py'} escape-and-hang {marker}"
    harness = subprocess.Popen(
        [PY, "-m", "harness", "verify", impl, "--range", "1-5", "--jobs", str(jobs), "--timeout", "300"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    started = tmp_path / f"escape-and-hang-{marker}"
    deadline = time.monotonic() + 120
    while not started.exists() and harness.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started.exists(), "the dealer's helper never started"
    assert survivors(marker)  # the dealer and its escaped helper are running now
    harness.kill()
    harness.wait()
    assert wait_for_no_survivors(marker) == []


# A worker told to stop kills its dealers (interrupts.kill_children) and exits, while another of its
# threads, seeing its dealer die, may already be starting a fresh one to pin the failure: that one
# is left to the sentinel, which the worker's own cleanup must therefore not kill.
LATE_SPAWN = """
import os, sys, threading
from harness import interrupts, process
sleeper = [sys.executable, "-c", "import time; time.sleep(300)", sys.argv[1]]
def start():  # from a thread, as a worker's dealers are (no parent-death signal then)
    process.spawn(sleeper)
def in_thread():
    thread = threading.Thread(target=start)
    thread.start()
    thread.join()
in_thread()
interrupts.kill_children()
in_thread()
os._exit(143)
"""


def test_what_a_dying_harness_starts_after_its_cleanup_dies_with_it(marker: str) -> None:
    done = subprocess.run([PY, "-c", LATE_SPAWN, marker], timeout=60, check=False)
    assert done.returncode == 143
    assert wait_for_no_survivors(marker) == []


def test_the_supervisor_leaves_its_host_process_alone(marker: str) -> None:
    """A library user's process (pytest, an IDE) is never made a subreaper: it would inherit every
    orphan below it and never reap them."""
    process.run([PY, "-c", "pass", marker], None, 30, 1 << 10, process.NO_LIMITS)
    libc = ctypes.CDLL(None, use_errno=True)
    flag = ctypes.c_int(-1)
    assert libc.prctl(37, ctypes.byref(flag), 0, 0, 0) == 0  # PR_GET_CHILD_SUBREAPER
    assert flag.value == 0


def test_kill_all_kills_every_live_tree(marker: str) -> None:
    children = [process.spawn([PY, "-c", "import time; time.sleep(300)", marker]) for _ in range(3)]
    assert len(survivors(marker)) == 3
    process.kill_all()
    assert survivors(marker) == []
    assert all(not c.alive() for c in children)


# -- py: dealers run in a process the harness can kill -------------------------------------------


@pytest.fixture
def hostile_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(HOSTILE))


@pytest.mark.parametrize("function", ["os_exit", "sys_exit"])
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_py_dealer_that_exits_mid_range_crashes_at_its_deal(
    function: str, jobs: int, hostile_importable: None, tmp_path: Path
) -> None:
    status, failure = verify(f"py:quitter:{function}", tmp_path, "--range", "95-104", "--jobs", str(jobs))
    assert status == 1 and failure is not None
    assert (failure["deal"], failure["kind"]) == (101, "crash"), failure


@pytest.mark.parametrize("in_thread", [False, True])
def test_a_hanging_py_dealer_is_a_timeout_at_its_deal_from_any_thread(
    in_thread: bool, hostile_importable: None
) -> None:
    with open_dealer("py:quitter:hangs", DealerOptions(timeout=1)) as dealer:
        if in_thread:
            with ThreadPoolExecutor(1) as pool:
                answers = pool.submit(dealer.lines, range(5, 10)).result()
        else:
            answers = dealer.lines(range(5, 10))
    failures = [a for a in answers if isinstance(a, Failure)]
    assert [(f.deal, f.kind) for f in failures] == [(7, "timeout")]
    assert answers[3] == reference.deal(8).format("line").encode()  # a fresh process took over


@pytest.mark.parametrize(
    ("function", "deal", "kind", "named"),
    [("bomb", 3, "crash", "--memory-limit 256 MB"), ("prints", None, None, None)],
)
def test_py_dealers_are_bounded_and_their_prints_do_not_disturb(
    function: str, deal: int | None, kind: str | None, named: str | None, hostile_importable: None
) -> None:
    with open_dealer(f"py:quitter:{function}", DealerOptions(memory_mb=256)) as dealer:
        answers = dealer.lines(range(1, 5))
    failures = [a for a in answers if isinstance(a, Failure)]
    assert [(f.deal, f.kind) for f in failures] == ([(deal, kind)] if deal else [])
    if named:
        assert named in failures[0].message


@pytest.mark.parametrize(
    ("impl", "message"),
    [("py:no_such_module:deal", "cannot import no_such_module"), ("py:quitter:missing", "no callable missing")],
)
def test_a_py_dealer_that_cannot_load_is_one_line_exit_2(
    impl: str, message: str, hostile_importable: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", impl, "--range", "1-3"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


# -- the crash of a stream is pinned to its deal, whatever the range -----------------------------


@pytest.fixture(scope="module")
def canonical_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lines") / "lines.txt"
    path.write_bytes(reference.canonical_lines(range(1, 1001)))
    return path


# Reads stdin line by line and answers each deal at once, so a stream process is kept between calls.
QUITTER = "sh " + str(HOSTILE / "quits_after.sh") + " {how} {lines}"


@pytest.mark.parametrize(
    ("how", "deal_range", "first_failure"),
    [
        ("number", "1-1000", 101),
        ("number", "1-150", 101),
        ("number", "50-300", 101),
        ("number", "90-110", 101),
        ("count", "1-150", 101),
        ("count", "50-300", 150),
        ("count", "90-110", None),
    ],
)
def test_a_stream_that_quits_is_blamed_on_the_deal_where_it_quit(
    how: str,
    deal_range: str,
    first_failure: int | None,
    canonical_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    impl = "stream:" + QUITTER.format(how=how, lines=canonical_file)
    status, failure = verify(impl, tmp_path, "--range", deal_range, "--jobs", "1")
    if first_failure is None:
        assert (status, failure) == (0, None)
    else:
        assert failure is not None and (failure["deal"], failure["kind"]) == (first_failure, "crash"), failure


# -- Node: typed arrays live outside V8's heap; the memory limit bounds them too -----------------


@pytest.mark.parametrize(
    ("script", "deal"), [(HOSTILE / "typed_arrays.js", 3), (Path(__file__).parent / "js" / "crash_oom.js", 5)]
)
def test_a_node_dealer_over_the_memory_limit_crashes_at_its_deal_naming_it(
    node: str, script: Path, deal: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NODE_OPTIONS", raising=False)
    good = (Path(__file__).parent / "js" / "good.js").read_text(encoding="utf-8")
    assembled = tmp_path / script.name
    correct = good.replace("function dealFreeCell(n)", "function correct(n)")
    assembled.write_text(script.read_text(encoding="utf-8") + correct, encoding="utf-8")
    with open_dealer(f"node:{assembled}", DealerOptions(memory_mb=256, timeout=60)) as dealer:
        answers = dealer.lines(range(1, deal + 2))
    failures = [a for a in answers if isinstance(a, Failure)]
    assert [(f.deal, f.kind) for f in failures] == [(deal, "crash")], failures
    assert "--memory-limit 256 MB" in failures[0].message
    assert answers[deal] == reference.canonical_lines([deal + 1])


@pytest.mark.parametrize(
    "option",
    [["--memory-limit", "lots"], ["--max-processes", "-3"], ["--cpu-limit", "nan"], ["--max-open-files", "1.5"]],
)
def test_a_bad_limit_is_one_line_exit_2(option: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "reference", "--range", "1-3", *option]) == 2
    err = capsys.readouterr().err
    assert option[0] in err and err.count("\n") == 1


# -- reset(): the line pass starts from fresh processes ------------------------------------------


def _process_of(dealer: Dealer) -> object:
    for name in ("_proc", "_child"):
        if hasattr(dealer, name):
            return getattr(dealer, name)
    return dealer.bridge._proc  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", ["stream", "py", "node"])
def test_reset_makes_the_next_call_run_in_a_fresh_process(
    kind: str,
    hostile_importable: None,
    canonical_file: Path,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if kind == "node":
        request.getfixturevalue("node")
    impl = {
        "stream": "stream:" + QUITTER.format(how="count", lines=canonical_file),
        "py": "py:quitter:prints",
        "node": f"node:{Path(__file__).parent / 'js' / 'good.js'}",
    }[kind]
    with open_dealer(impl, DealerOptions()) as dealer:
        assert dealer.lines(range(1, 4)) == [reference.canonical_lines([n]) for n in range(1, 4)]
        before = _process_of(dealer)
        assert before is not None
        dealer.reset()
        assert dealer.lines(range(4, 6)) == [reference.canonical_lines([n]) for n in range(4, 6)]
        assert _process_of(dealer) not in (None, before)


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("def deal(n):\n    return n\n", True),
        ("deal = lambda n: n\n", True),
        ("from reference import deal\n", True),
        ("for name in ('deal',):\n    globals()[name] = print\n", True),  # bound at run time
        ("def other(n):\n    return n\n", False),
    ],
)
def test_the_up_front_check_of_a_py_dealer_never_runs_it(
    source: str, found: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = f"checked_{uuid.uuid4().hex}"
    (tmp_path / f"{module}.py").write_text("raise SystemExit('the module ran')\n" + source)
    monkeypatch.syspath_prepend(str(tmp_path))
    if found:
        PythonDealer.check(f"{module}:deal", DealerOptions())
    else:
        with pytest.raises(RequestError, match="has no callable deal"):
            PythonDealer.check(f"{module}:deal", DealerOptions())
