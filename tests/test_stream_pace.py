"""`stream:` at the dealer's pace (issue 32): boards of a fixed layout taken in bulk, stored digests
answering for the reference; and the same verdicts as the precise reader, however a dealer lies part-way."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from conftest import need_compiled_reader, need_tools

import harness.adapters.stream as stream
import harness.fixed_layout as fixed_layout
import reference
from harness import engine
from harness.adapters import DealerOptions, open_dealer
from harness.adapters.reference import stored_digest, stored_tables
from harness.adapters.stream import numbers_text
from harness.cards import board_from_lines, read_line
from harness.engine import Outcome, Request
from harness.fixed_layout import FixedLayout
from harness.fixtures.store import FIXTURES_ENV
from harness.intervals import range_blocks

LIAR = Path(__file__).parent / "dealers" / "pace_liar.c"


@pytest.fixture(scope="module")
def liar(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/dealers/pace_liar.c built: a native dealer as fast as real ones, that lies at one deal."""
    need_tools("cc")
    out = tmp_path_factory.mktemp("liar") / "pace_liar"
    subprocess.run(["cc", "-O2", "-o", str(out), str(LIAR)], check=True)
    return out


def verdict(
    impl: str, last: int, *, bulk: bool = True
) -> tuple[bool, int, tuple[int, str, str] | None, tuple[str, ...]]:
    """What `verify IMPL --range 1-LAST --jobs 1` finds, and the notes it says; `bulk=False`: the precise
    reader alone."""
    saved = stream.FIXED_TRIES
    stream.FIXED_TRIES = stream.FIXED_TRIES if bulk else 0  # no fixed layout is ever learnt: all precise
    try:
        outcome: Outcome = engine.run(Request(impl=impl, ranges=((1, last),), jobs=1))
    finally:
        stream.FIXED_TRIES = saved
    f = outcome.first_failure
    return outcome.conformant, outcome.checked, (f.deal, f.kind, f.message) if f else None, tuple(outcome.notes)


# (format, lie, what is true of the lie: "right" boards, a failure at AT, or None where the precise reader's
# own verdict is the one to match: issue 31 changes how it reads a garbage line).
LIES = {
    "another length": ("line", "wide", "right"),
    "lower case from there on": ("line", "lower", "right"),
    "suit-first card": ("rows", "suitfirst", "right"),
    "a wrong board": ("line", "swapped", "fails"),
    "a missing board, lines": ("line", "missing", "fails"),
    "a missing board, rows": ("rows", "missing", "fails"),
    "a missing board, header": ("header", "missing", "fails"),
    "a garbage line, lines": ("line", "garbage", None),
    "a garbage line, header": ("header", "garbage", None),
    "a card in a header": ("header", "headercard", None),
    "no lie, rows under a header": ("header", "none", "right"),
    "wrong once it has dealt 20,001 (stateful)": ("line", "tired", None),
}


def _check_lie(liar: Path, fmt: str, lie: str, truth: str | None, at: int, last: int) -> None:
    impl = f"stream:{liar} {fmt} {lie} {at}"
    fast, precise = verdict(impl, last), verdict(impl, last, bulk=False)
    assert fast == precise
    if truth == "right":
        assert fast[:2] == (True, last)
    elif truth == "fails":
        assert fast[2] is not None and fast[2][0] == at


@pytest.mark.parametrize(("fmt", "lie", "truth"), LIES.values(), ids=LIES.keys())
def test_a_dealer_that_lies_part_way_gets_the_precise_readers_verdict(
    liar: Path, fmt: str, lie: str, truth: str | None
) -> None:
    _check_lie(liar, fmt, lie, truth, 20_001, 30_000)  # deal 20,001 is in a block read in bulk


@pytest.mark.slow
@pytest.mark.parametrize(
    ("fmt", "lie", "truth"),
    [LIES["another length"], LIES["a wrong board"], LIES["a missing board, rows"], LIES["a garbage line, header"]],
)
def test_a_lie_at_deal_700001_is_caught_there(liar: Path, fmt: str, lie: str, truth: str | None) -> None:
    _check_lie(liar, fmt, lie, truth, 700_001, 720_000)


def _unchecked(self: FixedLayout, frames: np.ndarray, classes: np.ndarray) -> int:
    return int(frames.shape[0])


@pytest.mark.parametrize(("fmt", "lie"), [("line", "lower"), ("line", "wide"), ("rows", "suitfirst")])
def test_without_the_class_check_a_right_dealer_would_be_blamed(
    liar: Path, fmt: str, lie: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check that each board taken in bulk has the learnt board's classes is what keeps these right."""
    impl = f"stream:{liar} {fmt} {lie} 20001"
    assert verdict(impl, 30_000)[:2] == (True, 30_000)
    monkeypatch.setattr(fixed_layout, "_cardread", None)
    monkeypatch.setattr(FixedLayout, "_fitting", _unchecked)
    assert verdict(impl, 30_000)[0] is False  # a false verdict: the guard is load-bearing


def _layout_of(text: str) -> FixedLayout:
    lines = [read_line(raw, i + 1) for i, raw in enumerate(text.split("\n")[:-1])]
    layout = tuple(len(ln.cards) for ln in lines if ln.cards)
    learnt = fixed_layout.fixed_layout(text, board_from_lines(lines), layout)
    assert learnt is not None
    return learnt


def _header_boards(first: int, count: int, *, header: bool = True) -> bytes:
    rows = reference.canonical_lines(range(first, first + count))
    out = []
    for i in range(count):
        line = rows[156 * i : 156 * (i + 1)]
        body = b"".join(line[24 * r : 24 * r + 23] + b"\n" for r in range(6)) + line[144:]
        out.append((b"Game #%d\n" % (first + i) if header else b"") + body)
    return b"".join(out)


@pytest.mark.parametrize("compiled", [True, False], ids=["C", "NumPy"])
@pytest.mark.parametrize(
    ("spoilt", "stops_at"),
    [(b"Game #1x", 3), (b"Game  12", 3), (b"game #12", 3), (b"Game #12", 6)],
    ids=["a letter for a digit", "a space for the #", "lower case header", "nothing spoilt"],
)
def test_a_board_that_does_not_fit_stops_the_bulk_there(
    compiled: bool, spoilt: bytes, stops_at: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not compiled:
        monkeypatch.setattr(fixed_layout, "_cardread", None)
    else:
        need_compiled_reader()
    boards = _header_boards(10, 6)
    layout = _layout_of(boards[: len(boards) // 6].decode())
    width = layout.width
    data = boards[: 3 * width] + spoilt + boards[3 * width + len(spoilt) :]
    taken = layout.take(data)
    assert (taken.count, taken.used) == (stops_at, stops_at * width)
    assert bytes(taken.lines) == reference.canonical_lines(range(10, 10 + stops_at))


# 100 boards of each layout: many whole groups of the C check (lcm(width, 32) bytes each)
BOARDS: dict[str, Callable[[], bytes]] = {
    "canonical lines": lambda: reference.canonical_lines(range(1000, 1100)),
    "rows": lambda: _header_boards(1000, 100, header=False),
    "rows under a header": lambda: _header_boards(1000, 100),
}


def _last_letter_lowered(board: bytes, letters: bytes) -> bytes:
    at = max(board.rfind(bytes([c])) for c in letters)
    return board[:at] + board[at : at + 1].lower() + board[at + 1 :]


# What a byte of a board becomes: each is read otherwise by the precise reader, or not at all.
SPOILS: dict[str, Callable[[bytes], bytes]] = {
    "a lower-case rank": lambda board: _last_letter_lowered(board, b"AJQKT"),
    "a lower-case suit": lambda board: _last_letter_lowered(board, b"CDHS"),
    "a tab for a space": lambda board: board[:-40] + board[-40:].replace(b" ", b"\t", 1),
    "a space for a line end": lambda board: board[:-1] + b" ",
    "a digit for a rank": lambda board: board[:-1].replace(b"Q", b"0", 1) + board[-1:],
}


@pytest.mark.parametrize("at", [0, 7, 8, 31, 64, 99])
@pytest.mark.parametrize("spoil", SPOILS)
@pytest.mark.parametrize("layout_name", BOARDS)
def test_the_compiled_check_stops_at_the_very_board_that_does_not_fit(
    layout_name: str, spoil: str, at: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The C check (whole groups of boards 32 bytes at a time, then board by board) and the NumPy check
    stop at the same board, wherever it lies in a group."""
    need_compiled_reader()
    boards = BOARDS[layout_name]()
    layout = _layout_of(boards[: len(boards) // 100].decode())
    w = layout.width
    spoilt_board = SPOILS[spoil](boards[at * w : (at + 1) * w])
    assert len(spoilt_board) == w and spoilt_board != boards[at * w : (at + 1) * w]
    data = boards[: at * w] + spoilt_board + boards[(at + 1) * w :]
    compiled, whole = layout.take(data), layout.take(boards)
    monkeypatch.setattr(fixed_layout, "_cardread", None)
    by_numpy = layout.take(data)
    assert (compiled.count, by_numpy.count) == (at, at)
    assert whole.count == 100


@pytest.mark.parametrize(
    "deals", [range(1, 2000), range(95, 1005), range(999_990, 1_000_010), range(2**33 - 70, 2**33), [5, 3, 9]]
)
def test_deal_numbers_are_written_as_a_program_reads_them(deals: range | list[int]) -> None:
    assert numbers_text(deals) == "".join(f"{n}\n" for n in deals).encode()


@pytest.mark.parametrize(
    ("first", "last", "blocks"),
    [
        (1, 3_000_000, ["1-1000000", "1000001-2000000", "2000001-3000000"]),
        (
            500_001,
            2_010_000,
            [*(f"{a}-{a + 9999}" for a in range(500_001, 1_000_001, 10_000)), "1000001-2000000", "2000001-2010000"],
        ),
        (1, 25_000, ["1-10000", "10001-20000", "20001-25000"]),
        (2_146_000_001, 2_147_483_647, ["2146000001-2147000000", "2147000001-2147483647"]),
    ],
)
def test_blocks_are_cut_on_the_stored_rows_where_the_range_allows(first: int, last: int, blocks: list[str]) -> None:
    request = Request(impl="stream:cat", ranges=((first, last),))
    assert [b.key for b in request.blocks()] == blocks
    assert [b.key for b in range_blocks(first, last)] == [b.key for b in range_blocks(first, last, rows=())]


def test_a_stored_row_is_the_reference_s_own_digest() -> None:
    for first, last in [(1, 10_000), (990_001, 1_000_000)]:
        deals = range(first, last + 1)
        assert stored_digest("classic", deals) == reference.block_digest(deals, "classic")
    assert stored_digest("classic", range(1, 9_000)) is None  # not a row


@pytest.fixture
def corrupted_fixtures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the fixtures whose classic row 10001-20000 holds another digest (its SHA-256 no longer the
    manifest's)."""
    source = Path(__file__).parent.parent / "fixtures"
    copy = tmp_path / "fixtures"
    shutil.copytree(source, copy)
    table = copy / "classic" / "digests-1-1000000.tsv"
    wrong = reference.block_digest(range(1, 10_001), "classic")
    text = table.read_text().splitlines()
    text = [f"10001\t20000\t{wrong}" if ln.startswith("10001\t") else ln for ln in text]
    table.write_text("\n".join(text) + "\n")
    monkeypatch.setenv(FIXTURES_ENV, str(copy))
    stored_tables.cache_clear()
    yield copy
    stored_tables.cache_clear()


def test_fixtures_that_are_not_intact_never_answer_for_the_reference(liar: Path, corrupted_fixtures: Path) -> None:
    assert stored_tables("classic") == {}
    assert verdict(f"stream:{liar} line none 0", 30_000)[:2] == (True, 30_000)


def test_were_they_trusted_the_corrupted_row_would_blame_a_right_dealer(
    liar: Path, corrupted_fixtures: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the manifest check guards against: the same corrupted row, trusted, gives a false verdict."""
    manifest = corrupted_fixtures / "MANIFEST.json"
    doc = json.loads(manifest.read_text())
    table = corrupted_fixtures / "classic" / "digests-1-1000000.tsv"
    for entry in doc["files"]:
        if entry["path"] == "classic/digests-1-1000000.tsv":
            entry["sha256"] = hashlib.sha256(table.read_bytes()).hexdigest()
    manifest.write_text(json.dumps(doc))
    stored_tables.cache_clear()
    found = verdict(f"stream:{liar} line none 0", 30_000)
    assert found[0] is False and found[2] is not None and 10_001 <= found[2][0] <= 20_000


def test_a_stream_dealer_learns_its_layout_and_then_reads_in_bulk(liar: Path) -> None:
    with open_dealer(f"stream:{liar} header none 0", DealerOptions()) as dealer:
        assert isinstance(dealer, stream.StreamDealer)
        first = dealer.digest_until_failure(range(1, 17))
        assert dealer.reads_in_bulk
        rest = dealer.digest_until_failure(range(17, 200_001))  # its header's number grows 5 digits
        assert (first, rest) == (reference.block_digest(range(1, 17)), reference.block_digest(range(17, 200_001)))
        assert dealer.reads_in_bulk


@pytest.mark.parametrize("place", [0, 1, 2, 31, 145, 146, 155], ids=lambda p: f"byte {p}")
def test_the_compiled_check_and_numpy_agree_on_every_byte(place: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each byte value at a rank, a suit and a fixed place, inside the sixteen-byte blocks and in the tail."""
    need_compiled_reader()
    line = reference.canonical_lines([617])
    layout = _layout_of(line.decode())
    spoilt = [line[:place] + bytes([b]) + line[place + 1 :] for b in range(256)]
    compiled = [layout.take(data).count for data in spoilt]
    monkeypatch.setattr(fixed_layout, "_cardread", None)
    assert compiled == [layout.take(data).count for data in spoilt]
    assert sum(compiled) == {0: 13, 1: 4, 2: 1, 31: 4, 145: 4, 146: 1, 155: 1}[place]  # the ranks, the suits, one byte
