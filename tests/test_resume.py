"""`--resume` trusts only its own log, of this very run and build: locked while in use, never
written through a symlink or over a file of the user's, entries checked line by line."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.cli import main
from harness.compare import BlockResult
from harness.engine import Request, run
from harness.errors import RequestError
from harness.failures import Failure
from harness.resume import ResumeLog, run_identity

TESTS = Path(__file__).parent
pytestmark = pytest.mark.usefixtures("test_dealers")
REQUEST = Request(impl="reference", ranges=((1, 300),), block_size=100)


def _log(path: Path, request: Request = REQUEST) -> ResumeLog:
    log = ResumeLog(path)
    log.load(request.fingerprint(), run_identity(request.impl, request.against))
    return log


def test_two_runs_cannot_use_one_log_at_once(tmp_path: Path) -> None:
    first = _log(tmp_path / "run.resume")
    with pytest.raises(RequestError, match="in use by another run"):
        _log(tmp_path / "run.resume")
    first.close()
    _log(tmp_path / "run.resume").close()  # free again once the first run is done


def test_a_second_verify_on_a_log_in_use_is_refused(tmp_path: Path, test_dealers: Path) -> None:
    log = tmp_path / "run.resume"
    env = dict(os.environ, PYTHONPATH=str(test_dealers))
    argv = [sys.executable, "-m", "harness", "verify", "py:slow_dealer:deal", "--range", "1-100", "--resume", str(log)]
    first = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not log.exists() or not log.read_text():
            assert time.monotonic() < deadline and first.poll() is None, "the first run never wrote its log"
            time.sleep(0.05)
        second = subprocess.run(argv, env=env, capture_output=True, text=True)
        assert second.returncode == 2 and "in use by another run" in second.stderr
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=60)
    assert first.returncode == 130


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("notes.txt", "my notes\nline two\n"),
        ("README.md", "# Title\n"),
        ("report.json", json.dumps({"implementation": "reference", "checked": 10}) + "\n"),
        ("one-line", "no newline at all"),
    ],
)
def test_a_file_that_is_not_a_log_is_refused_and_left_alone(tmp_path: Path, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(RequestError, match="not a resume log of freecell-harness; refusing to overwrite"):
        _log(path)
    assert path.read_text() == content


@pytest.mark.parametrize("target", ["notes.txt", "missing.txt"])
def test_a_symlink_is_never_followed(tmp_path: Path, target: str) -> None:
    if target == "notes.txt":
        (tmp_path / target).write_text("mine\n")
    link = tmp_path / "run.resume"
    link.symlink_to(tmp_path / target)
    with pytest.raises(RequestError, match="symbolic link"):
        _log(link)
    assert link.is_symlink()
    if target == "notes.txt":
        assert (tmp_path / target).read_text() == "mine\n"
    else:
        assert not (tmp_path / target).exists()


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ('{"block": "101-200"}', "line 3: not a block entry"),
        ('{"block": "101-200", "checked": "100", "failure": null}', "line 3: not a block entry"),
        ('{"block": "101-200", "checked": 100, "failure": {"deal": 5, "kind": "boom", "message": ""}}', "line 3"),
        ("[1, 2, 3]", "line 3: not a block entry"),
        ("not json", "line 3: not a block entry"),
    ],
)
def test_an_entry_of_the_wrong_shape_is_one_error_naming_file_and_line(tmp_path: Path, line: str, why: str) -> None:
    path = tmp_path / "run.resume"
    run(REQUEST, resume=(log := ResumeLog(path)))
    log.close()
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], lines[1], line, *lines[3:]]) + "\n")
    with pytest.raises(RequestError) as refused:
        _log(path)
    message = str(refused.value)
    assert message.startswith(f"--resume {path}: ") and why in message and "\n" not in message


def test_a_line_cut_off_by_an_interruption_is_dropped_before_appending(tmp_path: Path) -> None:
    path = tmp_path / "run.resume"
    run(REQUEST, resume=(log := ResumeLog(path)))
    log.close()
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2]) + "\n" + lines[2][:20])
    outcome = run(REQUEST, resume=(log := ResumeLog(path)))
    log.close()
    assert outcome.checked == 300 and outcome.conformant
    entries = [json.loads(raw) for raw in path.read_text().splitlines()]  # every line whole again
    assert sorted(e["block"] for e in entries[1:]) == ["1-100", "101-200", "201-300"]


def _edit(path: Path) -> None:
    path.write_text(path.read_text() + "\n// edited\n" if path.suffix == ".js" else path.read_text() + "\n# edited\n")


@pytest.mark.parametrize("kind", ["node", "py", "stream"])
def test_a_log_made_by_another_build_of_the_dealer_is_begun_anew_saying_what_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    if kind == "node":
        dealer = tmp_path / "dealer.js"
        dealer.write_text((TESTS / "js" / "good.js").read_text())
        impl = f"node:{dealer}"
    elif kind == "py":
        dealer = tmp_path / "mydealer.py"
        dealer.write_text((TESTS / "dealers" / "planted.py").read_text())
        impl = "py:mydealer:deal"
    else:
        dealer = tmp_path / "program.py"
        dealer.write_text((TESTS / "dealers" / "planted_program.py").read_text())
        impl = f"stream:{shlex.join([sys.executable, str(dealer)])} 0"
    request = Request(impl=impl, ranges=((1, 300),), block_size=100)
    identity = run_identity(impl, "reference")
    first = ResumeLog(tmp_path / "run.resume")
    first.load(request.fingerprint(), identity)
    first.append(BlockResult("1-100", 100, None))
    first.close()
    _edit(dealer)
    rebuilt = run_identity(impl, "reference")
    second = ResumeLog(tmp_path / "run.resume")
    assert second.load(request.fingerprint(), rebuilt) == {}  # the old build's blocks are not trusted
    second.close()
    message = second.restarted or ""
    assert "made by another build" in message and dealer.name in message and " then, " in message
    assert "started afresh" in message
    third = ResumeLog(tmp_path / "run.resume")  # the log is now the new build's: it continues
    assert third.load(request.fingerprint(), rebuilt) == {} and third.restarted is None
    third.close()


def test_a_log_of_other_options_is_refused_saying_which(tmp_path: Path) -> None:
    _log(tmp_path / "run.resume").close()
    with pytest.raises(RequestError, match=r"another run \(ranges: \[\[1, 300\]\] then, \[\[1, 400\]\] now\)"):
        _log(tmp_path / "run.resume", Request(impl="reference", ranges=((1, 400),), block_size=100))


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_new_files_get_the_mode_the_umask_asks_for(tmp_path: Path, umask: int) -> None:
    previous = os.umask(umask)
    try:
        code = main(
            [
                "verify",
                "reference",
                "--range",
                "1-100",
                "--quiet",
                "--resume",
                str(tmp_path / "log"),
                "--report",
                str(tmp_path / "r.json"),
                "--junit",
                str(tmp_path / "j.xml"),
            ]
        )
    finally:
        os.umask(previous)
    assert code == 0
    for name in ("log", "r.json", "j.xml"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o666 & ~umask, name


def test_a_log_made_against_other_fixtures_is_begun_anew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from harness.fixtures import MANIFEST, default_dir

    copy = tmp_path / "fx"
    shutil.copytree(default_dir(), copy)
    monkeypatch.setenv("FREECELL_FIXTURES", str(copy))
    request = Request(impl="reference", against="fixtures", ranges=((1, 300),), block_size=100)
    first = ResumeLog(tmp_path / "run.resume")
    first.load(request.fingerprint(), run_identity(request.impl, request.against))
    first.close()
    (copy / MANIFEST).write_text((copy / MANIFEST).read_text().replace('"schema_version": 1', '"schema_version":1'))
    again = ResumeLog(tmp_path / "run.resume")
    assert again.load(request.fingerprint(), run_identity(request.impl, request.against)) == {}
    again.close()
    assert again.restarted is not None and "made by another build" in again.restarted


@pytest.mark.parametrize(
    ("finished", "checked", "this_run"),
    [
        # (block, deals it compared, failing deal or None) in the order the old run finished them
        ([("1-100", 100, None), ("201-300", 100, None), ("101-200", 50, 150)], 150, 0),
        ([("201-300", 100, None), ("101-200", 50, 150), ("1-100", 100, None)], 150, 0),
        ([("201-300", 1, 201), ("1-100", 100, None)], 201, 100),  # 101-200 is still to do
        ([("201-300", 100, None), ("1-100", 100, None), ("101-200", 100, None)], 300, 0),
    ],
)
def test_a_resumed_log_counts_deals_up_to_its_first_failure_only(
    tmp_path: Path, finished: list[tuple[str, int, int | None]], checked: int, this_run: int
) -> None:
    """Blocks finish out of order, so a log can hold blocks past its failure: they are not counted again."""
    log = _log(tmp_path / "run.resume")
    for key, count, failing in finished:
        failure = Failure(failing, "mismatch", "planted") if failing is not None else None
        log.append(BlockResult(key, count, failure))
    log.close()
    outcome = run(REQUEST, resume=(log := ResumeLog(tmp_path / "run.resume")))
    log.close()
    assert outcome.checked == checked and outcome.checked_this_run == this_run
