"""reference.ahead: a range's chunks computed one ahead in a thread, the same chunks, and no thread left behind."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest

import reference
from reference.ahead import computed_ahead


class Source:
    """An iterator of 0 … n−1 that records which thread computed each item, raising at `fail_at`."""

    def __init__(self, n: int, fail_at: int | None = None) -> None:
        self.n, self.fail_at = n, fail_at
        self.threads: list[str] = []

    def __iter__(self) -> Iterator[int]:
        for i in range(self.n):
            if i == self.fail_at:
                raise ValueError(f"item {i} failed")
            self.threads.append(threading.current_thread().name)
            yield i


def _alive(name: str) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == name]


@pytest.mark.parametrize("n", [0, 1, 2, 7])
def test_every_item_comes_in_order_from_the_background_thread(n: int) -> None:
    source = Source(n)
    assert list(computed_ahead(iter(source), name="ahead-test")) == list(range(n))
    assert source.threads == ["ahead-test"] * n
    assert not _alive("ahead-test")


@pytest.mark.parametrize("fail_at", [0, 1, 5])
def test_an_item_s_exception_is_raised_where_the_item_would_have_come(fail_at: int) -> None:
    got: list[int] = []
    with pytest.raises(ValueError, match=f"item {fail_at} failed"):
        for item in computed_ahead(iter(Source(9, fail_at)), name="ahead-test"):
            got.append(item)
    assert got == list(range(fail_at))
    assert not _alive("ahead-test")


def _close_after_two(it: Iterator[int]) -> None:
    next(it), next(it)
    it.close()  # type: ignore[attr-defined]


def _raise_after_two(it: Iterator[int]) -> None:
    with pytest.raises(KeyError):
        for item in it:
            if item == 1:
                raise KeyError(item)


def _drop_after_two(it: Iterator[int]) -> None:
    next(it), next(it)
    del it


@pytest.mark.parametrize("stop", [_close_after_two, _raise_after_two, _drop_after_two])
def test_a_caller_that_stops_early_stops_the_thread(stop: Callable[[Iterator[int]], None]) -> None:
    source = Source(10_000)
    stop(computed_ahead(iter(source), name="ahead-test"))
    assert not _alive("ahead-test")
    assert len(source.threads) <= 4  # two taken, at most one waiting and one being computed


def test_iter_lines_computes_ahead_only_when_asked_and_leaves_no_thread() -> None:
    for ahead, threads in [(True, 1), (False, 0)]:
        chunks = reference.iter_lines(1, 40, batch=8, ahead=ahead)
        first = next(chunks)
        assert len(_alive("reference-lines")) == threads
        rest = list(chunks)
        assert not _alive("reference-lines")
        assert first + b"".join(rest) == b"".join(reference.deal(n).line.encode() for n in range(1, 41))


def test_iter_lines_refuses_a_bad_range_in_the_caller_s_thread() -> None:
    with pytest.raises(ValueError, match="reversed"):
        next(reference.iter_lines(5, 1, batch=1))
    assert not _alive("reference-lines")
