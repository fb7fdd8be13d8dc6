"""The framer reads the same boards however a program's output is cut into reads, for as long as
the program runs (issue 11: a header flushed at the end of each write, as C++ `std::endl` does,
made one framer lose count after some 20,000 boards and report a false divergence).

A program's output is a stream of bytes that it flushes at points of its habit; a reader gets
runs of whole writes, now and then cut at any byte where a pipe happens to fill.  Every test
feeds ONE framer the whole output and compares what it framed with the reference's canonical
lines.
"""

from __future__ import annotations

import itertools
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from conftest import need_tools
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

import reference
from harness.cards import BoardError
from harness.cli import main
from harness.framing import BoardFramer
from reference.cards import CARD_NAMES, COLUMNS

DEALERS = Path(__file__).parent / "dealers"
Bytes = npt.NDArray[np.uint8]
Offsets = npt.NDArray[np.intp]


def _names(cards: Bytes, order: list[int] | None = None) -> list[list[str]]:
    return [[CARD_NAMES[c] for c in (row if order is None else row[order])] for row in cards]


# How a board is printed: a function of (deal number, its 52 card names in dealing order).
def _deck_rows(n: int, names: list[str], eol: str = "\n") -> str:
    return f"Deck {n}{eol}" + "".join(" ".join(names[i : i + 8]) + eol for i in range(0, 52, 8)) + eol


def _game_columns(n: int, names: list[str]) -> str:
    return f"Game #{n}\n" + "".join(" ".join(names[c::COLUMNS]) + "\n" for c in range(COLUMNS))


def _one_line(n: int, names: list[str]) -> str:
    return " ".join(names) + "\n"


def _json_rows(n: int, names: list[str]) -> str:
    return json.dumps([names[i : i + 8] for i in range(0, 52, 8)]) + "\n"


def _ansi_symbols(n: int, names: list[str]) -> str:
    def card(c: str) -> str:
        return f"\x1b[{31 if c[1] in 'DH' else 30}m{c[0]}{'♣♦♥♠'['CDHS'.index(c[1])]}\x1b[0m"

    return "".join(" ".join(card(c) for c in names[i : i + 8]) + "\n" for i in range(0, 52, 8))


STYLES: dict[str, Callable[[int, list[str]], str]] = {
    "Deck N, rows, blank line": _deck_rows,
    "Deck N, rows, CRLF": lambda n, names: _deck_rows(n, names, "\r\n"),
    "Game #N, columns": _game_columns,
    "one line": _one_line,
    "JSON rows": _json_rows,  # these two: every board the same bytes but its cards (a template reads them)
    "ANSI colours, suit symbols": _ansi_symbols,
}


def printed(style: str, first: int, count: int) -> tuple[bytes, list[bytes]]:
    """What a program prints for deals first … first+count−1, and the canonical lines it stands for."""
    cards = reference.cards_array(np.arange(first, first + count, dtype=np.int64))
    show = STYLES[style]
    text = "".join(show(first + i, names) for i, names in enumerate(_names(cards)))
    lines = reference.lines_array(np.arange(first, first + count, dtype=np.int64)).tobytes()
    return text.encode(), [lines[i : i + 156] for i in range(0, len(lines), 156)]


def flush_points(data: bytes, habit: str) -> Offsets:
    """The byte offsets after which a program of this habit writes (a flush)."""
    b = np.frombuffer(data, dtype=np.uint8)
    line_ends = np.flatnonzero(b == ord("\n")) + 1
    if habit == "line":
        return line_ends
    if habit == "none":  # stdio's own buffer of a pipe: 4096 bytes, cut anywhere
        return np.arange(4096, len(data), 4096)
    if habit == "card":  # after each card: every space or line end that follows a letter or digit
        return np.flatnonzero(np.isin(b[1:], [ord(" "), ord("\n")]) & (b[:-1] > ord(" "))) + 1
    starts = np.concatenate(([0], line_ends[:-1]))
    header_ends = line_ends[[data[s : s + 4] in (b"Deck", b"Game") for s in starts.tolist()]]
    board_ends = line_ends[[data[s : s + 2] in (b"\n", b"\r\n") for s in starts.tolist()]]
    if habit == "header":  # std::endl after the header only: a write ends with a header line
        return header_ends
    if habit == "tied":  # and cin tied to cout: the rows are flushed before each read
        return np.union1d(header_ends, board_ends)
    if habit == "board":
        return board_ends
    raise ValueError(habit)


HABITS = ("header", "tied", "line", "board", "card", "none")


def framed(data: bytes, cuts: Offsets, framer: BoardFramer) -> list[bytes | BoardError]:
    """Feed `framer` the data cut at `cuts`; what it framed, the end of the output included."""
    bounds = [0, *np.unique(cuts[(cuts > 0) & (cuts < len(data))]).tolist(), len(data)]
    boards = [board for lo, hi in itertools.pairwise(bounds) for board in framer.feed(data[lo:hi])]
    end = framer.finish()
    return boards if end is None else [*boards, end]


def first_wrong(got: list[bytes | BoardError], want: list[bytes]) -> str | None:
    """Where the framed boards first differ from the canonical lines, said for a failing assert."""
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        if g != w:
            return f"board {i + 1} of {len(want)}: {g!r:.120}"
    return None if len(got) == len(want) else f"{len(got)} boards framed, {len(want)} printed"


# Deals with five-digit numbers, so that every board of a style prints the same number of bytes.
FIRST = 10_000


@pytest.mark.parametrize(
    ("boards_per_read", "every"),
    # A read of one board at every place costs 60,000 reads for the ANSI style: every third place here, and
    # every place with the slow tests.
    [(1, 3), (70, 1), pytest.param(1, 1, marks=pytest.mark.slow)],
)
@pytest.mark.parametrize(
    "style", ["Deck N, rows, blank line", "Game #N, columns", "JSON rows", "ANSI colours, suit symbols"]
)
def test_every_cut_within_a_board_repeated_for_a_hundred_boards(style: str, boards_per_read: int, every: int) -> None:
    """Reads of the same length cut the output at the same place of every board: every place in turn
    (every `every`-th).

    A small `max_board_chars` makes what a framer wrongly keeps from board to board overflow
    within a hundred boards rather than tens of thousands.
    """
    count = 100 + boards_per_read
    data, want = printed(style, FIRST, count)
    period = len(data) // count
    assert period * count == len(data)
    for offset in range(0, period, every):
        cuts = np.arange(offset, len(data), period * boards_per_read)
        got = framed(data, cuts, BoardFramer(max_board_chars=max(512, period)))
        assert got == want, f"cut at byte {offset} of each board: {first_wrong(got, want)}"


READS = {
    "style": st.sampled_from(sorted(STYLES)),
    "habit": st.sampled_from(HABITS),
    "count": st.integers(20_000, 30_000),
    "keep": st.sampled_from([1.0, 0.5, 0.1]),
    "splits": st.sampled_from([0, 1, 30]),
    "seed": st.integers(0, 2**32 - 1),
}
# Each example frames tens of thousands of boards: shrinking one would take minutes, and the
# failure message already says which board went wrong.
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


def check_reads(style: str, habit: str, count: int, keep: float, splits: int, seed: int) -> None:
    """Reads are runs of whole writes (each write ends a read with probability `keep`, at most
    one read in two boards), plus `splits` reads in every thousand boards cut at any byte, as a
    full pipe cuts them."""
    if habit in ("header", "tied", "board") and not style.startswith(("Deck", "Game")):
        habit = "line"  # no header, no blank line: those habits flush nowhere
    data, want = printed(style, FIRST, count)
    rng = np.random.default_rng(seed)
    writes = flush_points(data, habit)
    reads = writes[rng.random(writes.shape[0]) < min(keep, count / 2 / max(1, writes.shape[0]))]
    anywhere = rng.integers(1, len(data), size=splits * count // 1000)
    got = framed(data, np.concatenate((reads, anywhere)), BoardFramer())
    assert got == want, first_wrong(got, want)


@settings(max_examples=1, deadline=None, phases=NO_SHRINK, suppress_health_check=[HealthCheck.too_slow])
@given(**READS)
# The case: a header flushed at the end of (nearly) every write, no read cut mid-board.
@example("Deck N, rows, blank line", "tied", 30_000, 1.0, 0, 0)
@example("Deck N, rows, CRLF", "header", 20_000, 0.5, 1, 1)
def test_one_framer_reads_tens_of_thousands_of_boards_however_the_reads_fall(
    style: str, habit: str, count: int, keep: float, splits: int, seed: int
) -> None:
    check_reads(style, habit, count, keep, splits, seed)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, phases=NO_SHRINK, suppress_health_check=[HealthCheck.too_slow])
@given(**READS)
def test_one_framer_reads_tens_of_thousands_of_boards_in_many_more_ways(
    style: str, habit: str, count: int, keep: float, splits: int, seed: int
) -> None:
    check_reads(style, habit, count, keep, splits, seed)


# ---------------------------------------------------------------------------------------------
# The same, end to end: a C dealer with these habits, through `verify stream:`.


@pytest.fixture(scope="module")
def printer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need_tools("cc")
    exe = tmp_path_factory.mktemp("printer") / "flushing_printer"
    subprocess.run(["cc", "-O2", "-o", str(exe), str(DEALERS / "flushing_printer.c")], check=True)
    return exe


def verify(printer: Path, habit: str, drain: int, last: int, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["verify", f"stream:{printer} {habit} {drain}", "--range", f"1-{last}", "--jobs", "1"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.startswith("CONFORMS") and f"{last} deals checked" in out, out


@pytest.mark.parametrize(
    ("habit", "drain", "last"),
    [
        # drain K: every K-th deal waits until its reader has read up to its header, as a program
        # no faster than its reader does: the reads that lost count before the fix.
        ("tied", 5, 30_000),  # over three million with the slow tests
        ("header", 5, 30_000),
        ("crlf", 5, 30_000),
        ("line", 0, 20_000),
        ("board", 0, 20_000),
        ("card", 0, 5_000),
        ("none", 0, 30_000),
    ],
)
def test_a_correct_printer_conforms_whatever_its_flushing_habit(
    printer: Path, habit: str, drain: int, last: int, capsys: pytest.CaptureFixture[str]
) -> None:
    verify(printer, habit, drain, last, capsys)


@pytest.mark.slow
@pytest.mark.parametrize(("habit", "drain"), [("tied", 0), ("tied", 50)])
def test_a_correct_printer_flushing_its_headers_conforms_over_three_million_deals(
    printer: Path, habit: str, drain: int, capsys: pytest.CaptureFixture[str]
) -> None:
    verify(printer, habit, drain, 3_000_000, capsys)
