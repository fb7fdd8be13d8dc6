"""One error base, and its exit statuses: every error the harness raises on purpose is a
`HarnessError` declaring its `exit_status`, and the command line (the only place that picks one)
exits with what the error declares."""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from harness import cli
from harness.cards import BoardError
from harness.errors import HarnessBug, HarnessError, RequestError
from harness.fixtures.domain_regen import DomainDisagreement
from harness.fixtures.regen import Disagreement
from harness.fixtures.store import FixturesError
from harness.node.bridge import DriverDied
from harness.node.protocol import DriverRefused, ProtocolError


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (RequestError, 2),
        (HarnessBug, 3),
        (BoardError, 3),
        (FixturesError, 3),
        (Disagreement, 1),
        (DomainDisagreement, 1),
        (ProtocolError, 3),
        (DriverRefused, 3),
        (DriverDied, 3),
    ],
)
def test_every_error_is_under_the_one_base_and_declares_its_exit_status(error: type[HarnessError], status: int) -> None:
    assert issubclass(error, HarnessError)
    assert error.exit_status == status


class _Disagrees(HarnessError):
    exit_status = 1


@pytest.mark.parametrize(
    ("raised", "status", "said"),
    [
        (RequestError("--range 5-1 is reversed"), 2, "freecell-harness: --range 5-1 is reversed"),
        (_Disagrees("the tables disagree at deal 7"), 1, "freecell-harness: the tables disagree at deal 7"),
        (HarnessBug("a block was checked twice"), 3, "freecell-harness: internal error (a bug in freecell-harness"),
        (ProtocolError("the driver sent {]"), 3, "freecell-harness: internal error (a bug in freecell-harness"),
        (ValueError("not ours on purpose"), 3, "freecell-harness: internal error (a bug in freecell-harness"),
    ],
)
def test_the_command_line_exits_with_the_status_the_error_declares(
    raised: Exception, status: int, said: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def run(args: argparse.Namespace) -> int:
        raise raised

    monkeypatch.delenv("FREECELL_DEBUG", raising=False)
    monkeypatch.setattr(cli, "cmd_identify", run)
    assert cli.main(["identify"]) == status
    err = capsys.readouterr().err
    assert err.startswith(said) and err.count("\n") == 1, err


def _allow_open_files(count: int) -> Callable[[], None]:
    def allow() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))

    return allow


PROGRAM = Path(__file__).parent / "dealers" / "planted_program.py"


@pytest.mark.parametrize(
    ("impl", "open_files"),
    [
        ("reference", 6),  # the harness's own process and its workers, no dealer process
        ("reference", 10),
        *((f"stream:{sys.executable} {PROGRAM} 0", n) for n in (8, 12, 16)),  # the pipes to a dealer too
    ],
)
def test_too_few_file_descriptors_is_the_environment_in_one_line_not_a_bug(
    impl: str, open_files: int, tmp_path: Path
) -> None:
    """`ulimit -n 12`: exit 2 and one line naming the limit, wherever the harness runs out (this process or
    a worker, opening a dealer or mid-run); never "internal error", exit 3."""
    done = subprocess.run(
        [sys.executable, "-m", "harness", "verify", impl, "--range", "1-100", "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(Path(__file__).parent.parent)),
        preexec_fn=_allow_open_files(open_files),
    )
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "too few open files allowed" in done.stderr and f"(ulimit -n {open_files})" in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["deal", "--range", "1-3"], "no space left where the harness writes"),
        (["deal", "--range", "1-100000"], "no space left where the harness writes"),  # it fails while writing
        (["verify", "reference", "--range", "1-10"], "no space left where the harness writes"),  # on exit
    ],
    ids=["deal", "while-writing", "a-verdict-at-exit"],
)
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
def test_output_to_a_full_device_is_the_environment_in_one_line_not_a_bug(
    argv: list[str], said: str, buffered: bool
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    with open(os.devnull if not Path("/dev/full").exists() else "/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "harness", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            env=env,
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr and said in done.stderr, done.stderr
