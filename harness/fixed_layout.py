"""Fixed layouts: output whose boards are all the same bytes but for their cards, hashed in bulk.

A dealer that prints every board alike (canonical lines; rows; rows under a header "Game #N") is
learnt from one board the precise reader read (`harness.cards.learn_template`): the board's width,
where each card's rank and suit letter is, which bytes are fixed and which are the digits of a
header's number.  A run of such boards is then turned into canonical lines with a few slice copies
per chunk (none at all for canonical lines), and hashed, with no per-deal work.

What makes this exact: every byte of a board that is not copied into its canonical line (row ends,
a header) is checked equal to the learnt board's (a header's digits only to be digits); the bytes
that are copied are covered by the digest.  So when the digest equals the expected one, every board
held upper-case rank-first letters exactly where the learnt board did, with the learnt board's bytes
around them, which the precise reader reads as those very cards (see `harness.cards`, "Templates").
When it differs, the precise reader would also have found a difference (a bad card, a wrong one),
and the comparer narrows it down from a fresh process the precise way.  A board whose checked bytes
differ (another length, a garbage line, a missing board's neighbour) is never taken: it and
everything after it in the chunk go to the precise reader.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from harness.cards import BoardTemplate, learn_template
from reference.cards import CARD_INDEX, DECK_SIZE, LINE_BYTES, RANKS, SUITS, canonical_line

_IS_DIGIT = np.zeros(256, dtype=bool)
_IS_DIGIT[list(b"0123456789")] = True
_UPPER_RANKS, _UPPER_SUITS = frozenset(RANKS.encode()), frozenset(SUITS.encode())
CHECK_FRAMES = 4096  # boards checked per array operation (the tiled checks are this many boards long)


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
    identity: bool  # the board is its canonical line (nothing to copy, nothing to check)
    constant: npt.NDArray[np.uint8]  # a canonical line's bytes not copied (separators), the rest anything
    mask: npt.NDArray[np.uint64]  # CHECK_FRAMES boards: 0xFF at each checked byte
    pattern: npt.NDArray[np.uint64]  # … and the byte it must be there (the learnt board's)
    digit_at: npt.NDArray[np.intp]  # where a header's number's digits are
    separators: npt.NDArray[np.intp]  # where a canonical line's bytes are not copied from the board

    def take(self, data: bytes | memoryview) -> Taken:
        """The canonical lines of the whole boards at the start of `data` that fit this layout, up to the
        first that does not (or the end of the whole boards)."""
        w = self.width
        count, good = len(data) // w, 0
        parts: list[bytes | memoryview] = []
        while good < count:
            k = min(count - good, CHECK_FRAMES)
            frames = np.frombuffer(data, dtype=np.uint8, count=k * w, offset=good * w).reshape(k, w)
            fit = self._fitting(frames)
            if fit:
                parts.append(self._lines(frames[:fit], data, good))
            good += fit
            if fit < k:
                break
        lines = parts[0] if len(parts) == 1 else b"".join(parts)
        return Taken(lines, good, good * w)

    def _fitting(self, frames: npt.NDArray[np.uint8]) -> int:
        """How many boards at the start of `frames` have the checked bytes and digits in place."""
        k, w = frames.shape
        bad: npt.NDArray[np.bool_] | None = None
        if not self.identity:
            size = k * w
            words = size // 8
            flat = frames.reshape(-1)
            wrong = (flat[: words * 8].view(np.uint64) ^ self.pattern[:words]) & self.mask[:words]
            if wrong.any() or size % 8:
                per_byte = (flat ^ self.pattern.view(np.uint8)[:size]) & self.mask.view(np.uint8)[:size]
                bad = per_byte.reshape(k, w).any(axis=1)
        if self.digit_at.shape[0]:
            undigit = ~_IS_DIGIT[frames[:, self.digit_at]].all(axis=1)
            bad = undigit if bad is None else bad | undigit
        if bad is None or not bad.any():
            return k
        return int(np.argmax(bad))

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
    checked[source[source >= 0]] = False
    checked[template.digit_at] = False
    pad = (-CHECK_FRAMES * width) % 8
    mask = np.tile(np.where(checked, 0xFF, 0).astype(np.uint8), CHECK_FRAMES)
    pattern = np.tile(board.astype(np.uint8), CHECK_FRAMES)
    mask, pattern = (np.concatenate((a, np.zeros(pad, dtype=np.uint8))).view(np.uint64) for a in (mask, pattern))
    separators = np.flatnonzero(source < 0)
    return FixedLayout(width, tuple(runs), identity, constant, mask, pattern, template.digit_at, separators)
