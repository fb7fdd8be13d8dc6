"""Comparing two dealers on one block: digests first, narrowed by digests when they differ, lines last."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import cast

from harness.adapters.base import Answer, Dealer
from harness.errors import RequestError
from harness.failures import KEEPS_STATE, Failure, kept_state
from harness.intervals import Block


@dataclass(frozen=True, slots=True)
class BlockResult:
    key: str
    checked: int  # deals of the block that were compared
    failure: Failure | None  # the block's smallest failing deal
    first: int | None = None  # the block's first deal number (unknown for results read from a resume log)
    notes: tuple[str, ...] = ()  # how the dealers had to be run, for the verdict (not kept in a resume log)


def differing_cards(expected: str, actual: str) -> list[int]:
    """1-based positions, in dealing order, where two canonical lines differ."""
    return [i + 1 for i, (e, a) in enumerate(zip(expected.split(), actual.split(), strict=False)) if e != a]


def mismatch_message(positions: list[int]) -> str:
    if len(positions) == 1:
        return f"card {positions[0]} differs"
    shown = [str(p) for p in positions[:6]]
    more = len(positions) - len(shown)
    tail = f" and {more} more" if more else f" and {shown.pop()}"
    return f"cards {', '.join(shown)}{tail} differ"


def _text(answer: Answer) -> str | None:
    return None if isinstance(answer, Failure) else answer.decode("ascii", "replace").rstrip("\n")


def first_difference(
    deals: Sequence[int], actual: list[Answer], expected: list[Answer], against: str
) -> Failure | None:
    """The first deal where `actual` is not `expected`, as a Failure; None if they agree."""
    for number, got, want in zip(deals, actual, expected, strict=True):
        if isinstance(want, Failure):
            # The implementation compared against failed: nothing can be judged at this deal.
            return Failure(number, "error", f"{against} failed here ({want.kind}: {want.message})", None, _text(got))
        if isinstance(got, Failure):
            return Failure(number, got.kind, got.message, _text(want), got.actual)
        if got != want:
            e, a = _text(want), _text(got)
            assert e is not None and a is not None
            return Failure(number, "mismatch", mismatch_message(differing_cards(e, a)), e, a)
    return None


Progress = Callable[[int], None]  # called with the deals just found to agree

FIRST_CHUNK = 16  # deals in a block's first digest call; each next one is GROWTH times larger
GROWTH = 4
STATE_KINDS = ("mismatch", "invalid-output")  # failures a dealer's kept state can cause, told by dealing alone
PINNED_KINDS = ("crash", "timeout")  # failures a dealer pins to their deal itself (adapters.pinning.pin_failure)
PARTS = 8  # a piece whose digest differs is split into this many to narrow it down
LINE_PASS = 64  # pieces this small are compared line by line
LARGEST_CHUNK = 1 << 16  # deals in a chunk at most, answer by answer (a block of a million: memory stays flat)
AHEAD_CHUNKS = 3  # chunks of the next block a dealer is asked for ahead (16 + 64 + 256 deals)


class BlockComparer:
    """Compares one dealer with another, block by block; the slower side's work overlaps the other's.

    A block is dealt in chunks of FIRST_CHUNK deals, then GROWTH times more each time (the plan
    depends on the block alone, never on the clock), so that a failure stops the block at its
    first differing chunk.  That chunk is narrowed by digests (split into PARTS, keep the
    first that differs) from a fresh process, down to LINE_PASS deals compared line by line.  A
    dealer whose answers depend on what it dealt before (stateful) or on chance (non-deterministic)
    is told apart, and said to be so, instead of blaming a deal that was right.
    """

    def __init__(
        self, actual: Dealer, expected: Dealer, *, owns_dealers: bool = True, dialect: str = "classic"
    ) -> None:
        self.actual, self.expected = actual, expected
        self.dialect = dialect  # what a mismatch is diagnosed against
        self.owns_dealers = owns_dealers
        self._side = ThreadPoolExecutor(max_workers=1, thread_name_prefix="impl")
        whole = actual.whole_blocks_only or expected.whole_blocks_only
        self._whole_blocks = whole and actual.bulk and expected.bulk
        limits = [getattr(d, "largest_chunk", None) for d in (actual, expected)]
        self._largest = min((n for n in limits if n is not None), default=LARGEST_CHUNK)
        self._seen: Failure | None = None  # the first failure of the actual dealer while narrowing a chunk
        # The last line pass's mismatch is the board of the next deal asked for (that deal), and the answer
        # after it the board of the deal after that (the answers shifted by one, not one swapped board).
        self._late: tuple[int, bool] | None = None

    def compare(self, block: Block, progress: Progress | None = None, then: Block | None = None) -> BlockResult:
        """The block's result; `then`: the block the next call will compare, if known (a dealer may start
        on its first chunks while the last one of this block is compared)."""
        deals = block.deals
        plan = chunk_plan(len(deals), whole=self._whole_blocks, largest=self._largest)
        for side in (self.actual, self.expected):
            if side.whole_blocks_only and not self._whole_blocks:
                side.block_digest(deals)  # the fixtures' whole block first: its chunks are then reproduced
        comings: list[Sequence[Sequence[int]]] = [(deals[lo:hi],) for lo, hi in plan[1:]]
        comings.append(self._first_chunks(then) if then is not None else ())
        stored = getattr(self.expected, "stored_digest", None)
        row = stored(deals) if stored is not None and not self._whole_blocks else None
        for i, ((lo, hi), coming) in enumerate(zip(plan, comings, strict=True)):
            self._seen = None
            if self._in_bulk and len(plan) > i + 1:
                # The rest of the block at once, its digest carried on from the chunks that agreed (and compared
                # with the stored row's): only where it differs are the chunks told apart, as if dealt one by one.
                found = self._rest_differs(deals, plan[i:], row)
                if found is None:
                    if progress:
                        progress(len(deals) - lo)
                    break
                start, (lo, hi) = lo, found
            else:
                start = lo
                if self._same(deals[lo:hi], coming):
                    if progress:
                        progress(hi - lo)
                    continue
            found_failure = self._pinned(deals, lo, hi) or self._narrow(deals, lo, hi)
            from harness.diagnosis import diagnosed  # the catalogue of mistakes: built only for a failure

            failure = self._with_expected(diagnosed(found_failure, self.dialect, self.actual))
            checked = list(deals).index(failure.deal) + 1
            if progress:
                progress(checked - start)
            return BlockResult(block.key, checked, failure, block.first, self.notes)
        return BlockResult(block.key, len(deals), None, block.first, self.notes)

    def _pinned(self, deals: Sequence[int], lo: int, hi: int) -> Failure | None:
        """The crash or hang the dealer met in deals[lo:hi], when nothing before it in the chunk differs: a
        program dealer has already dealt its deal alone from a fresh process to pin it there, so that
        narrowing the chunk would only meet it again, waiting out a hang each time.  None: narrow."""
        seen = self._seen
        if seen is None or seen.kind not in PINNED_KINDS or seen.deal not in deals[lo:hi]:
            return None
        at = list(deals[lo:hi]).index(seen.deal) + lo
        if at > lo:
            self.actual.reset()
            self._seen = None
            if not self._same(deals[lo:at]):  # a failure before it, dealt alone: narrowed there
                return self._narrow(deals, lo, at)
        return seen

    @property
    def _in_bulk(self) -> bool:
        """Whether the dealer tested takes its boards in bulk (a stream of a fixed layout): its digest of the
        rest of a block costs no more than of a chunk, whatever the block's size.  Not against the fixtures,
        which reproduce a row chunk by chunk so that an interrupted run keeps the chunks it compared."""
        return bool(getattr(self.actual, "reads_in_bulk", False)) and not self.expected.whole_blocks_only

    def _rest_differs(
        self, deals: Sequence[int], chunks: list[tuple[int, int]], row: str | None
    ) -> tuple[int, int] | None:
        """None when the chunks left (deals[chunks[0][0]:], dealt in bulk after the chunks before, which agreed)
        complete the block's digest (the stored `row`, else the expected dealer's); else the first of them that
        differs, told by the digests so far at each chunk's end, the dealer's against the expected lines'."""
        lo = chunks[0][0]
        hasher = hashlib.sha256()
        for line in self.expected.lines(deals[:lo]):
            assert not isinstance(line, Failure)  # they agreed with the dealer's: no failure
            hasher.update(line)
        prefixes: list[str] = []
        cuts = [hi - lo for _, hi in chunks]
        dealt = self._side.submit(self.actual.digest_until_failure, deals[lo:], hasher, cuts, prefixes)  # type: ignore[attr-defined]
        want = row if row is not None else self.expected.block_digest(deals)
        got = dealt.result()
        if isinstance(got, Failure):
            self._saw(got)
        elif got == want:
            return None
        for k, (first, last) in enumerate(chunks):
            if k >= len(prefixes):
                return first, last  # the failure stopped the dealing in this chunk
            for line in self.expected.lines(deals[first:last]):
                assert not isinstance(line, Failure)
                hasher.update(line)
            if hasher.hexdigest() != prefixes[k]:
                return first, last
        return chunks[-1]

    def _first_chunks(self, block: Block) -> Sequence[Sequence[int]]:
        """The deals of a block's first AHEAD_CHUNKS chunks (dealt ahead, they keep the dealer busy while
        the last chunk of the block before is judged and the block is handed over)."""
        plan = chunk_plan(len(block.deals), whole=self._whole_blocks, largest=self._largest)[:AHEAD_CHUNKS]
        return [block.deals[lo:hi] for lo, hi in plan]

    def agrees(self, deals: Sequence[int]) -> bool:
        """Whether the two dealers' digests of `deals` agree (one digest each; no narrowing, no diagnosis)."""
        return self._same(deals)

    @property
    def notes(self) -> tuple[str, ...]:
        said: list[str] = getattr(self.actual, "notes", []) + getattr(self.expected, "notes", [])
        return tuple(said)

    def _same(self, deals: Sequence[int], coming: Sequence[Sequence[int]] = ()) -> bool:
        """Whether the digests agree; `coming`: the deals each of the next calls will ask for (a dealer may
        start on them)."""
        pending = self._side.submit(_digest, self.actual, deals, coming)
        want = self.expected.block_digest(deals)
        got = pending.result()
        if isinstance(got, Failure):
            self._saw(got)
        return got is not None and got == want

    def _saw(self, failure: Failure) -> None:
        if self._seen is None and failure.kind != "mismatch":
            self._seen = failure

    def _lines(self, deals: Sequence[int]) -> Failure | None:
        pending = self._side.submit(_answers, self.actual, deals)
        expected_lines = self.expected.lines(deals)
        got = pending.result()
        failure = first_difference(deals, got, expected_lines, self.expected.impl)
        self._late = None
        if failure is not None:
            self._saw(failure)
            at = list(deals).index(failure.deal)
            if failure.kind == "mismatch" and at + 1 < len(deals) and got[at] == expected_lines[at + 1]:
                shifted = at + 2 < len(deals) and got[at + 1] == expected_lines[at + 2]
                self._late = (deals[at + 1], shifted)
        return failure

    def _with_expected(self, failure: Failure) -> Failure:
        """The failure with the expected board of its deal, wherever it was found without it (a crash
        pinned from a digest pass, a deal a dealer skipped): a person wants to see what was due."""
        if failure.expected is not None:
            return failure
        try:
            want = self.expected.lines([failure.deal])[0]
        except RequestError:  # a dealer that answers only whole blocks (the fixtures): shown without it
            return failure
        return failure if isinstance(want, Failure) else replace(failure, expected=_text(want))

    def _narrow(self, deals: Sequence[int], lo: int, hi: int) -> Failure:
        """The first failure in deals[lo:hi], whose digest differed after deals[:lo] in one process."""
        start, stop = lo, hi
        while stop - start > LINE_PASS:
            self.actual.reset()
            step = -(-(stop - start) // PARTS)
            for first in range(start, stop, step):
                if not self._same(deals[first : min(first + step, stop)]):
                    start, stop = first, min(first + step, stop)
                    break
            else:
                return self._history_dependent(deals, lo, hi)
        self.actual.reset()
        failure = self._lines(deals[start:stop])
        if failure is None or (start and failure.kind != "mismatch" and self._right_alone(failure.deal)):
            # A failure that a fresh process shows at a deal that alone is right (a dealer that
            # dies of what it kept) may sit elsewhere after the deals first dealt before it.
            return self._history_dependent(deals, lo, hi)
        return self._alone(failure)

    def _history_dependent(self, deals: Sequence[int], lo: int, hi: int) -> Failure:
        """Every piece agreed alone: re-deal the block up to the piece from a fresh process, as first dealt."""
        self.actual.reset()
        if lo:
            self._side.submit(_digest, self.actual, deals[:lo]).result()
        for start in range(lo, hi, self._largest):  # in one process, a chunk's lines at a time: memory stays flat
            failure = self._lines(deals[start : min(start + self._largest, hi)])
            if failure is not None:
                return self._alone(failure, after=deals[:lo])
        first, last = deals[lo], deals[hi - 1]
        if self._seen is not None:  # a failure (a timeout, a crash) is no digest: it is reported as it was
            seen = self._seen
            if seen.transient:
                return seen  # it says already that it did not recur
            note = (
                f" (when first dealt; dealt again from a fresh process, deals {first}-{last} all answered rightly: "
                f"the {seen.kind} did not recur)"
            )
            return replace(seen, message=seen.message + note)
        return Failure(
            first,
            "error",
            f"the dealer is non-deterministic or stateful: deals {first}-{last} gave other boards when "
            "dealt again from a fresh process (their digest differed, yet every line agreed)",
        )

    def _alone(self, failure: Failure, after: Sequence[int] = ()) -> Failure:
        """A mismatch or an invalid board that is right when its deal is dealt alone, from a fresh
        process, says so; and when that deal, asked for twice again in the same process, is wrong both times,
        says that the dealer keeps state from deal to deal (a deck it appends to, a generator it
        seeds once), not that it deals by chance.  A mismatch where the dealer, dealt that deal alone,
        gives no board at all is that failure (it skipped the deal, or wrote something that is no
        board: what came in its place was the next deal's board)."""
        if failure.kind not in STATE_KINDS:
            return failure
        late = self._late
        self.actual.reset()
        alone = self._lines([failure.deal])
        if failure.kind == "mismatch" and alone is not None and alone.kind not in ("mismatch", "timeout"):
            return self._skipped(failure, alone, late)
        if alone is not None:
            return failure
        before = f"dealt after deals {after[0]}-{after[-1]} in the same process; " if after else ""
        if all(self._lines([failure.deal]) is not None for _ in range(2)):
            note = f" ({before}{kept_state(failure.deal)}: {KEEPS_STATE})"
            return replace(failure, message=failure.message + note, stateful=True)
        note = (
            f" ({before}alone, from a fresh process, deal {failure.deal} is right: "
            "the dealer is stateful or non-deterministic)"
        )
        return replace(failure, message=failure.message + note)

    @staticmethod
    def _skipped(failure: Failure, alone: Failure, late: tuple[int, bool] | None) -> Failure:
        """Deal n gives no board, dealt alone: with the deals before it, another board came in its place."""
        n = failure.deal
        came = f"deal {late[0]}'s board came in its place" if late else "another board came in its place"
        shifted = ", and the boards after it were each one deal late" if late and late[1] else ""
        said = alone.message if alone.kind == "invalid-output" else f"it skipped deal {n} ({alone.message})"
        message = f"{said}, dealt alone from a fresh process; with the deals before it, {came}{shifted}"
        return Failure(n, alone.kind, message, failure.expected, alone.actual)

    def _right_alone(self, deal: int) -> bool:
        """Whether `deal`, dealt alone from a fresh process, is right."""
        self.actual.reset()
        return self._lines([deal]) is None

    def close(self) -> None:
        self._side.shutdown(wait=False, cancel_futures=True)
        if self.owns_dealers:
            self.actual.close()
            self.expected.close()


def chunk_plan(count: int, *, whole: bool = False, largest: int | None = None) -> list[tuple[int, int]]:
    """The chunks (start, stop) a block of `count` deals is dealt in: FIRST_CHUNK deals, then GROWTH
    times more each time up to `largest` (a dealer's own limit), so that a run stopped mid-block keeps
    what it compared (the fixtures too: they reproduce a block chunk after chunk); one chunk when both
    dealers answer a whole block of the fixtures' grid in seconds (`Dealer.bulk`).  A function of the
    request alone, so that a run deals the same chunks in the same processes whatever the machine's load."""
    if whole:
        return [(0, count)] if count else []
    plan, start, size = [], 0, FIRST_CHUNK if largest is None else min(FIRST_CHUNK, largest)
    while start < count:
        plan.append((start, min(count, start + size)))
        start, size = start + size, size * GROWTH if largest is None else min(size * GROWTH, largest)
    return plan


def _digest(dealer: Dealer, deals: Sequence[int], coming: Sequence[Sequence[int]] = ()) -> str | Failure | None:
    """The deals' block digest; the first Failure instead where the dealer answers line by line
    (so that a timeout is reported as one), None where only a faster digest says that one failed."""
    in_bulk = getattr(dealer, "digest_until_failure", None)
    if in_bulk is not None:
        digest: str | Failure = in_bulk(deals)
        return digest
    if type(dealer).block_digest is not Dealer.block_digest:
        return dealer.block_digest(deals)
    answers = _answers(dealer, deals, coming)
    for answer in answers:
        if isinstance(answer, Failure):
            return answer
    return hashlib.sha256(b"".join(cast("list[bytes]", answers))).hexdigest()


def _answers(dealer: Dealer, deals: Sequence[int], coming: Sequence[Sequence[int]] = ()) -> list[Answer]:
    """One answer per deal, where the answers after the first failure are not dealt when the dealer
    can stop there (a program dying at every deal is not run for every deal of a chunk).  A dealer that
    can be asked ahead (`lines_then`, `answers_until_failure`) is told `coming`, the deals each of the next
    calls will ask for."""
    until_failure = getattr(dealer, "answers_until_failure", None)
    if until_failure is None:
        then = getattr(dealer, "lines_then", None)
        return then(deals, *coming) if then is not None and coming else dealer.lines(deals)
    answers: list[Answer] = until_failure(deals, *coming)
    if answers and isinstance(answers[-1], Failure):
        answers += [answers[-1]] * (len(deals) - len(answers))  # never looked at: the failure comes first
    return answers
