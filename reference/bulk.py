"""The vectorised path: cards, canonical lines and block digests of many deals at once (NumPy).

Byte-identical to `reference.deal`, which the tests check.  The 52 steps of the shuffle run in C
(reference/_shuffle.c) where it was built, else as a Python loop, each step a few array operations
over a whole batch of deals; the batch's decks lie deal after deal in one flat array so that each
step touches memory in order.  For canonical lines
the decks hold each card's two letters, so the shuffle writes the lines themselves.  `iter_lines`
computes a range's next batch in a background thread while the caller uses the last one.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from reference.ahead import computed_ahead
from reference.cards import CARD_TOKENS, DECK_SIZE, LINE_BYTES
from reference.deal import Deal, deal
from reference.dialects import DEFAULT_DIALECT, INCREMENT, MULTIPLIER, Dialect, LcgRule, get_dialect

try:  # the same steps in C (reference/_shuffle.c), where a C compiler was at install
    from reference import _shuffle
except ImportError:
    _shuffle = None  # type: ignore[assignment]
if os.environ.get("FREECELL_NO_COMPILED"):  # as `harness.shapes`: the NumPy way alone
    _shuffle = None  # type: ignore[assignment]

BATCH: Final = 65536  # deals per vectorised batch (the fastest measured on a 2-core EPYC)

Cards = npt.NDArray[np.uint8]  # shape (N, 52): card indices in dealing order, one deal per row
Lines = npt.NDArray[np.uint8]  # shape (N, 156): one canonical line per row

_FRESH_DECK = np.arange(DECK_SIZE, dtype=np.uint8)
# Each card's two letters as one uint16 (native order: written back as the same two bytes).
_CARD_LETTERS = np.frombuffer(b"".join(token[:2] for token in CARD_TOKENS), dtype=np.uint16)
# A canonical line before its cards' letters are written: 51 spaces and the LF.
_BLANK_LINE = np.frombuffer(b"\0\0 " * (DECK_SIZE - 1) + b"\0\0\n", dtype=np.uint8)


@functools.cache
def _pick_table(rule: LcgRule) -> npt.NDArray[np.uint8]:
    """k = rᵢ mod left, for every left (row left − 1) and every value of sᵢ >> 16 (column).

    The state is kept modulo 2³² (uint32 wrap-around): its low 31 bits are those of the state
    modulo 2³¹, and the rule's out_mask drops the rest, so one table shape serves every rule.
    """
    high = np.arange(1 << 16, dtype=np.uint32)
    randoms = ((high & rule.out_mask) | rule.out_or) + np.uint32(rule.out_add)  # below 2¹⁷: no wrap-around
    table = np.empty((DECK_SIZE, 1 << 16), dtype=np.uint8)
    for left in range(1, DECK_SIZE + 1):  # by a scalar: some 3× faster than the broadcast int64 remainder
        np.remainder(randoms, np.uint32(left), out=table[left - 1], casting="unsafe")
    return table


def _shuffle_into(seeds: npt.NDArray[np.uint32], rule: LcgRule, deck: npt.NDArray[Any], out: npt.NDArray[Any]) -> None:
    """Deal one batch: out[i, p] = the deck value of the p-th card dealt from seeds[i].

    The deck's values stand for cards 0 … 51 and only move, so a deck of card indices deals cards,
    and a deck of their two letters deals straight into the canonical lines (no rendering pass).
    """
    if _shuffle is not None:
        _shuffle.shuffle_into(seeds, rule.out_mask, rule.out_or, rule.out_add, deck, out)
        return
    n = seeds.shape[0]
    table = _pick_table(rule)
    state = seeds.copy()
    high = np.empty(n, dtype=np.intp)
    pick_in_deck = np.empty(n, dtype=np.uint8)
    pick = np.empty(n, dtype=np.intp)
    starts = np.arange(0, n * DECK_SIZE, DECK_SIZE, dtype=np.intp)
    decks = np.tile(deck, n)  # deal i's deck is decks[52i : 52i + 52]
    last = decks.reshape(n, DECK_SIZE)  # last[:, left - 1]: each deck's last card still undealt
    for step in range(DECK_SIZE):
        left = DECK_SIZE - step
        np.multiply(state, np.uint32(MULTIPLIER), out=state)
        np.add(state, np.uint32(INCREMENT), out=state)
        np.right_shift(state, 16, out=high, casting="unsafe")
        np.take(table[left - 1], high, out=pick_in_deck)
        np.add(starts, pick_in_deck, out=pick)
        out[:, step] = np.take(decks, pick)
        decks[pick] = last[:, left - 1]


def _deal_into(nums: npt.NDArray[np.int64], d: Dialect, deck: npt.NDArray[Any], out: npt.NDArray[Any]) -> None:
    """out[i] = the deck values of deal nums[i] of `d`, in dealing order; ValueError outside the domain."""
    rule_of = np.full(nums.shape[0], -1, dtype=np.int8)
    for i, rule in enumerate(d.rules):
        rule_of[(nums >= rule.first) & (nums <= rule.last)] = i
    for i, rule in enumerate(d.rules):
        hit = np.flatnonzero(rule_of == i)
        for lo in range(0, hit.shape[0], BATCH):
            where = hit[lo : lo + BATCH]
            seeds = (nums[where] - rule.seed_offset).astype(np.uint32)
            if where.shape[0] == nums.shape[0]:
                _shuffle_into(seeds, rule, deck, out)  # the common case: one rule, one batch
            else:
                part = np.empty((where.shape[0], DECK_SIZE), dtype=deck.dtype)
                _shuffle_into(seeds, rule, deck, part)
                out[where] = part
    for j in np.flatnonzero(rule_of < 0):
        # Not shuffled by a rule: a fixed layout, or (raising here) not a deal of this dialect.
        out[j] = deck[list(deal(int(nums[j]), d).cards)]


def cards_array(numbers: Sequence[int] | npt.NDArray[np.int64], dialect: str | Dialect = DEFAULT_DIALECT) -> Cards:
    """Cards of `numbers` (any order, repeats allowed), one deal per row; ValueError outside the domain."""
    d = get_dialect(dialect)
    nums = _deal_numbers(numbers, d)
    out = np.empty((nums.shape[0], DECK_SIZE), dtype=np.uint8)
    _deal_into(nums, d, _FRESH_DECK, out)
    return out


def _deal_numbers(numbers: Sequence[int] | npt.NDArray[np.int64], d: Dialect) -> npt.NDArray[np.int64]:
    """`numbers` as an int64 array, after refusing what is not an int (TypeError) or too big to be one."""
    if isinstance(numbers, np.ndarray):
        if numbers.dtype.kind not in "iu":
            raise TypeError(
                f"deal numbers must be integers, not {numbers.dtype} (the {d.name} domain is {d.describe_domain()})"
            )
        return numbers.astype(np.int64, copy=False).reshape(-1)
    if isinstance(numbers, range) and len(numbers):
        low, high = min(numbers[0], numbers[-1]), max(numbers[0], numbers[-1])
        if any(lo <= low and high <= hi for lo, hi in d.intervals()):  # all in the domain: no number to look at
            return np.arange(numbers.start, numbers.stop, numbers.step, dtype=np.int64)
    values = list(numbers)
    for n in values:
        if isinstance(n, bool) or not isinstance(n, int | np.integer):
            d.check(n)  # raises TypeError naming the domain
        elif not d.first <= n <= d.last:
            d.check(int(n))  # raises ValueError naming the domain
    return np.array(values, dtype=np.int64)


def _blank_lines(n: int) -> tuple[Lines, npt.NDArray[np.uint16]]:
    """n canonical lines with their spaces and LF written, and a view of their cards' two letters."""
    lines = np.tile(_BLANK_LINE, (n, 1))
    letters = np.ndarray((n, DECK_SIZE), dtype=np.uint16, buffer=lines, strides=(LINE_BYTES, 3))
    return lines, letters


def render_lines(cards: Cards) -> Lines:
    """Canonical lines of a cards array: `reference.cards.canonical_line` of each row, vectorised."""
    lines, letters = _blank_lines(cards.shape[0])
    np.take(_CARD_LETTERS, cards, out=letters)
    return lines


def lines_array(numbers: Sequence[int] | npt.NDArray[np.int64], dialect: str | Dialect = DEFAULT_DIALECT) -> Lines:
    """Canonical lines of `numbers` (any order, repeats allowed), one row each."""
    d = get_dialect(dialect)
    nums = _deal_numbers(numbers, d)
    lines, letters = _blank_lines(nums.shape[0])
    _deal_into(nums, d, _CARD_LETTERS, letters)
    return lines


def _batches(start: int, stop: int, batch: int) -> Iterator[npt.NDArray[np.int64]]:
    for lo in range(start, stop + 1, batch):
        yield np.arange(lo, min(lo + batch, stop + 1), dtype=np.int64)


def iter_lines(
    start: int, stop: int, dialect: str | Dialect = DEFAULT_DIALECT, *, batch: int = BATCH, ahead: bool = True
) -> Iterator[bytes]:
    """Canonical lines of deals start … stop (inclusive), `batch` deals a chunk: constant memory.

    With `ahead` (and more than one chunk), a background thread computes the next chunk while the
    caller uses this one; the chunks are the same either way.
    """
    d = get_dialect(dialect)
    d.check_range(start, stop)
    chunks = (lines_array(numbers, d).tobytes() for numbers in _batches(start, stop, batch))
    if ahead and stop - start >= batch:
        yield from computed_ahead(chunks, name="reference-lines")
    else:
        yield from chunks


def deal_range(start: int, stop: int, dialect: str | Dialect = DEFAULT_DIALECT) -> Iterator[Deal]:
    """Deals start … stop (inclusive), one `Deal` at a time, computed a batch at a time."""
    d = get_dialect(dialect)
    d.check_range(start, stop)
    for numbers in _batches(start, stop, 4096):
        for number, row in zip(numbers.tolist(), cards_array(numbers, d).tolist(), strict=True):
            yield Deal(number, d.name, tuple(row))


def canonical_lines(numbers: Iterable[int], dialect: str | Dialect = DEFAULT_DIALECT) -> bytes:
    """Canonical lines of `numbers`, concatenated in their order."""
    nums = numbers if isinstance(numbers, range) else list(numbers)  # a range is not spelt out: one array
    return lines_array(nums, dialect).tobytes() if nums else b""


def block_digest(numbers: Iterable[int], dialect: str | Dialect = DEFAULT_DIALECT) -> str:
    """SHA-256 (hex) of the canonical lines of `numbers`; for a range a … b, SPEC.md's block digest."""
    d = get_dialect(dialect)
    h = hashlib.sha256()
    if isinstance(numbers, range) and numbers.step == 1:
        if len(numbers):
            for chunk in iter_lines(numbers.start, numbers.stop - 1, d):
                h.update(chunk)
    else:
        h.update(canonical_lines(numbers, d))
    return h.hexdigest()
