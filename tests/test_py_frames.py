"""The `py:` parent takes a run of line frames read together at once (`PythonDealer._whole_lines`):
exactly the frames `read_answer` would take as lines for the deals asked, in a row, and no other."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import reference
from harness.adapters.base import Answer
from harness.adapters.py_runner import answer_frame, read_answer
from harness.adapters.python import PythonDealer

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
