"""The `py:` parent takes a run of line frames read together at once (`PythonDealer._whole_lines`):
exactly the frames `read_answer` would take as lines for the deals asked, in a row, and no other."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import pytest

import reference
from harness.adapters.base import Answer
from harness.adapters.py_runner import answer_frame, read_answer
from harness.adapters.python import PythonDealer
from harness.errors import BoardError
from harness.framing import invalid_lines
from harness.shapes import canonical_line_of, line_to_check

DEALS = list(range(100, 140))


def _line(n: int) -> bytes:
    return reference.canonical_line(reference.deal(n).cards)


def _frames(change: dict[int, bytes]) -> bytes:
    """The frames of DEALS' lines, the k-th replaced by change[k]."""
    return b"".join(change.get(k, answer_frame(b"L", n, _line(n))) for k, n in enumerate(DEALS))


CASES = {
    "all lines": ({}, 40),
    "a frame for another deal": ({20: answer_frame(b"L", 999, _line(999))}, 20),
    "a failure": ({17: answer_frame(b"F", DEALS[17], b'{"kind": "error", "message": "x"}')}, 17),
    "a line one byte short": ({30: answer_frame(b"L", DEALS[30], _line(DEALS[30])[:-1])}, 30),
    "a line tagged otherwise": ({25: answer_frame(b"H", DEALS[25], _line(DEALS[25]))}, 25),
    "a forged line for the right deal (its cards are checked later)": (
        {5: answer_frame(b"L", DEALS[5], b"X" * len(_line(1)))},
        40,
    ),
    "a failure early": ({3: answer_frame(b"F", DEALS[3], b"{}")}, 3),
}


@pytest.mark.parametrize(("change", "taken"), CASES.values(), ids=CASES.keys())
def test_a_run_of_lines_is_taken_as_read_answer_takes_each(change: dict[int, bytes], taken: int) -> None:
    data = _frames(change)
    _assert_taken(data, taken)


def test_fewer_frames_than_are_worth_checking_at_once_are_left_to_read_answer() -> None:
    _assert_taken(_frames({})[: 15 * 169], 0)


def _assert_taken(data: bytes, taken: int) -> None:
    fake = SimpleNamespace(_buffer=bytearray(data), _at=0)
    answers: list[Answer] = []
    assert PythonDealer._whole_lines(fake, DEALS, 0, answers) == taken  # type: ignore[arg-type]
    at, expected = 0, []
    for n in DEALS[:taken]:
        size = int.from_bytes(data[at : at + 4], "big")
        expected.append(read_answer(data[at + 4 : at + 4 + size], n))
        at += 4 + size
    assert answers == expected and fake._at == at


def _names(n: int) -> list[str]:
    return _line(n).decode().split()


def _rows(names: list[str]) -> list[list[str]]:
    return [names[i : i + 8] for i in range(0, 52, 8)]


class _Name(str):
    pass


def _first_plain(groups: list[list[str]]) -> list[list[str]]:
    return [[str(groups[0][0]), *groups[0][1:]], *groups[1:]]


def _moved(groups: list[list[str]]) -> list[list[str]]:
    """The groups, the last card of the first moved to the end of the second."""
    return [groups[0][:-1], [*groups[1], groups[0][-1]], *groups[2:]]


SENT_AS_THEY_ARE = {
    "rows of lists": _rows(_names(7)),
    "rows of tuples": tuple(map(tuple, _rows(_names(8)))),
    "rows of str subclasses but the first": _first_plain([[_Name(c) for c in row] for row in _rows(_names(9))]),
    "columns of lists": [_names(10)[i::8] for i in range(8)],
    "columns of tuples": tuple(tuple(_names(11)[i::8]) for i in range(8)),
    "52 names": _names(12),
    "52 names in a tuple": tuple(_names(13)),
    "text of rows": "\n".join(map(" ".join, _rows(_names(14)))) + "\n",
    "text of rows, the last line unended": "\n".join(map(" ".join, _rows(_names(15)))),
}
READ_BY_CANONICAL_LINE_OF = {
    "rows of str subclasses": [[_Name(c) for c in row] for row in _rows(_names(9))],
    "52 str subclasses": [_Name(c) for c in _names(9)],
    "columns of 6 and 8": _moved([_names(7)[i::8] for i in range(8)]),
    "52 names and a 53rd": [*_names(7), "AS"],
    "51 names": _names(7)[:-1],
    "52 lower-case names": [c.lower() for c in _names(7)],
    "52 pairs": [(c[0], c[1]) for c in _names(7)],
    "columns in lower case": [[c.lower() for c in _names(7)[i::8]] for i in range(8)],
    "columns of dicts": [dict.fromkeys(_names(7)[i::8]) for i in range(8)],
    "lower case": _rows([c.lower() for c in _names(7)]),
    "10 for ten": _rows([c.replace("T", "10") for c in _names(17)]),
    "a name with a space": _rows(["A S" if c == "AS" else c for c in _names(7)]),
    "suit first": _rows([c[::-1] for c in _names(7)]),
    "a row that is a string": [" ".join(row) for row in _rows(_names(7))],
    "rows of 7 and 9": _moved(_rows(_names(7))),
    "rows of dicts": [dict.fromkeys(row) for row in _rows(_names(7))],
    "bytes": [[c.encode() for c in row] for row in _rows(_names(7))],
    "symbols": _rows([c[0] + "♣♦♥♠"["CDHS".index(c[1])] for c in _names(7)]),
    "text of columns": "\n".join(" ".join(_names(7)[i::8]) for i in range(8)) + "\n",
    "text of rows, CRLF": "\r\n".join(map(" ".join, _rows(_names(7)))) + "\r\n",
    "text of rows, two newlines at the end": "\n".join(map(" ".join, _rows(_names(7)))) + "\n\n",
    "text of rows, a blank line first": "\n" + "\n".join(map(" ".join, _rows(_names(7)))),
    "text of rows, tabs": "\n".join(map("\t".join, _rows(_names(7)))),
    "text of rows, two spaces": "\n".join(map("  ".join, _rows(_names(7)))),
    "text of rows in lower case": "\n".join(map(" ".join, _rows([c.lower() for c in _names(7)]))),
    "text of one line": " ".join(_names(7)),
    "empty text": "",
    "text with a surrogate": "\ud800" + "\n".join(map(" ".join, _rows(_names(7))))[1:],
}


def _outcome(read: Callable[[object], bytes], value: object) -> bytes | str:
    try:
        return read(value)
    except BoardError as exc:
        return str(exc)


BOARDS = {**SENT_AS_THEY_ARE, **READ_BY_CANONICAL_LINE_OF}


@pytest.mark.parametrize("value", BOARDS.values(), ids=BOARDS.keys())
def test_the_runner_sends_each_board_of_names_as_canonical_line_of_reads_it(value: object) -> None:
    assert _outcome(line_to_check, value) == _outcome(canonical_line_of, value)


def _twice(groups: list[list[str]]) -> list[list[str]]:
    """The groups, the first card of the second dealt again in place of the second card of the first."""
    return [[groups[0][0], groups[1][0], *groups[0][2:]], *groups[1:]]


CARD_TWICE = {
    "rows": _twice(_rows(_names(7))),
    "rows of tuples": tuple(map(tuple, _twice(_rows(_names(8))))),
    "columns": _twice([_names(10)[i::8] for i in range(8)]),
    "52 names": [_names(12)[0], *_names(12)[:51]],
    "text of rows": "\n".join(map(" ".join, _twice(_rows(_names(14))))) + "\n",
}


@pytest.mark.parametrize("value", CARD_TWICE.values(), ids=CARD_TWICE.keys())
def test_names_with_a_card_twice_are_sent_for_the_parent_to_refuse(value: object) -> None:
    line = line_to_check(value)
    assert invalid_lines([line]) == [0]
    assert "repeated" in str(_outcome(canonical_line_of, value))
