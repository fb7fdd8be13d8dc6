"""Framing a program's output into boards: many boards in one output, read in chunks.

`BoardFramer` splits a program's output into boards by counting 52 cards, learning the program's
line layout from its first good board.  Its fast paths read a whole chunk with a few array
operations: output whose boards all have the same bytes but for their cards (and numbers in
headers, colour codes' parameters) by a template learnt from a board the precise path read;
plain ASCII rows as they are; other spellings rewritten to plain rows first.  Whatever the fast
paths do not fully recognise goes through the precise line-by-line path, so all always agree.

The precise path is `harness.cards`; this module is the one that needs NumPy.
"""

from __future__ import annotations

import codecs
import itertools
import json
import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

import numpy as np

from harness.cards import (
    ANSI_CODE,
    CARD_TOKEN,
    SUIT_SYMBOLS,
    Line,
    RunawayOutput,
    board_from_lines,
    board_from_value,
    describe_cards,
    read_line,
    token_card,
)
from harness.errors import BoardError
from reference.bulk import render_lines
from reference.cards import (
    CARD_INDEX,
    CARD_NAMES,
    COLUMN_ORDER,
    COLUMN_SHAPE,
    DECK_SIZE,
    LINE_BYTES,
    LINE_SHAPE,
    RANKS,
    ROW_SHAPE,
    SHAPES,
    SUITS,
    canonical_line,
)

Board = bytes | BoardError  # a canonical line, or why the text there is not a board

_BYTE_RANK = np.full(256, 255, dtype=np.uint8)
_BYTE_SUIT = np.full(256, 255, dtype=np.uint8)
for _i, _r in enumerate(RANKS):
    _BYTE_RANK[ord(_r)] = _BYTE_RANK[ord(_r.lower())] = _i
for _i, _s in enumerate(SUITS):
    _BYTE_SUIT[ord(_s)] = _BYTE_SUIT[ord(_s.lower())] = _i
_BYTE_ALNUM = np.zeros(256, dtype=bool)
for _c in b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789":  # not _: `CARD_TOKEN`'s words have none
    _BYTE_ALNUM[_c] = True
_RANK_BIT, _SUIT_BIT, _ALNUM, _ONE, _ZERO, _BRACKET = 1, 2, 4, 8, 16, 32
_BYTE_CLASS = (
    (_BYTE_RANK != 255) * _RANK_BIT
    + (_BYTE_SUIT != 255) * _SUIT_BIT
    + _BYTE_ALNUM * _ALNUM
    + (np.arange(256) == ord("1")) * _ONE
    + (np.arange(256) == ord("0")) * _ZERO
    + np.isin(np.arange(256), [ord("["), ord("]")]) * _BRACKET
).astype(np.uint8)
_NEWLINE = ord("\n")


_LINE_RANK = np.full(256, 255, dtype=np.uint8)
_LINE_SUIT = np.full(256, 255, dtype=np.uint8)
for _i, _r in enumerate(RANKS):
    _LINE_RANK[ord(_r)] = _i
for _i, _s in enumerate(SUITS):
    _LINE_SUIT[ord(_s)] = _i


def invalid_lines(lines: Sequence[bytes], within: Sequence[object] | None = None) -> list[int]:
    """Which of these LINE_BYTES-long lines are not canonical lines of 52 distinct cards, all checked
    at once; as indices into `within` (the list the lines were taken from, in order) if given."""
    if not lines:
        return []
    b = np.frombuffer(b"".join(lines), dtype=np.uint8).reshape(len(lines), LINE_BYTES)
    ranks, suits, gaps = _LINE_RANK[b[:, 0::3]], _LINE_SUIT[b[:, 1::3]], b[:, 2::3]
    spaced = (gaps[:, :-1] == ord(" ")).all(axis=1) & (gaps[:, -1] == _NEWLINE)
    named = (ranks != 255).all(axis=1) & (suits != 255).all(axis=1)
    cards = np.where(named[:, None], ranks.astype(np.int16) * 4 + suits, 0)
    distinct = (np.sort(cards, axis=1) == np.arange(DECK_SIZE)).all(axis=1)
    bad = np.flatnonzero(~(spaced & named & distinct)).tolist()
    if within is None or not bad:
        return bad
    positions = [i for i, item in enumerate(within) if isinstance(item, bytes)]
    return [positions[i] for i in bad]


def ascii_compatible(encoding: str) -> bool:
    """Whether ASCII text means the same bytes in `encoding` (utf-8, latin-1, cp437 …; not utf-16)."""
    sample = "".join(map(chr, range(32, 127))) + "\n"
    try:
        return sample.encode(encoding) == sample.encode("ascii")
    except (LookupError, UnicodeError):
        return False


FAST_MIN_BOARDS = 64  # fewer boards than this from one fast pass: read the rest of the chunk slowly
MAX_PENDING = 1 << 14  # bytes of a board begun that `feed` keeps for the next read


@dataclass(slots=True)
class _BoardSoFar:
    """What has been read since the last board ended: the next board's lines, headers included.

    All that a framer keeps about one board lives here, so that a board's end, whichever path
    reads it, forgets it all at once by starting a new one.
    """

    lines: list[Line] = field(default_factory=list)  # card lines (and header lines with bad bytes)
    count: int = 0  # cards in `lines`
    chars: int = 0  # characters read, headers and blank lines included
    line_number: int = 0  # of the last line read
    raws: list[str] = field(default_factory=list)  # its text, line by line, headers and blank lines included


class BoardFramer:
    """Splits a program's output into boards by counting 52 cards.

    Feed it the output's bytes as they come; each call returns the boards completed so far, in
    order.  A board ends at the line that brings it to 52 cards, where the layout learned from
    the last good board says it ends, or at a line that overflows 52.  Lines are numbered from
    the end of the previous board, headers included.
    """

    def __init__(self, encoding: str = "utf-8", max_board_chars: int = 1 << 16) -> None:
        self.layout: tuple[int, ...] | None = None  # cards per line of the last good board
        self.max_board_chars = max_board_chars
        self._fast = ascii_compatible(encoding)
        self._utf8 = codecs.lookup(encoding).name == "utf-8"  # suit symbols can be normalised
        self._normalise = False  # whether this output needs `normalised` to suit the fast path
        self._colours = True  # whether removing its ANSI colours may be all it needs (`normalised`)
        # A BOM-less UTF-16/32 stream is read as little-endian (a BOM then reads as U+FEFF, a no-op).
        name = codecs.lookup(encoding).name
        name = {"utf-16": "utf-16-le", "utf-32": "utf-32-le"}.get(name, name)
        self._encoding = encoding
        self._decoder = codecs.getincrementaldecoder(name)("replace")
        self._board = _BoardSoFar()
        self._tail = ""  # an incomplete last line
        self._pending = b""  # bytes of a board begun, not yet read (`feed`)
        self._template: BoardTemplate | None = None  # how this output prints every board, if it does
        self._learn_from: tuple[str, tuple[int, ...], tuple[int, ...]] | None = None  # a board read precisely
        self._templates_left = TEMPLATES_LEARNT  # boards a template may yet be learnt from
        self.unread = ""  # at `finish`: the text after the last board (no board: words a reader took for headers)
        self._template_misses = 0  # regions in a row whose first board the template did not read
        # The last board the precise path read from its start: (its text, its cards, its card lines' shape).
        self.last_read: tuple[str, tuple[int, ...], tuple[int, ...]] | None = None

    def _cards(self) -> list[int]:
        return [c for ln in self._board.lines for c in ln.cards]

    @property
    def between_boards(self) -> bool:
        """Whether every byte fed so far belongs to a board already returned (none begun, none held)."""
        return not (self._pending or self._tail or self._board.lines or self._decoder.getstate()[0])

    def feed(self, data: bytes) -> list[Board]:
        """The boards completed by these bytes."""
        if not self._fast:
            return self._feed_text(self._decoder.decode(data))
        if self._pending:
            data, self._pending = self._pending + data, b""
        out: list[Board] = []
        pos, size = 0, len(data)
        while pos < size and (self._utf8 or data.isascii()):
            idle = not (self._tail or self._board.lines or self._decoder.getstate()[0])
            if not idle or self.layout is None:  # the precise way, one line at a time
                end = data.find(b"\n", pos) + 1 or size
                out.extend(self._feed_text(self._decoder.decode(data[pos:end])))
                pos = end
                continue
            region = data[pos : data.rfind(b"\n") + 1]
            if not region:
                break  # only the start of a line: the precise way keeps it
            if (template := self._current_template()) is not None:
                boards, used = boards_by_template(region, template)
                if boards:
                    self._board, self._template_misses = _BoardSoFar(), 0
                    out.extend(boards)
                    pos += used
                if size - pos < template.width and template.begins(data[pos:]):
                    self._pending, pos = data[pos:], size  # the start of the next board: it waits for the rest
                    break
                if boards:
                    continue
                self._template_misses += 1
            if self._templates_left > 0 and (relearnt := self._first_board_template(region)) is not None:
                self._template, self._template_misses = relearnt, 0  # a header's number grew a digit, say
                continue
            if self._template_misses >= TEMPLATE_MISSES:
                self._template = None
            if self.layout == LINE_SHAPE and region.startswith(b"[["):  # a board per line, in JSON
                boards, used = _json_boards(region)
                if boards:
                    self._board = _BoardSoFar()
                out.extend(boards)
                pos += used
                if used < len(region):
                    end = data.find(b"\n", pos) + 1 or size  # the line that stopped it: the precise way
                    out.extend(self._feed_text(self._decoder.decode(data[pos:end])))
                    pos = end
                if not boards:
                    break
                continue
            boards, used, clean = _fast_boards(region, self.layout) if not self._normalise else ([], 0, False)
            rest = region[used:]
            quick = self._colours and b"\x1b" in rest  # removing its colours may be all it needs
            if len(boards) < FAST_MIN_BOARDS and (normal := normalised(rest, colours_only=quick)) is not None:
                more, taken, clean = _fast_boards(normal, self.layout)
                if quick and not clean and (full := normalised(rest)) is not None:
                    fuller = _fast_boards(full, self.layout)
                    if len(fuller[0]) > len(more):  # it spells its cards otherwise too: normalise it all
                        self._colours = False
                        normal, (more, taken, clean) = full, fuller
                if more:
                    self._normalise = True  # this program prints another layout: normalise from now on
                    boards, used = boards + more, used + _original_end(rest, taken, normal)
            if boards:
                self._board = _BoardSoFar()  # the headers read before them belonged to the first
            out.extend(boards)
            pos += used
            if len(boards) < FAST_MIN_BOARDS:
                break  # this output does not suit the fast path: not worth trying again
            if clean and size - pos <= min(MAX_PENDING, self.max_board_chars):
                # The bytes ended inside a board whose lines so far the fast path takes: they wait
                # for the rest of it, to be read with it (less than a board: nothing is held back).
                self._pending, pos = data[pos:], size
                break
            end = data.find(b"\n", pos) + 1 or size  # the line that stopped it
            out.extend(self._feed_text(self._decoder.decode(data[pos:end])))
            pos = end
        if pos < size:
            out.extend(self._feed_text(self._decoder.decode(data[pos:])))
        return out

    def _current_template(self) -> BoardTemplate | None:
        """The template of this output's boards, learnt from the last board the precise path read
        if there is none yet."""
        if self._learn_from is not None and self._template is None:
            learnt, self._learn_from = self._learn_from, None
            self._template, self._template_misses = self._learn(*learnt), 0
        template = self._template
        return template if template is not None and template.layout == self.layout else None

    def _first_board_template(self, region: bytes) -> BoardTemplate | None:
        """The template of the first board of `region` (which starts a board), read the precise
        way by a framer in this one's state."""
        read = self.first_board(region)
        if read is None:
            return None
        self.last_read = read
        return self._learn(*read)

    def first_board(self, region: bytes) -> tuple[str, tuple[int, ...], tuple[int, ...]] | None:
        """The first board of `region` (which starts a board) as `last_read` has boards, read the precise
        way by a framer in this one's state; None if it is not a board of this one's layout."""
        probe = BoardFramer(self._encoding, self.max_board_chars)
        probe.layout = self.layout
        for line in region[:MAX_PENDING].split(b"\n")[:-1]:
            boards = probe._feed_text(probe._decoder.decode(line + b"\n"))
            if boards:
                read = probe.last_read
                if not isinstance(boards[0], bytes) or read is None or probe.layout != self.layout:
                    return None  # not a board, or one of another layout: not this output's boards
                return read
        return None

    def _learn(self, text: str, cards: tuple[int, ...], layout: tuple[int, ...]) -> BoardTemplate | None:
        """The template of a board the precise path read (`layout`: its card lines); None for output
        the plain fast path reads as it is (from then on), or if it has none."""
        self._templates_left -= 1
        if not (self._utf8 or text.isascii()):
            return None
        template = learn_template(text, cards, layout)
        if template is not None and _fast_boards(text.encode(), layout)[1] == template.width:
            self._templates_left = 0
            return None
        return template

    def _feed_text(self, text: str) -> list[Board]:
        out: list[Board] = []
        parts = (self._tail + text).split("\n")
        self._tail = parts.pop()
        for raw in parts:
            board = self._take_line(raw)
            if board is not None:
                out.append(board)
        if self._board.chars + len(self._tail) > self.max_board_chars:
            out.append(
                RunawayOutput(
                    f"more than {self.max_board_chars} characters without a board; {describe_cards(self._cards())}"
                )
            )
            self._board = _BoardSoFar()
            self._tail = ""
        return out

    def finish(self) -> Board | None:
        """At the end of the output: the board that its last line, unended by a newline, completes;
        else why the partly read board is not one; None if nothing was left."""
        pending, self._pending = self._pending, b""
        self._feed_text(self._decoder.decode(pending, final=True))
        if self._tail:
            last = self._take_line(self._tail)
            self._tail = ""
            if last is not None:
                return last
        board, self._board = self._board, _BoardSoFar()
        self.unread = " ".join(" ".join(raw.split()) for raw in board.raws if raw.strip())
        if not board.count:
            return None
        try:
            board_from_lines(board.lines)
        except BoardError as exc:
            return BoardError(f"the output ended inside a board: {exc}")
        return BoardError("the output ended inside a board")

    def _take_line(self, raw: str) -> Board | None:
        board = self._board
        board.raws.append(raw)
        if not board.lines and raw.startswith("[[") and (whole := _json_board(raw)) is not None:
            self._board, self.layout = _BoardSoFar(), LINE_SHAPE
            self._learnt(board, whole, LINE_SHAPE)
            return canonical_line(whole)
        board.line_number += 1
        line = read_line(raw.rstrip("\r"), board.line_number)
        if "\ufffd" in raw and not line.stray:
            line.stray.append("\ufffd")
        board.chars += len(raw) + 1
        if not line.cards and not board.count:
            board.lines = [ln for ln in board.lines if ln.stray] + ([line] if line.stray else [])
            return None
        if not line.cards and line.words:
            # A header inside a board: the board ended early (the header is the next board's).
            self._board = _BoardSoFar(line_number=1, chars=len(raw) + 1, raws=[raw])
            try:
                board_from_lines(board.lines)
            except BoardError as exc:
                return exc
            return BoardError(f"a board ended early: {describe_cards([c for ln in board.lines for c in ln.cards])}")
        board.lines.append(line)
        board.count += len(line.cards)
        card_lines = [ln for ln in board.lines if ln.cards]
        layout = self.layout or next(
            (s for s in SHAPES if s[0] == len(card_lines[0].cards) + len(card_lines[0].stray)), None
        )
        if board.count < DECK_SIZE and (layout is None or len(card_lines) < len(layout)):
            return None
        self._board = _BoardSoFar()
        try:
            cards = board_from_lines(board.lines)
        except BoardError as exc:
            return exc
        self.layout = tuple(len(ln.cards) for ln in board.lines if ln.cards)
        self._learnt(board, cards, self.layout)
        return canonical_line(cards)

    def _learnt(self, board: _BoardSoFar, cards: tuple[int, ...], layout: tuple[int, ...]) -> None:
        """A board the precise path read from its start: a template may be learnt from it."""
        self.last_read = ("\n".join(board.raws) + "\n", cards, layout)
        if self._templates_left > 0 and self._fast:
            self._learn_from = ("\n".join(board.raws) + "\n", cards, layout)


# Normalising a chunk of output to plain rank-first letters, line for line, at C speed: what the
# precise path reads as a card in another spelling becomes that card's plain name, so that the
# fast path can take it.  Every rewrite keeps the chunk's lines (no newline added or removed) and
# keeps a token a card exactly when `CARD_TOKEN` reads it as one: the same boundaries (ASCII letters
# and digits are word characters, `_` is not), rank-first tried before suit-first.  A suit
# symbol (3 bytes of UTF-8) becomes a mark byte and two spaces, so that every rewrite after it
# keeps the length: a ten `10D` becomes ` TD`, suit-first `DJ` becomes `JD`, `♦10` `T♦   `.
_MARKS = b"\x01\x02\x03\x04"  # the suits, while they are symbols being rewritten
_SYMBOL_MARKS: Final = tuple(
    (symbol.encode(), bytes((_MARKS[SUITS.index(letter)],)) + b"  ") for symbol, letter in SUIT_SYMBOLS.items()
)
_MARK_LETTERS = bytes.maketrans(_MARKS, SUITS.encode())
_N_RANK, _N_SUIT, _N_MARK, _N_ONE, _N_ZERO, _N_SPACE, _N_WORD = 1, 2, 4, 8, 16, 32, 64
_NORMAL_CLASS = np.zeros(256, dtype=np.uint8)
for _chars, _bit in (
    (b"A23456789TJQKatjqk", _N_RANK),
    (b"CDHScdhs", _N_SUIT),
    (_MARKS, _N_MARK),
    (b"1", _N_ONE),
    (b"0", _N_ZERO),
    (b" ", _N_SPACE),
    (b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", _N_WORD),
):
    for _c in _chars:
        _NORMAL_CLASS[_c] |= _bit


def _without_csi(data: bytes) -> bytes | None:
    """The bytes without their ANSI control sequences `ESC [ params final` (what `ANSI_CODE` removes),
    at C speed; None if an escape is of another form (intermediate bytes, no `[`, cut off).

    A program colours its cards with a few sequences: those seen are each replaced by a NUL (so
    that removing one cannot complete another around it, as `ESC [3` + `ESC [0m` + `1m` would),
    and if no ESC is left, every ESC started one of them and the NULs go."""
    if b"\x00" in data:
        return None
    for known in (_CSI_SEEN, _csi_seen):
        marked = data
        for sequence in known if isinstance(known, tuple) else known(data):
            marked = marked.replace(sequence, b"\x00")
        if b"\x1b" not in marked:
            return marked.translate(None, b"\x00")
    return None


_CSI: Final = re.compile(rb"\x1b\[[0-9;?]*[@-~]")
_CSI_SEEN: tuple[bytes, ...] = ()  # the sequences output coloured its cards with, lately
_CSI_KEPT: Final = 64


def _csi_seen(data: bytes) -> tuple[bytes, ...]:
    """The CSI sequences in `data`, and those seen before."""
    global _CSI_SEEN
    found = set(_CSI.findall(data))
    known = tuple(found.union(_CSI_SEEN)) if len(found) + len(_CSI_SEEN) <= _CSI_KEPT else tuple(found)
    _CSI_SEEN = known
    return known


def _line_brackets(b: np.ndarray, word: np.ndarray) -> np.ndarray | None:
    """Where the brackets are, if each line holds either none or one pair around all its words
    (`['JD', 'QS', …]`): then the precise path's groups by brackets are the lines, and the
    brackets can go.  None for any other use of brackets (several groups on a line, R's `[1]`)."""
    opening, closing = b == ord("["), b == ord("]")
    ends = np.flatnonzero(b == _NEWLINE)
    if not ends.shape[0]:
        return None
    starts = np.concatenate(([0], ends[:-1] + 1))
    opens, closes = np.add.reduceat(opening, starts), np.add.reduceat(closing, starts)
    if ((opens != closes) | (opens > 1)).any():
        return None
    words = np.concatenate(([0], np.cumsum(word)))  # words[i]: word characters before byte i
    o, c = np.flatnonzero(opening), np.flatnonzero(closing)
    if c.shape[0] and c[-1] > ends[-1]:
        return None  # a pair on a line not yet ended
    line = np.searchsorted(ends, o)  # the line of each pair
    if (c < o).any() or (words[o] != words[starts[line]]).any() or (words[ends[line]] != words[c + 1]).any():
        return None
    return np.concatenate((o, c))


def normalised(data: bytes, *, colours_only: bool = False) -> bytes | None:
    """UTF-8 output with its cards spelt plain (ANSI codes gone, suit symbols as letters, `10` as
    T, suit-first as rank-first), line for line; None if nothing needed it or it cannot be (other
    non-ASCII text, or the bytes this uses as marks).  With `colours_only`, ASCII output whose
    ANSI codes are gone is given as it is then (its other spellings left to the precise path)."""
    changed = False
    if b"\x1b" in data:
        stripped = _without_csi(data)
        if stripped is None:
            return None
        data, changed = stripped, True
        if colours_only and data.isascii() and b"[" not in data and b"]" not in data:
            return data
    if not data.isascii():
        changed = True
        if any(m in data for m in (b"\x01", b"\x02", b"\x03", b"\x04")):
            return None
        for symbol, mark in _SYMBOL_MARKS:
            data = data.replace(symbol, mark)
        if not data.isascii():
            return None
    b = np.frombuffer(data, dtype=np.uint8)
    n = b.shape[0]
    pad = np.concatenate((b, np.zeros(6, dtype=np.uint8)))  # past the end: 0, no word character
    cls = _NORMAL_CLASS[pad]
    rank, suit, mark = (cls & _N_RANK) != 0, (cls & _N_SUIT) != 0, (cls & _N_MARK) != 0
    one, zero, space = (cls & _N_ONE) != 0, (cls & _N_ZERO) != 0, (cls & _N_SPACE) != 0
    word = np.concatenate(([False], (cls & _N_WORD) != 0))  # word[i + 1]: byte i is a word character

    def at(flags: np.ndarray, k: int) -> np.ndarray:  # flags of the byte k after each byte
        return flags[k : k + n]

    def edge_after(k: int) -> np.ndarray:  # the byte k after each byte is no word character
        return ~word[k + 1 : k + 1 + n]

    edge_before = ~word[:n]
    # rank-first tens: 10D → " TD", 10♦ → " T♦  "
    tens = edge_before & at(one, 0) & at(zero, 1) & ((at(suit, 2) & edge_after(3)) | at(mark, 2))
    # suit-first letters: DJ → JD, D10 → "TD "
    swap = edge_before & at(suit, 0) & at(rank, 1) & edge_after(2)
    suit_ten = edge_before & at(suit, 0) & at(one, 1) & at(zero, 2) & edge_after(3)
    # suit-first symbols: ♦J → "J♦  ", ♦10 → "T♦   "
    mark_first = edge_before & at(mark, 0) & at(space, 1) & at(space, 2)
    mark_rank = mark_first & at(rank, 3) & edge_after(4)
    mark_ten = mark_first & at(one, 3) & at(zero, 4) & edge_after(5)
    out = b.copy()
    if b"[" in data or b"]" in data:
        brackets = _line_brackets(b, word[1 : n + 1])
        if brackets is None:
            return None
        out[brackets] = ord(" ")
        changed = True
    if not (changed or tens.any() or swap.any() or suit_ten.any()):
        return None
    i = np.flatnonzero(tens)
    out[i], out[i + 1] = ord(" "), ord("T")
    i = np.flatnonzero(swap)
    out[i], out[i + 1] = b[i + 1], b[i]
    i = np.flatnonzero(suit_ten)
    out[i], out[i + 1], out[i + 2] = ord("T"), b[i], ord(" ")
    i = np.flatnonzero(mark_rank)
    out[i], out[i + 1], out[i + 3] = b[i + 3], b[i], ord(" ")
    i = np.flatnonzero(mark_ten)
    out[i], out[i + 1], out[i + 3], out[i + 4] = ord("T"), b[i], ord(" "), ord(" ")
    return out.tobytes().translate(_MARK_LETTERS)


def _original_end(original: bytes, used: int, normal: bytes) -> int:
    """Where in `original` the lines end that make up normal[:used] (both have the same lines)."""
    lines = normal.count(b"\n", 0, used)
    if not lines:
        return 0
    return int(np.flatnonzero(np.frombuffer(original, dtype=np.uint8) == _NEWLINE)[lines - 1]) + 1


def _json_board(raw: str) -> tuple[int, ...] | None:
    """A board printed as one line of JSON arrays of card names, read as `read_board` reads JSON
    text (escapes such as `\\u2666` decoded), plain names at C speed; None for anything else,
    which the line-by-line path reads."""
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return _json_value_board(value)


def _json_value_board(value: object) -> tuple[int, ...] | None:
    """`_json_board` of the value its line's JSON holds."""
    if type(value) is not list or not _LISTS.issuperset(map(type, value)):
        return None
    try:
        flat = list(map(CARD_INDEX.__getitem__, itertools.chain.from_iterable(value)))
    except (KeyError, TypeError):
        try:
            return board_from_value(value)
        except BoardError:
            return None
    shape = tuple(map(len, value))
    if shape == COLUMN_SHAPE:
        flat = list(_BY_COLUMN(flat))
    elif shape != ROW_SHAPE and shape != LINE_SHAPE:
        return None  # as `dealing_order` says: no board
    return tuple(flat) if len(set(flat)) == DECK_SIZE else None


_LISTS: Final = frozenset({list})
_BY_COLUMN: Final = operator.itemgetter(*COLUMN_ORDER)


def _json_boards(region: bytes) -> tuple[list[Board], int]:
    """The boards of the complete lines at the start of `region` that are each a JSON board (what
    `_take_line` reads from a line starting `[[` between boards), and the bytes they used."""
    lines = region.split(b"\n")[:-1]
    if all(line.startswith(b"[[") for line in lines) and region.isascii():
        try:
            values = json.loads(b"[" + b",".join(lines) + b"]")  # all at once, when all are JSON
        except ValueError:
            pass
        else:
            out: list[Board] = []
            for value in values:
                if (board := _json_line(value)) is None:
                    return out, sum(map(len, lines[: len(out)])) + len(out)  # the rest, the precise way
                out.append(board)
            return out, len(region)
    out = []
    used = 0
    for line in lines:
        if not line.startswith(b"[[") or not line.isascii() or (whole := _json_board(line.decode("ascii"))) is None:
            break
        out.append(canonical_line(whole))
        used += len(line) + 1
    return out, used


def _json_line(value: object) -> bytes | None:
    """The canonical line of a board given as JSON arrays of canonical names (else as `_json_board`
    reads it); None: the caller reads it the precise way."""
    if type(value) is list and _LISTS.issuperset(map(type, value)):
        flat = list(itertools.chain.from_iterable(value))
        shape = tuple(map(len, value))
        try:
            canonical = len(_CANONICAL_NAMES.intersection(flat)) == DECK_SIZE
        except TypeError:
            canonical = False
        if canonical and shape in (ROW_SHAPE, LINE_SHAPE):
            return (" ".join(flat) + "\n").encode()
        if canonical and shape == COLUMN_SHAPE:
            return (" ".join(_BY_COLUMN(flat)) + "\n").encode()
    whole = _json_value_board(value)
    return None if whole is None else canonical_line(whole)


_CANONICAL_NAMES: Final = frozenset(CARD_NAMES)


def _fast_boards(data: bytes, layout: tuple[int, ...]) -> tuple[list[Board], int, bool]:
    """Boards read from complete lines of ASCII text in `layout`, how many bytes they used, and
    whether every line after them would have been taken too (the text ended inside a board).

    It takes only lines that the precise path would read the same way: card lines holding
    nothing alphanumeric but 2-character rank-first cards (no brackets), and card-less lines
    holding nothing card-like.  At the first line that does not fit it stops, and the caller
    reads the rest the precise way.
    """
    if not data or layout not in (ROW_SHAPE, COLUMN_SHAPE, LINE_SHAPE):
        return [], 0, False
    b = np.frombuffer(data, dtype=np.uint8)
    cls = np.take(_BYTE_CLASS, b)
    alnum = (cls & _ALNUM) != 0
    is_rank, is_suit = (cls & _RANK_BIT) != 0, (cls & _SUIT_BIT) != 0
    edge = np.ones(b.shape[0] + 2, dtype=bool)  # edge[i + 1]: byte i is not alphanumeric
    np.logical_not(alnum, out=edge[1:-1])
    token = np.zeros(b.shape[0], dtype=bool)
    token[:-1] = is_rank[:-1] & is_suit[1:] & edge[:-3] & edge[3:]
    # Card-like forms only the precise path reads (suit-first, ten as 10), brackets, stray words.
    other = (cls & _BRACKET) != 0
    other[:-1] |= is_suit[:-1] & is_rank[1:] & edge[:-3] & edge[3:]
    tens = np.flatnonzero(((cls[:-1] & _ONE) != 0) & ((cls[1:] & _ZERO) != 0))
    if tens.shape[0]:
        padded = np.concatenate(([False], is_suit, [False, False]))  # padded[i + 1]: byte i is a suit
        rank_first = edge[tens] & padded[tens + 3] & edge[np.minimum(tens + 4, b.shape[0] + 1)]
        suit_first = padded[tens] & edge[np.maximum(tens - 1, 0)] & edge[tens + 3]
        other[tens[rank_first | suit_first]] = True
    stray = alnum.copy()
    stray[token] = False
    stray[1:][token[:-1]] = False
    newlines = np.flatnonzero(b == _NEWLINE)
    starts = np.concatenate(([0], newlines[:-1] + 1))
    if not starts.shape[0] or int(np.diff(newlines, prepend=-1).max()) >= 1 << 10:
        return [], 0, False  # no lines, or lines too long to count in 10 bits
    packed = token.view(np.uint8).astype(np.uint32)
    packed |= stray.view(np.uint8).astype(np.uint32) << 10
    packed |= other.view(np.uint8).astype(np.uint32) << 20
    sums = np.add.reduceat(packed, starts)
    per_line, stray_per_line, other_per_line = sums & 1023, (sums >> 10) & 1023, sums >> 20
    clean = (stray_per_line == 0) & (other_per_line == 0)
    card_line_idx = np.flatnonzero(per_line)
    header_idx = np.flatnonzero(per_line == 0)
    counts = per_line[card_line_idx]
    period = len(layout)
    bad = (counts != np.resize(np.array(layout), counts.shape[0])) | ~clean[card_line_idx]
    good = int(np.argmax(bad)) if bad.any() else counts.shape[0]
    # A header that holds card-like words (the precise path may read it as cards) also stops it.
    odd_headers = header_idx[other_per_line[header_idx] > 0]
    clean = not odd_headers.shape[0] and good == counts.shape[0]
    if odd_headers.shape[0]:
        good = min(good, int(np.searchsorted(card_line_idx, odd_headers[0])))
    boards = good // period
    if boards == 0:
        return [], 0, clean
    board_ends = card_line_idx[period - 1 : boards * period : period]
    used = int(newlines[board_ends[-1]]) + 1
    pos = np.flatnonzero(token[:used])
    cards = (_BYTE_RANK[b[pos]] * 4 + _BYTE_SUIT[b[pos + 1]]).reshape(boards, DECK_SIZE)
    if layout == COLUMN_SHAPE:
        cards = cards[:, list(COLUMN_ORDER)]
    blob = render_lines(cards).tobytes()
    out: list[Board] = [blob[i : i + LINE_BYTES] for i in range(0, len(blob), LINE_BYTES)]
    seen = np.bincount(
        (np.arange(boards * DECK_SIZE) // DECK_SIZE) * DECK_SIZE + cards.ravel(), minlength=boards * DECK_SIZE
    )
    valid = seen.reshape(boards, DECK_SIZE).all(axis=1)
    for i in np.flatnonzero(~valid):
        first = 0 if i == 0 else int(newlines[board_ends[i - 1]]) + 1
        text = data[first : int(newlines[board_ends[i]])].decode("ascii")
        try:
            board_from_lines([read_line(raw, k + 1) for k, raw in enumerate(text.split("\n"))])
        except BoardError as exc:
            out[i] = exc
    return out, used, clean


# ---------------------------------------------------------------------------------------------
# Templates: output whose boards all have the same bytes but for their cards' letters.
#
# A program prints every board alike: the same headers, separators, quotes, brackets and colour
# codes, each card spelt the same way.  A template, learnt from a board the precise path read,
# keeps that board's bytes but at the places of its cards' ranks and suits (and of its colour
# codes' parameters).  A later board with the same bytes elsewhere, a rank at each rank place, a
# suit at each suit place, is read as the precise path would read it: what `CARD_TOKEN`,
# `read_line`, `board_from_lines`, the JSON reading and the framing decide depends on which bytes
# are ranks, suits, other word characters and separators, never on which rank or which suit
# (ranks and suits are disjoint sets of word characters, a suit symbol a non-word character), so
# the cards at the same places come in the same order.

_FIXED, _PARAMETER, _DIGIT, _RANK_AT, _SUIT_AT = 0, 1, 2, 3, 4  # what each byte of a template is
_TEMPLATE_SUIT = np.full((2, 256), 255, dtype=np.uint8)  # [0]: by a suit letter; [1]: by a symbol's last byte
for _i, _s in enumerate(SUITS):
    _TEMPLATE_SUIT[0, ord(_s)] = _TEMPLATE_SUIT[0, ord(_s.lower())] = _i
for _sym, _letter in SUIT_SYMBOLS.items():
    _TEMPLATE_SUIT[1, _sym.encode()[2]] = SUITS.index(_letter)  # every symbol is E2 99 xx in UTF-8
_CSI_PARAMETER = np.zeros(256, dtype=bool)
_CSI_PARAMETER[list(b"0123456789;?")] = True
_CSI_PARAMETERS = re.compile(r"\x1b\[([0-9;?]*)")
_IS_DIGIT = np.zeros(256, dtype=bool)
_IS_DIGIT[list(b"0123456789")] = True
# A number between ASCII separators ("Game #617:"): other digits there make another number, never a card.
_NUMBER = re.compile(r"(?<![0-9A-Za-z\x80-\U0010ffff])[0-9]+(?![0-9A-Za-z\x80-\U0010ffff])")
_ONE_BIT, _ALL_CARDS = np.uint64(1), np.uint64((1 << DECK_SIZE) - 1)  # a board's cards as bits: all 52
TEMPLATE_MISSES = 3  # boards in a row that a template did not read, before it is dropped
TEMPLATES_LEARNT = 16  # at most, by one framer (a header's number grows a digit now and then)


@dataclass(frozen=True, slots=True)
class BoardTemplate:
    """The bytes every board of an output has, and where its cards' letters are."""

    layout: tuple[int, ...]  # the card lines' shape (the framer's layout while it holds)
    board: np.ndarray  # the learnt board's bytes
    free: np.ndarray  # per byte: not compared (a rank, a suit, a colour code's parameter)
    rank_at: np.ndarray  # per card, in reading order: where its rank is
    suit_at: np.ndarray  # … its suit (a letter, or a symbol's last byte)
    suits: np.ndarray  # the suit of each byte there (letters, or symbols' last bytes: all cards alike)
    parameter_at: np.ndarray  # where colour codes' parameters are
    digit_at: np.ndarray  # where the digits of numbers in lines without cards are (a header's deal number)
    order: np.ndarray  # the reading-order index of each card in dealing order

    @property
    def width(self) -> int:
        return int(self.board.shape[0])

    def begins(self, data: bytes) -> bool:
        """Whether `data`, shorter than a board, is how a board read by this template begins."""
        n = len(data)
        if n >= self.width:
            return False
        a = np.frombuffer(data, dtype=np.uint8)
        if not ((a == self.board[:n]) | self.free[:n]).all():
            return False
        ranks, suits = self.rank_at < n, self.suit_at < n
        return bool(
            (_BYTE_RANK[a[self.rank_at[ranks]]] != 255).all()
            and (self.suits[a[self.suit_at[suits]]] != 255).all()
            and _CSI_PARAMETER[a[self.parameter_at[self.parameter_at < n]]].all()
            and _IS_DIGIT[a[self.digit_at[self.digit_at < n]]].all()
        )


def learn_template(text: str, cards: Sequence[int], layout: tuple[int, ...]) -> BoardTemplate | None:
    """The template of a board's text (its lines from the board's start, each ended by LF), which
    the precise path read as `cards`; None if it has cards a template cannot place (`10`,
    Unicode playing cards, a card-like word in a header) or escapes (a backslash)."""
    if "\\" in text or "\ufffd" in text or not text.endswith("\n") or len(text.encode()) > MAX_PENDING:
        return None
    data = text.encode()
    offsets = list(itertools.accumulate((len(ch.encode()) for ch in text), initial=0))
    kind = np.full(len(data), _FIXED, dtype=np.uint8)
    kept: list[int] = []  # the characters outside ANSI codes, as `read_line` keeps them
    last = 0
    for m in ANSI_CODE.finditer(text):
        kept.extend(range(last, m.start()))
        last = m.end()
        if (params := _CSI_PARAMETERS.match(text, m.start())) is not None and params.end() <= m.end():
            kind[offsets[params.start(1)] : offsets[params.end(1)]] = _PARAMETER
    kept.extend(range(last, len(text)))
    tokens: list[int] = []
    rank_at: list[int] = []
    suit_at: list[int] = []
    suit_kind: list[int] = []
    stripped = "".join(text[i] for i in kept)
    card_lines: set[int] = set()
    for m in CARD_TOKEN.finditer(stripped):
        card = token_card(m)
        if card is None:
            continue
        rank, suit = ("rank", "suit") if m["rank"] else ("rank2", "suit2")
        if m["uni"] or len(m[rank]) != 1:
            return None
        r, s = offsets[kept[m.start(rank)]], offsets[kept[m.start(suit)]]
        card_lines.add(stripped.count("\n", 0, m.start()))
        symbol = not m[suit].isascii()
        tokens.append(card)
        rank_at.append(r)
        suit_at.append(s + 2 if symbol else s)
        suit_kind.append(int(symbol))
    if len(tokens) != DECK_SIZE or sorted(tokens) != sorted(cards) or len(set(tokens)) != DECK_SIZE:
        return None
    if len(set(suit_kind)) != 1:
        return None  # letters and symbols both: not how programs print
    for m in _NUMBER.finditer(stripped):
        if stripped.count("\n", 0, m.start()) not in card_lines:
            kind[[offsets[kept[i]] for i in range(m.start(), m.end())]] = _DIGIT
    kind[rank_at] = _RANK_AT
    kind[suit_at] = _SUIT_AT
    board = np.frombuffer(data, dtype=np.uint8).copy()
    template = BoardTemplate(
        layout=layout,
        board=board,
        free=kind != _FIXED,
        rank_at=np.array(rank_at, dtype=np.intp),
        suit_at=np.array(suit_at, dtype=np.intp),
        suits=_TEMPLATE_SUIT[suit_kind[0]],
        parameter_at=np.flatnonzero(kind == _PARAMETER),
        digit_at=np.flatnonzero(kind == _DIGIT),
        order=np.array([tokens.index(c) for c in cards], dtype=np.intp),
    )
    boards, used = boards_by_template(data, template)
    return template if used == len(data) and boards == [canonical_line(cards)] else None


def boards_by_template(region: bytes, template: BoardTemplate) -> tuple[list[Board], int]:
    """The boards at the start of `region` that `template` reads (52 distinct cards each), and the
    bytes they used; it stops at the first board that differs, for the caller to read otherwise."""
    width = template.width
    k = len(region) // width
    if not k:
        return [], 0
    a = np.frombuffer(region, dtype=np.uint8, count=k * width).reshape(k, width)
    ranks = np.take(_BYTE_RANK, a[:, template.rank_at])
    suits = np.take(template.suits, a[:, template.suit_at])
    ok = ((a == template.board) | template.free).all(axis=1)
    ok &= (ranks != 255).all(axis=1) & (suits != 255).all(axis=1)
    if template.parameter_at.shape[0]:
        ok &= _CSI_PARAMETER[a[:, template.parameter_at]].all(axis=1)
    if template.digit_at.shape[0]:
        ok &= _IS_DIGIT[a[:, template.digit_at]].all(axis=1)
    cards = ranks * 4 + suits  # uint8: a row that is not ok may wrap; it is not used
    ok &= np.bitwise_or.reduce(np.left_shift(_ONE_BIT, cards.astype(np.uint64)), axis=1) == _ALL_CARDS
    good = k if ok.all() else int(np.argmin(ok))
    if not good:
        return [], 0
    blob = render_lines(cards[:good, template.order]).tobytes()
    return [blob[i : i + LINE_BYTES] for i in range(0, len(blob), LINE_BYTES)], good * width
