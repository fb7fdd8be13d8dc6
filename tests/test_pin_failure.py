"""`pin_failure` (harness.adapters.pinning), the one policy for pinning a long-lived process's failure to its deal,
against model dealers: one that dies at one deal whatever came before, one that dies at its k-th
deal in any process, one whose death does not come back."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from harness.adapters.pinning import PIN_WINDOW, pin_failure
from harness.failures import Failure


def line(n: int) -> bytes:
    return f"board {n}\n".encode()


def died(n: int, note: str = "") -> Failure:
    return Failure(n, "crash", f"deal({n}){note}: died")


class Model:
    """A dealer that dies at deal `deadly` (alone too), or at its `kth` deal in a process."""

    def __init__(self, deadly: int | None = None, kth: int | None = None, history: int = 0) -> None:
        self.deadly, self.kth, self.history = deadly, kth, history
        self.fresh_starts = 0

    def _dies(self, n: int, dealt_before: int) -> bool:
        return n == self.deadly or (self.kth is not None and dealt_before + 1 == self.kth)

    def alone(self, n: int) -> Failure | bytes:
        self.fresh_starts += 1
        return died(n) if self._dies(n, 0) else line(n)

    def again(self, todo: Sequence[int]) -> list[Failure | bytes]:
        """The failed process's `history` deals again, then `todo` one at a time."""
        self.fresh_starts += 1
        if self.kth is not None and self.history >= self.kth:
            return []  # dies before it reaches todo: not what happened the first time
        answers: list[Failure | bytes] = []
        for i, n in enumerate(todo):
            if self._dies(n, self.history + i):
                return [*answers, died(n, f", after {self.history + i} other deals")]
            answers.append(line(n))
        return answers


TODO = list(range(11, 31))
FIRST = died(11)
KEEPS_STATE = "the dealer keeps state from deal to deal)"


@pytest.mark.parametrize(
    ("model", "with_again", "answers"),
    [
        # Without `again` (a program whose output is buffered): each deal alone from a fresh start.
        (Model(deadly=15), False, [*map(line, range(11, 15)), died(15)]),
        (
            Model(kth=8),
            False,
            [
                Failure(
                    11,
                    "crash",
                    FIRST.message + " (and alone every deal answered: the dealer keeps state from deal to deal)",
                )
            ],
        ),
        # With `again`: where the process's life, dealt again, dies; that deal alone says which.
        (Model(deadly=15, history=3), True, [*map(line, range(11, 15)), died(15)]),
        (
            Model(kth=8, history=3),
            True,
            [
                *map(line, range(11, 15)),
                Failure(
                    15,
                    "crash",
                    "deal(15), after 7 other deals: died (alone, deal 15 answers: " + KEEPS_STATE,
                ),
            ],
        ),
        (Model(kth=1), True, [died(11)]),
        (
            Model(),
            True,
            [
                Failure(
                    11,
                    "crash",
                    FIRST.message + " (dealt again the same way from a fresh start, it did not fail: not reproducible)",
                    transient=True,
                )
            ],
        ),
        (
            Model(kth=4, history=5),
            True,
            [
                Failure(
                    11,
                    "crash",
                    FIRST.message + " (dealt again the same way from a fresh start, it did not fail: not reproducible)",
                    transient=True,
                )
            ],
        ),
    ],
    ids=[
        "alone-deadly",
        "alone-stateful",
        "again-deadly",
        "again-stateful",
        "again-first",
        "again-gone",
        "again-earlier",
    ],
)
def test_pin_failure(model: Model, with_again: bool, answers: list[Failure | bytes]) -> None:
    again: Callable[[Sequence[int]], list[Failure | bytes]] | None = model.again if with_again else None
    assert pin_failure(TODO, FIRST, model.alone, again) == answers


@pytest.mark.parametrize("with_again", [False, True])
def test_pin_failure_costs(with_again: bool) -> None:
    """With `again`, a stateful death costs two fresh starts, not one per deal of the window."""
    model = Model(kth=30)
    todo = list(range(1, 2 * PIN_WINDOW))
    pin_failure(todo, died(1), model.alone, model.again if with_again else None)
    assert model.fresh_starts == (2 if with_again else PIN_WINDOW)


def test_a_timeout_that_alone_does_not_recur_is_not_called_state() -> None:
    """A hang in a long-lived process that no deal repeats alone: a slow moment, said as seen (issue 20)."""
    hung = Failure(11, "timeout", "no answer within 1 s")
    got = pin_failure(TODO, hung, Model().alone)
    assert got == [
        Failure(
            11,
            "timeout",
            hung.message + " (dealt again alone, each from a fresh process, every deal "
            "answered: the timeout did not recur)",
            transient=True,
        )
    ]
