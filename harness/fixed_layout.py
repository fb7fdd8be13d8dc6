"""Fixed layouts: output whose boards are all the same bytes but for their cards, hashed in bulk.

A dealer that prints every board alike (canonical lines; rows; rows under a header "Game #N") is
learnt from one board the precise reader read (`harness.framing.learn_template`): the board's width,
where each card's rank and suit letter is, which bytes are fixed and which are the digits of a
header's number.  A run of such boards is then turned into canonical lines with a few slice copies
per chunk (none at all for canonical lines), and hashed, with no per-deal work.

What makes this exact: every byte of a board that is not copied into its canonical line (row ends,
a header) is checked equal to the learnt board's (a header's digits only to be digits); the bytes
that are copied are covered by the digest.  So when the digest equals the expected one, every board
held upper-case rank-first letters exactly where the learnt board did, with the learnt board's bytes
around them, which the precise reader reads as those very cards (see `harness.framing`, "Templates").
When it differs, the precise reader would also have found a difference (a bad card, a wrong one),
and the comparer narrows it down from a fresh process the precise way.  A board whose checked bytes
differ (another length, a garbage line, a missing board's neighbour) is never taken: it and
everything after it in the chunk go to the precise reader.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from harness.framing import BoardTemplate, learn_template
from reference.cards import CARD_INDEX, DECK_SIZE, LINE_BYTES, RANKS, SUITS, canonical_line

try:
    from harness import _cardread
except ImportError:  # built where no C compiler was: the same check with NumPy, more slowly
    _cardread = None  # type: ignore[assignment]
if os.environ.get("FREECELL_NO_COMPILED"):  # as `harness.shapes`: the Python way alone
    _cardread = None  # type: ignore[assignment]
_IS_DIGIT = np.zeros(256, dtype=bool)
_IS_DIGIT[list(b"0123456789")] = True
_UPPER_RANKS, _UPPER_SUITS = frozenset(RANKS.encode()), frozenset(SUITS.encode())
# What a byte is, as far as reading a board of a known layout goes: every upper-case rank letter one
# class, every upper-case suit letter another; every other byte itself.  The precise reader decides
# by the class of each byte alone (`harness.framing`, "Templates"), so a board whose bytes have the
# learnt board's classes everywhere (but at a header's digits) is read as its letters say.
_RANK_CLASS, _SUIT_CLASS = ord("A"), ord("C")  # letters of their own class: no other byte becomes one
_CLASS = bytearray(range(256))
for _c in _UPPER_RANKS:
    _CLASS[_c] = _RANK_CLASS
for _c in _UPPER_SUITS:
    _CLASS[_c] = _SUIT_CLASS
CLASSES: Final = bytes(_CLASS)
# What `_cardread.fitting` wants of a byte (0: the learnt board's byte itself), as its bits say.
WANT_RANK, WANT_SUIT, WANT_DIGIT = 0x07, 0x18, 0x20
CHECK_FRAMES = 4096  # boards checked per array operation (the tiled class pattern is this many boards long)


@dataclass(frozen=True, slots=True)
class Taken:
    """What `FixedLayout.take` made of some bytes: the canonical lines of the boards at their start."""

    lines: bytes | memoryview  # `count` canonical lines
    count: int
    used: int  # bytes of the input those boards were


@dataclass(frozen=True, eq=False, slots=True)
class FixedLayout:
    """How every board of an output is laid out, byte for byte (see the module's docstring)."""

    width: int  # bytes of one board
    runs: tuple[tuple[int, int, int], ...]  # (where in the line, where in the board, length) copied
    identity: bool  # the board is its canonical line (nothing to copy)
    constant: npt.NDArray[np.uint8]  # a canonical line's bytes; those not copied are its separators
    separators: npt.NDArray[np.intp]  # where a canonical line's bytes are not copied from the board
    mask: npt.NDArray[np.uint64]  # CHECK_FRAMES boards: 0xFF at each byte whose class is checked
    pattern: npt.NDArray[np.uint64]  # … and the class it must have there (the learnt board's)
    digit_at: npt.NDArray[np.intp]  # where a header's number's digits are (each only checked to be one)
    board: bytes  # the learnt board's bytes
    wants: bytes  # per byte of a board: WANT_RANK, WANT_SUIT, WANT_DIGIT, or 0 for the board's own byte

    def take(self, data: bytes | memoryview) -> Taken:
        """The canonical lines of the whole boards at the start of `data` that fit this layout, up to the
        first that does not (or the end of the whole boards)."""
        w = self.width
        count = len(data) // w
        if _cardread is not None:  # the same check in one pass of C
            fit = _cardread.fitting(data, w, self.wants, self.board)
            if not fit:
                return Taken(b"", 0, 0)
            frames = np.frombuffer(data, dtype=np.uint8, count=fit * w).reshape(fit, w)
            return Taken(self._lines(frames, data, 0), fit, fit * w)
        classes = bytes(data[: count * w]).translate(CLASSES)
        good = 0
        parts: list[bytes | memoryview] = []
        while good < count:
            k = min(count - good, CHECK_FRAMES)
            frames = np.frombuffer(data, dtype=np.uint8, count=k * w, offset=good * w).reshape(k, w)
            fit = self._fitting(frames, np.frombuffer(classes, dtype=np.uint8, count=k * w, offset=good * w))
            if fit:
                parts.append(self._lines(frames[:fit], data, good))
            good += fit
            if fit < k:
                break
        lines = parts[0] if len(parts) == 1 else b"".join(parts)
        return Taken(lines, good, good * w)

    def _fitting(self, frames: npt.NDArray[np.uint8], classes: npt.NDArray[np.uint8]) -> int:
        """How many boards at the start of `frames` have every byte's class in place, and digits at the digits'."""
        k, w = frames.shape
        size = k * w
        words = size // 8
        wrong = (classes[: words * 8].view(np.uint64) ^ self.pattern[:words]) & self.mask[:words]
        bad = np.zeros(k, dtype=bool)
        if wrong.any() or size % 8:
            per_byte = (classes ^ self.pattern.view(np.uint8)[:size]) & self.mask.view(np.uint8)[:size]
            bad |= per_byte.reshape(k, w).any(axis=1)
        if self.digit_at.shape[0]:
            bad |= ~_IS_DIGIT[frames[:, self.digit_at]].all(axis=1)
        return int(np.argmax(bad)) if bad.any() else k

    def _lines(self, frames: npt.NDArray[np.uint8], data: bytes | memoryview, first: int) -> bytes | memoryview:
        if self.identity:
            return memoryview(data)[first * LINE_BYTES : (first + frames.shape[0]) * LINE_BYTES]
        shifts = {src - at for at, src, _ in self.runs}
        if len(shifts) == 1 and (shift := shifts.pop()) >= 0 and shift + LINE_BYTES <= self.width:
            out = frames[:, shift : shift + LINE_BYTES].copy()  # one copy, then the separators put back
            out[:, self.separators] = self.constant[self.separators]
        else:
            out = np.empty((frames.shape[0], LINE_BYTES), dtype=np.uint8)
            out[:] = self.constant
            for at, src, n in self.runs:
                out[:, at : at + n] = frames[:, src : src + n]
        return out.data


def fixed_layout(text: str, cards: tuple[int, ...], layout: tuple[int, ...]) -> FixedLayout | None:
    """The fixed layout of a board's text (its lines from the board's start, each ended by LF) that the
    precise reader read as `cards`; None when its boards cannot be taken this way (cards that are not
    upper-case rank-first letters, colour codes, a layout `learn_template` cannot place)."""
    template = learn_template(text, cards, layout)
    if template is None or template.parameter_at.shape[0]:
        return None
    board = template.board
    if not (
        set(board[template.rank_at].tolist()) <= _UPPER_RANKS and set(board[template.suit_at].tolist()) <= _UPPER_SUITS
    ):
        return None
    return _from_template(template)


def _from_template(template: BoardTemplate) -> FixedLayout | None:
    board = template.board
    width = int(board.shape[0])
    reading = {
        CARD_INDEX[chr(board[r]) + chr(board[s])]: (int(r), int(s))
        for r, s in zip(template.rank_at, template.suit_at, strict=True)
    }
    if len(reading) != DECK_SIZE:
        return None
    in_reading_order = list(reading)
    line = canonical_line([in_reading_order[int(j)] for j in template.order])
    source = np.full(LINE_BYTES, -1, dtype=np.intp)
    for i, name in enumerate(line[:-1].split(b" ")):
        r, s = reading[CARD_INDEX[name.decode()]]
        source[3 * i], source[3 * i + 1] = r, s
        sep = 3 * i + 2
        if s + 1 < width and board[s + 1] == line[sep]:
            source[sep] = s + 1  # the separator the board has after the card is the line's: copied
    constant = np.frombuffer(line, dtype=np.uint8).copy()
    runs: list[tuple[int, int, int]] = []
    for at in range(LINE_BYTES):
        src = int(source[at])
        if src < 0:
            continue
        if runs and runs[-1][0] + runs[-1][2] == at and runs[-1][1] + runs[-1][2] == src:
            runs[-1] = (runs[-1][0], runs[-1][1], runs[-1][2] + 1)
        else:
            runs.append((at, src, 1))
    identity = width == LINE_BYTES and runs == [(0, 0, LINE_BYTES)]
    checked = np.ones(width, dtype=bool)
    checked[template.digit_at] = False
    pad = (-CHECK_FRAMES * width) % 8
    classes = np.frombuffer(board.tobytes().translate(CLASSES), dtype=np.uint8)
    mask, pattern = (
        np.concatenate((np.tile(row, CHECK_FRAMES), np.zeros(pad, dtype=np.uint8))).view(np.uint64)
        for row in (np.where(checked, 0xFF, 0).astype(np.uint8), classes)
    )
    separators = np.flatnonzero(source < 0)
    wants = np.zeros(width, dtype=np.uint8)
    wants[classes == _RANK_CLASS] = WANT_RANK
    wants[classes == _SUIT_CLASS] = WANT_SUIT
    wants[template.digit_at] = WANT_DIGIT
    return FixedLayout(
        width,
        tuple(runs),
        identity,
        constant,
        separators,
        mask,
        pattern,
        template.digit_at,
        board.tobytes(),
        wants.tobytes(),
    )
