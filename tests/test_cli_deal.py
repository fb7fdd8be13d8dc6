"""`freecell-harness deal`: output compared with the seed documents, ranges, bad input, streaming."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from seed_examples import seed_board

import reference
from harness.cli import main

MIB = 1 << 20


def run(*args: str) -> subprocess.CompletedProcess[bytes]:
    """The CLI as users run it: its own process, `python -m harness`."""
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, timeout=120, check=False)


def run_in_process(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(args)
    out, err = capsys.readouterr()
    return status, out, err


BAD_REQUESTS = [
    ["deal", "0"],
    ["deal", "-5"],
    ["deal", "1.5"],
    ["deal", "abc"],
    ["deal", ""],
    ["deal", "true"],
    ["deal", "1e3"],
    ["deal", "2147483648"],
    ["deal", "1", "2", "x"],
    ["deal", "--dialect", "fcpro", "8589934592"],
    ["deal", "--dialect", "fcpro", "0"],
    ["deal", "--dialect", "xp", "0"],
    ["deal", "--dialect", "xp", "-3"],
    ["deal", "--dialect", "xp", "1000001"],
    ["deal", "--range", "5-1"],
    ["deal", "--range", "1-"],
    ["deal", "--range", "-5"],
    ["deal", "--range", "a-b"],
    ["deal", "--range", "1-2-3"],
    ["deal", "--range", "1.5-3"],
    ["deal", "--range", "0-5"],
    ["deal", "--range", "1-2147483648"],
    ["deal", "--range", ""],
    ["deal", "--dialect", "fcpro", "--range", "8589934591-8589934592"],
    ["deal", "--dialect", "xp", "--range=0-5"],
    ["deal", "--dialect", "xp", "--range", "-3-1"],
    ["deal", "--dialect", "msvc", "1"],
    ["deal", "--dialect", "", "1"],
    ["deal", "--dialect", "Classic", "1"],
    ["deal", "--format", "csv", "1"],
    ["deal", "--format", "", "1"],
    ["deal"],
    ["deal", "1", "--range", "1-2"],
    ["deal", "--no-such-option", "1"],
]


@pytest.mark.parametrize("args", BAD_REQUESTS, ids=" ".join)
def test_bad_requests_exit_2_with_one_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_in_process(args, capsys)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert err.startswith("freecell-harness: ")
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["deal", "0"], ["classic", "2147483647"]),
        (["deal", "abc"], ["abc", "classic"]),
        (["deal", "--dialect", "fcpro", "8589934592"], ["fcpro", "8589934591"]),
        (["deal", "--dialect", "xp", "0"], ["xp", "-2", "1000000"]),
        (["deal", "--range", "5-1"], ["5-1", "reversed"]),
        (["deal", "--range", "1-2-3"], ["1-2-3"]),
        (["deal", "--dialect", "xp", "--range=0-1"], ["xp", "0-1"]),
        (["deal", "--dialect", "msvc", "1"], ["msvc", "classic, fcpro, xp"]),
        (["deal", "--format", "csv", "1"], ["csv", "rows"]),
    ],
)
def test_bad_requests_say_what_and_where(args: list[str], words: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run_in_process(args, capsys)
    assert all(w in err for w in words), err


@pytest.mark.parametrize(
    "args",
    [["deal", "abc"], ["deal", "--range", "5-1"], ["deal", "--dialect", "msvc", "1"], ["deal", "--format", "x", "1"]],
    ids=" ".join,
)
def test_bad_requests_in_a_real_process(args: list[str]) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.count(b"\n") == 1 and b"Traceback" not in done.stderr


def test_deal_617_prints_the_seeds_game_617() -> None:
    board = seed_board(617)
    assert len(board) == 7
    done = run("deal", "617")
    assert done.returncode == 0 and done.stderr == b""
    assert done.stdout.decode().splitlines() == [" ".join(row) for row in board]


@pytest.mark.parametrize("game", [1, 617])
def test_json_format_is_the_seeds_array(game: int) -> None:
    done = run("deal", str(game), "--format", "json")
    assert json.loads(done.stdout) == seed_board(game)


def _single(number: int, fmt: str, dialect: str, capsysbinary: pytest.CaptureFixture[bytes]) -> bytes:
    assert main(["deal", str(number), "--format", fmt, "--dialect", dialect]) == 0
    out: bytes = capsysbinary.readouterr().out
    return out


@pytest.mark.parametrize(
    ("dialect", "first", "last"),
    [("classic", 1, 40), ("classic", 2**31 - 3, 2**31 - 1), ("fcpro", 2**32 - 2, 2**32 + 1), ("xp", -2, -1)],
)
@pytest.mark.parametrize("fmt", ["line", "rows", "columns", "json"])
def test_range_output_is_the_single_deals_concatenated(
    dialect: str, first: int, last: int, fmt: str, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    singles = [_single(n, fmt, dialect, capsysbinary) for n in range(first, last + 1)]
    separator = b"\n" if fmt in ("rows", "columns") else b""
    assert main(["deal", f"--range={first}-{last}", "--format", fmt, "--dialect", dialect]) == 0
    assert capsysbinary.readouterr().out == separator.join(singles)
    assert main(["deal", *map(str, range(first, last + 1)), "--format", fmt, "--dialect", dialect]) == 0
    assert capsysbinary.readouterr().out == separator.join(singles)


def test_range_defaults_to_lines_and_matches_the_published_deal(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    assert main(["deal", "--range", "616..618"]) == 0
    lines = capsysbinary.readouterr().out.splitlines(keepends=True)
    assert len(lines) == 3
    assert lines[1].decode().split() == [card for row in seed_board(617) for card in row]


def _peak_rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM in /proc/<pid>/status")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc (Linux)")
def test_a_huge_range_streams_in_constant_memory() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness", "deal", "--range", "1-100000000", "--format", "line"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    try:
        head = proc.stdout.read(24 * MIB)
        early = _peak_rss_kib(proc.pid)
        read = len(head)
        while read < 96 * MIB:
            read += len(proc.stdout.read(4 * MIB))
        late = _peak_rss_kib(proc.pid)
    finally:
        proc.stdout.close()  # the reader goes away, as `| head` would
        try:
            status = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    whole = len(head) // 156 * 156
    assert head[:whole] == b"".join(reference.iter_lines(1, whole // 156))
    assert late < 400 * 1024, f"peak RSS {late} KiB after {read} bytes"
    assert late - early < 32 * 1024, f"peak RSS grew from {early} to {late} KiB while streaming"
    assert status == 0, proc.stderr.read() if proc.stderr else b""
    assert proc.stderr is not None and b"Traceback" not in proc.stderr.read()


@pytest.mark.parametrize(
    ("fmt", "python_options"),
    [("line", ["-u"]), ("rows", [])],
)
def test_deal_writes_all_of_its_output_to_a_stdout_that_takes_part_of_a_write(
    fmt: str, python_options: list[str]
) -> None:
    """A pipe in non-blocking mode (left so by another program sharing it) takes what fits, or nothing:
    with `-u` stdout is unbuffered and a write returns the part it wrote; buffered, it raises. Each write
    of `deal` is larger than the pipe, so a write that is not retried always loses output."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 4096)
    os.set_blocking(write_end, False)
    args = ["deal", "--range", "1-2000", "--format", fmt]
    with subprocess.Popen([sys.executable, *python_options, "-m", "harness", *args], stdout=write_end) as proc:
        os.close(write_end)
        with open(read_end, "rb") as reader:
            got = reader.read()
    assert proc.returncode == 0
    boards = (reference.deal(n).format(fmt) for n in range(1, 2001))
    assert got == ("\n" if fmt == "rows" else "").join(boards).encode()


@pytest.mark.skipif(os.name != "posix", reason="console script path differs")
def test_console_script_and_module_agree() -> None:
    script = Path(sys.executable).with_name("freecell-harness")
    assert script.exists(), f"the console script is not installed beside {sys.executable}"
    args = [str(script), "deal", "617", "--format", "line"]
    done = subprocess.run(args, capture_output=True, timeout=60, check=False)
    assert done.returncode == 0
    assert done.stdout == run("deal", "617", "--format", "line").stdout


@pytest.mark.parametrize(
    ("args", "deals"),
    [
        (["--range=-2-5"], [-2, -1, 1, 2, 3, 4, 5]),  # SPEC: 0 is not an xp deal, so it is skipped
        (["--range", "-1-1"], [-1, 1]),
        (["--range=-2--1", "--format", "rows"], [-2, -1]),
    ],
)
def test_xp_ranges_across_zero_skip_zero(args: list[str], deals: list[int], capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_in_process(["deal", "--dialect", "xp", *args], capsys)
    assert status == 0, err
    fmt = "rows" if "rows" in args else "line"
    assert out == ("\n" if fmt == "rows" else "").join(reference.deal(n, "xp").format(fmt) for n in deals)
