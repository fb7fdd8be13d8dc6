"""The one policy for pinning a crash or hang of a long-lived dealer process to its deal (`pin_failure`),
for the adapters that keep a process for many deals (`stream:`, the Node driver)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from harness.failures import KEEPS_STATE, Failure

PIN_WINDOW = 256  # deals re-dealt one at a time, from a fresh start, to pin a failure


def pin_failure(
    todo: Sequence[int],
    failure: Failure,
    alone: Callable[[int], Failure | bytes],
    again: Callable[[Sequence[int]], list[Failure | bytes]] | None = None,
) -> list[Failure | bytes]:
    """A long-lived process failed (`failure`) before answering `todo[0]`: the answers from
    `todo[0]` up to and including the failure, pinned to its deal.

    `alone(n)` deals `n` alone from a fresh start.  `again(todo)`, for a process that can be
    made to answer one deal at a time, deals what the failed process had dealt again from a fresh
    start, then `todo` one at a time, and returns the answers up to and including the first
    failure (none if it failed earlier): the failure is then at the very deal it happened in.
    That deal is dealt alone too, and if it answers, the failure came from what the dealer kept
    of the deals before it, and says so.  A failure `again` does not reproduce stays at `todo[0]`.

    Without `again`, buffered output lost in a crash could shift the blame, so the unanswered
    deals are re-dealt one at a time, each from a fresh start, until one fails: the answers up to
    and including that failure.  If every one answers alone, the process failed from what the
    deals did together: the failure stays at `todo[0]`, saying so.
    """
    if again is not None:
        answers = again(todo)
        failed = answers[-1] if answers else None
        if not isinstance(failed, Failure):
            note = " (dealt again the same way from a fresh start, it did not fail: not reproducible)"
            return [Failure(todo[0], failure.kind, failure.message + note, transient=True)]
        by_itself = alone(failed.deal)
        if isinstance(by_itself, Failure):
            return [*answers[:-1], by_itself]
        note = f" (alone, deal {failed.deal} answers: {KEEPS_STATE})"
        return [*answers[:-1], Failure(failed.deal, failed.kind, failed.message + note)]
    answers = []
    for number in todo[:PIN_WINDOW]:
        answer = alone(number)
        answers.append(answer)
        if isinstance(answer, Failure):
            return answers
    if failure.kind == "timeout":  # a slow moment is not state: say only what was seen
        note = " (dealt again alone, each from a fresh process, every deal answered: the timeout did not recur)"
        return [Failure(todo[0], failure.kind, failure.message + note, transient=True)]
    note = f" (and alone every deal answered: {KEEPS_STATE})"
    return [Failure(todo[0], failure.kind, failure.message + note)]
