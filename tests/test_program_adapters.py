"""cmd: and stream: adapters against small Python dealers: right answers, and every way a
program can misbehave (hang, crash, dying mid-stream, bad bytes, runaway output, buffering)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

import reference
from harness.adapters import DealerOptions, open_dealer
from harness.adapters.stream import ENDING_NOTE
from harness.cards import canonical_line, read_board
from harness.errors import RequestError
from harness.failures import Failure
from reference.cards import LINE_BYTES

PY = sys.executable

# A dealer in Python; BEHAVIOUR runs before deal n is printed (it may exit, hang, print garbage).
DEALER = textwrap.dedent(
    """
    import os, sys, time
    import reference
    FORMAT = sys.argv[1]
    FLUSH = {flush}
    # Unflushed, the output waits in a big buffer until the program ends, whatever PYTHONUNBUFFERED says.
    out = sys.stdout if FLUSH else open(1, "w", buffering=1 << 20, closefd=False)
    def show(n):
        {behaviour}
        out.write(reference.deal(n).format(FORMAT))
        if FLUSH:
            out.flush()
    if len(sys.argv) > 2:
        show(int(sys.argv[2]))
    else:
        for line in sys.stdin:
            show(int(line))
    out.flush()
    """
)


def dealer(tmp_path: Path, behaviour: str = "pass", flush: bool = True, name: str = "d.py") -> Path:
    path = tmp_path / name
    path.write_text(DEALER.format(behaviour=behaviour, flush=flush))
    return path


# Generous: no test here may depend on how fast the machine starts a program (issue 20).
def answers(impl: str, deals: range, timeout: float = 30.0, encoding: str = "utf-8") -> list[bytes | Failure]:
    with open_dealer(impl, DealerOptions(timeout=timeout, encoding=encoding)) as d:
        return d.lines(deals)


def first_failure(got: list[bytes | Failure], deals: range) -> tuple[int, str] | None:
    want = reference.canonical_lines(deals)
    for n, (a, i) in enumerate(zip(got, range(0, len(want), 156), strict=True)):
        if isinstance(a, Failure):
            return a.deal, a.kind
        if a != want[i : i + 156]:
            return deals[n], "mismatch"
    return None


@pytest.mark.parametrize("fmt", ["rows", "columns", "json", "line"])
@pytest.mark.parametrize("kind", ["cmd", "stream"])
def test_a_correct_dealer_conforms(kind: str, fmt: str, tmp_path: Path) -> None:
    script = dealer(tmp_path)
    impl = f"cmd:{PY} {script} {fmt} {{n}}" if kind == "cmd" else f"stream:{PY} {script} {fmt}"
    deals = range(31998, 32003) if kind == "cmd" else range(1, 3000)
    assert first_failure(answers(impl, deals), deals) is None


# A hang starts its answer and never ends it: the program has shown it started, so --timeout (not
# --startup-timeout) bounds it, and a dealer that never answers makes no race with the clock.
HANG = "if n == {bad}: out.write('Deal {bad}\\n'); out.flush(); "
MISBEHAVIOUR = {
    "hang": (HANG + "time.sleep(3600)", "timeout"),
    "hang of a child": (HANG + "os.system('sleep 3600')", "timeout"),
    "exit status": ("if n == {bad}: sys.exit(3)", "crash"),
    "signal": ("if n == {bad}: os.kill(os.getpid(), 9)", "crash"),
    "exception": ("if n == {bad}: raise RuntimeError('boom')", "crash"),
    "bytes that are not text": (
        "if n == {bad}: out.flush(); sys.stdout.buffer.write(b'\\\\xff\\\\xfe '); sys.stdout.buffer.flush()",
        "invalid-output",
    ),
    "runaway output": ("if n == {bad}: out.write('x' * 3000000)", "invalid-output"),
}


@pytest.mark.parametrize(("behaviour", "kind"), MISBEHAVIOUR.values(), ids=MISBEHAVIOUR.keys())
@pytest.mark.parametrize("adapter", ["cmd", "stream"])
def test_misbehaviour_is_reported_at_its_deal_and_the_rest_is_still_checked(
    adapter: str, behaviour: str, kind: str, tmp_path: Path
) -> None:
    bad = 13
    script = dealer(tmp_path, behaviour.format(bad=bad))
    impl = f"cmd:{PY} {script} rows {{n}}" if adapter == "cmd" else f"stream:{PY} {script} rows"
    deals = range(10, 17)
    # A hang waits out --timeout (twice in a stream: the replay alone hangs again).  It runs from the
    # last board, or from a process showing it started: a slow start is not on it (a cmd: deal prints
    # its board in one write; a stream deal takes some 0.1 ms), so 1 s is a margin of thousands.
    got = answers(impl, deals, timeout=1.0 if kind == "timeout" else 30.0)
    failures = [(a.deal, a.kind) for a in got if isinstance(a, Failure)]
    assert failures == [(bad, kind)]
    good = [a for a in got if isinstance(a, bytes)]
    assert b"".join(good) == reference.canonical_lines([n for n in deals if n != bad])


def test_a_crash_quotes_the_tail_of_stderr(tmp_path: Path) -> None:
    script = dealer(tmp_path, "if n == 5: sys.stderr.write('out of cheese\\\\n'); sys.exit(4)")
    got = answers(f"stream:{PY} {script} rows", range(1, 8))
    crash = next(a for a in got if isinstance(a, Failure))
    assert (crash.deal, crash.kind) == (5, "crash")
    assert "status 4" in crash.message and "out of cheese" in crash.message


@pytest.mark.parametrize("kind", ["cmd", "stream"])
def test_a_dealer_that_writes_to_stderr_at_every_deal_is_read_to_its_end(tmp_path: Path, kind: str) -> None:
    script = dealer(tmp_path, "sys.stderr.write(f'dealing {n}\\n'); sys.stderr.flush()")
    impl = f"cmd:{PY} {script} rows {{n}}" if kind == "cmd" else f"stream:{PY} {script} rows"
    deals = range(1, 41)
    assert first_failure(answers(impl, deals), deals) is None  # its stderr stays open: no broken pipe


# A Rust panic with RUST_BACKTRACE=1: its message, then a long backtrace, each line a write of its own.
PANIC = (
    "if n == 5:\n"
    "        sys.stderr.write(\"thread 'main' panicked at src/deck.rs:42:9: index out of bounds\\n\")\n"
    "        sys.stderr.flush()\n"
    "        for i in range({frames}):\n"
    "            sys.stderr.write(f'  {{i}}: deck::h{{i:016x}} at /rustc/{{i:040x}}/lib.rs:1\\n'); sys.stderr.flush()\n"
    "        sys.stderr.write('note: run with RUST_BACKTRACE=full\\n'); sys.exit(101)"
)


@pytest.mark.parametrize("kind", ["cmd", "stream"])
@pytest.mark.parametrize("frames", [3, 40, 2000])  # short; longer than the quote; more writes than chunks kept
def test_a_crash_quotes_the_beginning_and_the_end_of_stderr(tmp_path: Path, kind: str, frames: int) -> None:
    script = dealer(tmp_path, PANIC.format(frames=frames))
    impl = f"cmd:{PY} {script} rows {{n}}" if kind == "cmd" else f"stream:{PY} {script} rows"
    crash = next(a for a in answers(impl, range(1, 8)) if isinstance(a, Failure))
    assert (crash.deal, crash.kind) == (5, "crash")
    quoted = crash.message.partition("stderr: ")[2]
    assert quoted.startswith("thread 'main' panicked at src/deck.rs:42:9: index out of bounds")
    assert quoted.endswith("note: run with RUST_BACKTRACE=full")
    assert len(quoted) <= 400


def test_a_stream_dealer_that_only_writes_at_the_end_of_its_input_still_works(tmp_path: Path) -> None:
    script = dealer(tmp_path, flush=False)
    impl = f"stream:{PY} {script} columns"
    with open_dealer(impl, DealerOptions(timeout=5)) as d:
        for block in (range(1, 200), range(200, 400)):
            assert first_failure(d.lines(block), block) is None
        assert d.buffered_processes  # type: ignore[attr-defined]


# A runtime with a thread that wakes on a timer (the JVM has several) never looks idle: a program of it
# that holds its answers until its stdin ends is seen at the deadline, blocked reading more input.
TICKING = textwrap.dedent(
    """
    import sys, threading, reference
    tick = threading.Event()
    threading.Thread(target=lambda: [tick.wait(0.002) for _ in iter(int, 1)], daemon=True).start()
    out = open(1, "w", buffering=1 << 20, closefd=False)
    for line in sys.stdin:
        out.write(reference.deal(int(line)).format("rows"))
    out.flush()
    """
)


def test_a_stream_that_holds_its_answers_while_a_thread_of_it_ticks_still_answers(tmp_path: Path) -> None:
    script = tmp_path / "ticking.py"
    script.write_text(TICKING)
    # --timeout is when it is looked at: after it, the program has as long again to write 3 boards and end,
    # some 10 ms of work (Python's exit): a margin of tens on a loaded machine.
    deals = range(1, 4)
    with open_dealer(f"stream:{PY} {script}", DealerOptions(timeout=0.5)) as d:
        assert first_failure(d.lines(deals), deals) is None
        assert d.buffered_processes == 1  # type: ignore[attr-defined]


def test_a_buffered_stream_that_crashes_is_blamed_on_the_right_deal(tmp_path: Path) -> None:
    # Nothing it answered reaches the pipe (its buffer holds 1 MB): each deal before the crash is dealt
    # again in a process of its own (some 50 ms each), so 19 lost answers show it as well as 149 did.
    script = dealer(tmp_path, "if n == 20: os._exit(1)", flush=False)
    deals = range(1, 41)
    assert first_failure(answers(f"stream:{PY} {script} rows", deals), deals) == (20, "crash")


def test_a_stream_program_that_answers_one_deal_and_ends_is_started_again_for_the_next(tmp_path: Path) -> None:
    """`read n; print board n; exit 0`: the end of a process that answered is no crash (SPEC: a crash is
    an abnormal end); a deal it ends on without answering still is (tests/test_hostile.py, quitter)."""
    script = tmp_path / "one_deal.py"
    script.write_text("import sys, reference\nsys.stdout.write(reference.deal(int(input())).format('rows'))\n")
    deals = range(1, 4)
    with open_dealer(f"stream:{PY} {script}", DealerOptions(timeout=30)) as d:
        assert first_failure(d.lines(deals), deals) is None
        assert d.notes == [ENDING_NOTE]  # type: ignore[attr-defined]


def test_a_big_block_does_not_deadlock(tmp_path: Path) -> None:
    """A deadlock (each side waiting for the other to read) would be a timeout at some deal."""
    script = dealer(tmp_path)
    deals = range(1, 20001)
    assert first_failure(answers(f"stream:{PY} {script} line", deals, timeout=30), deals) is None


@pytest.mark.parametrize(("encoding", "symbols"), [("cp437", "CDHS"), ("cp1252", "CDHS"), ("utf-16", "♣♦♥♠")])
def test_other_encodings(encoding: str, symbols: str, tmp_path: Path) -> None:
    path = tmp_path / "enc.py"
    path.write_text(
        "import sys, reference\n"
        f"out = open(1, 'w', encoding={encoding!r})\n"
        "for line in sys.stdin:\n"
        f"    board = reference.deal(int(line)).format('rows').translate(str.maketrans('CDHS', {symbols!r}))\n"
        "    out.write('Spiel für Ä\\n' + board)\n"
        "    out.flush()\n"
    )
    deals = range(1, 50)
    assert first_failure(answers(f"stream:{PY} {path}", deals, encoding=encoding), deals) is None


@pytest.mark.parametrize(
    ("impl", "says"),
    [
        ("cmd:no-such-program-anywhere {n}", "program not found"),
        ("stream:'unbalanced", "cannot split"),
        ("stream:   ", "empty command"),
    ],
)
def test_a_program_that_cannot_run_is_a_request_error(impl: str, says: str) -> None:
    with pytest.raises(RequestError, match=says):
        open_dealer(impl)


def test_cmd_appends_the_number_when_the_template_has_no_placeholder(tmp_path: Path) -> None:
    script = dealer(tmp_path)
    assert first_failure(answers(f"cmd:{PY} {script} line", range(7, 9)), range(7, 9)) is None


def test_no_shell_unless_asked(tmp_path: Path) -> None:
    script = tmp_path / "args.py"
    script.write_text(
        "import sys, reference\nif sys.argv[2:] == [';', '$HOME']: print(reference.deal(int(sys.argv[1])).line)\n"
    )
    assert answers(f"cmd:{PY} {script} {{n}} ; $HOME", range(3, 4)) == [reference.deal(3).line.encode()]
    script = dealer(tmp_path)
    shell = answers(f"cmd:sh -c '{PY} {script} line {{n}} | cat'", range(3, 4))
    assert shell == [reference.deal(3).line.encode()]


# Printers whose last line has no newline: a board is followed by its newline only when the next
# one starts ("\n" + board), or never (the program ends on its last card).
NO_FINAL_NEWLINE = textwrap.dedent(
    """
    import sys
    import reference
    FORMAT, SEPARATOR = sys.argv[1], "\\n" * int(sys.argv[2])
    numbers = [int(a) for a in sys.argv[3:]] or (int(line) for line in sys.stdin)
    for i, n in enumerate(numbers):
        sys.stdout.write((SEPARATOR if i else "") + reference.deal(n).format(FORMAT).rstrip("\\n"))
        sys.stdout.flush()
    """
)


@pytest.mark.parametrize("kind", ["stream", "cmd"])
@pytest.mark.parametrize(("fmt", "newlines"), [("rows", 1), ("rows", 2), ("line", 1), ("columns", 1)])
def test_a_last_line_without_a_newline_is_still_read(kind: str, fmt: str, newlines: int, tmp_path: Path) -> None:
    program = tmp_path / "no_final_newline.py"
    program.write_text(NO_FINAL_NEWLINE)
    impl = f"{kind}:{PY} {program} {fmt} {newlines}"
    with open_dealer(impl, DealerOptions(timeout=20)) as dealer:
        answers = dealer.lines(range(1, 21))
    assert answers == [reference.deal(n).format("line").encode() for n in range(1, 21)]


# A deal the dealer gives no board for, among deals it answers: the boards after it come one deal late.
SKIPS = "if n == {n}: sys.stderr.write('cannot deal {n}: unsupported\\n'); sys.stderr.flush(); return"
GARBAGE = "if n == {n}: out.write('??? deck corrupted %%%\\n'); out.flush(); return"
REFUSES = "if n == {n}: sys.stderr.write('cannot deal {n}: unsupported\\n'); sys.exit({status})"


@pytest.mark.parametrize(
    ("kind", "behaviour", "bad", "failure_kind", "said"),
    [
        ("stream", GARBAGE, 5, "invalid-output", ["no board for deal 5: it wrote '??? deck corrupted %%%'"]),
        ("stream", GARBAGE, 17, "invalid-output", ["no board for deal 17: it wrote '??? deck corrupted %%%'"]),
        ("stream", SKIPS, 5, "crash", ["it skipped deal 5", "stderr: cannot deal 5: unsupported"]),
        ("stream", SKIPS, 17, "crash", ["it skipped deal 17", "stderr: cannot deal 17: unsupported"]),
        ("stream", REFUSES.replace("{status}", "0"), 17, "crash", ["stderr: cannot deal 17: unsupported"]),
        ("stream", REFUSES.replace("{status}", "3"), 17, "crash", ["status 3", "stderr: cannot deal 17: unsupported"]),
        ("cmd", REFUSES.replace("{status}", "3"), 17, "crash", ["status 3", "stderr: cannot deal 17: unsupported"]),
        ("cmd", SKIPS, 5, "invalid-output", ["found 0 cards", "stderr: cannot deal 5: unsupported"]),
    ],
)
def test_a_deal_without_a_board_is_blamed_with_what_the_dealer_said_and_the_board_due(
    tmp_path: Path, kind: str, behaviour: str, bad: int, failure_kind: str, said: list[str]
) -> None:
    from harness.engine import Request, run

    script = dealer(tmp_path, behaviour.replace("{n}", str(bad)))
    impl = f"cmd:{PY} {script} rows {{n}}" if kind == "cmd" else f"stream:{PY} {script} rows"
    outcome = run(Request(impl=impl, ranges=((1, 100),), jobs=1, timeout=30))
    f = outcome.first_failure
    assert f is not None and (f.deal, f.kind) == (bad, failure_kind), f
    for words in said:
        assert words in f.message, f.message
    if kind == "stream" and "return" in behaviour:  # the next deal's board came in its place
        came = f"with the deals before it, deal {bad + 1}'s board came in its place"
        assert f"{came}, and the boards after it were each one deal late" in f.message
    assert f.expected == reference.canonical_lines([bad]).decode().rstrip("\n")  # the board that was due
    assert not any("waited for more input" in note for note in outcome.notes), outcome.notes


REPEATS = "if n == 5: out.write(reference.deal(n).format(FORMAT).replace('KD', 'QS')); out.flush(); return"


# The same mistake in a py: dealer, returning rows of card names.
PY_REPEATS = textwrap.dedent(
    """
    import reference
    def deal(n):
        cards = reference.deal(n).line.split()
        if n == 5:
            cards = ["QS" if c == "KD" else c for c in cards]
        return [cards[i : i + 8] for i in range(0, 52, 8)]
    """
)


@pytest.mark.parametrize("kind", ["cmd", "stream", "py"])
def test_a_board_with_a_repeated_card_is_kept_to_be_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    script = dealer(tmp_path, REPEATS)
    (tmp_path / "repeats.py").write_text(PY_REPEATS)
    monkeypatch.chdir(tmp_path)
    impl = {"cmd": f"cmd:{PY} {script} rows {{n}}", "stream": f"stream:{PY} {script} rows", "py": "py:repeats:deal"}
    bad = next(a for a in answers(impl[kind], range(1, 8)) if isinstance(a, Failure))
    assert (bad.deal, bad.kind) == (5, "invalid-output")
    assert "repeated: QS, missing: KD" in bad.message
    due = reference.canonical_lines([5]).decode().split()
    assert bad.actual == " ".join("QS" if c == "KD" else c for c in due)


_LINE = reference.canonical_lines([1])
_REPEAT = _LINE.replace(_LINE[3:5], _LINE[:2], 1)  # its second card made its first again
_ROWS = reference.deal(2).format("rows").encode()
_COLUMNS = reference.deal(3).format("columns").encode()


@pytest.mark.parametrize(
    ("output", "encoding", "taken"),
    [
        (_LINE, "utf-8", True),
        (reference.canonical_lines([2]), "latin-1", True),  # another deal's: the comparison says so
        (_ROWS, "utf-8", True),
        (_COLUMNS, "utf-8", True),
        (_REPEAT, "utf-8", False),  # read the precise way: an invalid board, its repeat shown
        (_LINE.lower(), "utf-8", False),
        (_LINE.replace(b" ", b"\t"), "utf-8", False),
        (_LINE[:-1] + b"\r", "utf-8", False),
        (_LINE[:-1], "utf-8", False),
        (_LINE, "utf-16", False),  # the same bytes are other text there
        (_ROWS.replace(b"\n", b"\r\n"), "utf-8", False),
        (_ROWS.replace(b"\n", b" \n", 1)[:-1], "utf-8", False),  # a space at a line's end
        (b" ".join(_ROWS.split(b"\n", 1)), "utf-8", False),  # rows of 16, 8, 8 …
        (_COLUMNS.replace(b"\n", b"\n\n", 1)[:-1], "utf-8", False),  # an empty line
        (b"Game #3\n" + _COLUMNS[:-8], "utf-8", False),  # a header (the rest cut: as long as a line)
    ],
    ids=[
        "canonical", "another-deal", "rows", "columns", "repeated-card", "lower-case", "tabs", "cr", "no-lf",
        "utf-16", "crlf", "trailing-space", "odd-rows", "empty-line", "header",
    ],
)  # fmt: skip
def test_an_output_of_plain_card_names_is_answered_as_the_precise_reader_would(
    output: bytes, encoding: str, taken: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`cmd:` takes an output of plain card names one space apart, in rows, columns or a line, without the
    precise reader; anything else goes to it, and the answer either way is the precise reader's (the fast
    way switched off)."""
    from harness.adapters import program

    (tmp_path / "out").write_bytes(output)
    writer = "import sys; sys.stdout.buffer.write(open(sys.argv[1], 'rb').read())"
    impl = f'cmd:{PY} -c "{writer}" {tmp_path / "out"} {{n}}'
    assert (program._plain_board(output, encoding) is not None) is taken
    assert len(output) == LINE_BYTES or not taken
    quick = answers(impl, range(1, 2), encoding=encoding)
    monkeypatch.setattr(program, "_plain_board", lambda output, encoding: None)
    assert quick == answers(impl, range(1, 2), encoding=encoding)
    assert isinstance(quick[0], bytes) or not taken


@pytest.mark.parametrize("layout", ["rows", "columns", "line"])
def test_plain_card_names_are_read_as_the_precise_reader_reads_them_in_every_layout(layout: str) -> None:
    """Over many boards: the quick reading of plain names is the precise reader's, in each layout."""
    from harness.adapters import program

    for n in range(1, 2001, 7):
        output = reference.deal(n).format(layout).encode()
        assert program._plain_board(output, "utf-8") == canonical_line(read_board(output.decode())), n
