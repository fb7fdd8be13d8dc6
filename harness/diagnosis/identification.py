"""`identify`: which deal numbers deal a board, found by inverting the random-number generator.

Replaying the deal on a fresh deck recovers kᵢ = rᵢ mod (53 − i) for every card.  The state sᵢ of
a rule is rᵢ's bits (bits 16 and up) plus 16 unknown low bits L.  For each pair (r₁, r₂) allowed by
k₁ and k₂, the L that carry s₁ to an s₂ with those top bits lie in one window of the sorted table
a·L mod 2ᵐ (about one or two of them); the survivors are filtered with k₃, k₄, …, and the deal
number is the inverse of the first step.  Every candidate is confirmed by dealing it.

fcpro's rule for 2³¹ … 2³²−1 keeps a 32-bit state, but its rᵢ read only bits 16 … 30, and bits
0 … 30 evolve as the classic state does: the same search on 31 bits, with rᵢ | 0x8000, finds
n − 2³¹.  Its rule for 2³² … 2³³−1 reads bits 16 … 31: a search on 32 bits finds n − 2³².
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

import reference
from harness.cards import BoardError, board_from_value, read_board
from harness.errors import RequestError
from harness.files import FileRefused, read_regular
from harness.framing import Board, BoardFramer
from reference.cards import CARD_INDEX, DECK_SIZE
from reference.dialects import DIALECTS, INCREMENT, MULTIPLIER, LcgRule

U64 = npt.NDArray[np.uint64]


@dataclass(frozen=True, slots=True)
class Match:
    """Deal `deal` deals the board, in each of `dialects`."""

    deal: int
    dialects: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"deal": self.deal, "dialects": list(self.dialects)}

    def __str__(self) -> str:
        return f"{self.deal}  {' '.join(self.dialects)}"


@dataclass(frozen=True, slots=True)
class _Region:
    """The deal numbers of one rule of a dialect, whose low state bits follow one LCG:
    s₀ = n − offset (mod 2^bits), rᵢ = output((sᵢ >> 16) mod 2^(bits − 16))."""

    dialect: str  # a dialect that deals them by this rule
    rule: LcgRule

    @property
    def first(self) -> int:
        return self.rule.first

    @property
    def last(self) -> int:
        return self.rule.last

    @property
    def bits(self) -> int:  # state bits that decide rᵢ (31 for classic and for fcpro's 2³¹ … 2³²−1)
        return self.rule.bits

    @property
    def offset(self) -> int:
        """The deal number whose s₀ is 0 mod 2^bits, at or below `first`: n = offset + s₀ in the rule."""
        return self.first - (self.first - self.rule.seed_offset) % (1 << self.bits)

    def output(self, high: U64) -> U64:
        r = self.rule
        return ((high & np.uint64(r.out_mask)) | np.uint64(r.out_or)) + np.uint64(r.out_add)


MAX_BOARDS_BYTES = 64 << 20  # 400,000 boards of one line each


def _regions() -> tuple[_Region, ...]:
    """Every rule of every dialect, once: a rule that another with the same LCG covers is left out."""

    def same_lcg(a: LcgRule, b: LcgRule) -> bool:
        return (a.seed_offset, a.state_mask, a.out_mask, a.out_or, a.out_add) == (
            b.seed_offset, b.state_mask, b.out_mask, b.out_or, b.out_add)  # fmt: skip

    every = [(name, rule) for name, d in DIALECTS.items() for rule in d.rules]
    kept: dict[LcgRule, str] = {}
    for name, rule in every:
        covered = any(other != rule and same_lcg(other, rule) and other.first <= rule.first and rule.last <= other.last
                      for _, other in every)  # fmt: skip
        if not covered:
            kept.setdefault(rule, name)
    regions = tuple(_Region(name, rule) for rule, name in kept.items())
    # One deal number per state: a rule may span at most 2^bits deals.
    assert all(r.last - r.first < 1 << r.bits for r in regions)
    return regions


_REGIONS = _regions()


def picks(cards: Sequence[int]) -> list[int] | None:
    """kᵢ = rᵢ mod (53 − i) of a board in dealing order, by replaying the deal; None if not 52 cards."""
    if sorted(cards) != list(range(DECK_SIZE)):
        return None
    deck = list(range(DECK_SIZE))
    where = list(range(DECK_SIZE))  # where[card] = its position in the deck
    out = []
    for left, card in zip(range(DECK_SIZE, 0, -1), cards, strict=True):
        k = where[card]
        out.append(k)
        moved = deck[left - 1]
        deck[k], where[moved] = moved, k
    return out


@functools.cache
def _sorted_products(bits: int) -> tuple[U64, U64, npt.NDArray[np.int64]]:
    """a·L mod 2^bits for L = 0 … 65535, sorted, twice over (the second copy + 2^bits); each one's L;
    and where each stretch of 2¹⁶ values (value >> 16) starts in the table."""
    low = np.arange(1 << 16, dtype=np.uint64)
    products = (low * np.uint64(MULTIPLIER)) & np.uint64((1 << bits) - 1)
    order = np.argsort(products, kind="stable").astype(np.uint64)
    table = np.concatenate([products[order], products[order] + np.uint64(1 << bits), [np.uint64(2**63)]])
    stretches = np.arange((1 << (bits - 15)) + 1, dtype=np.uint64) << np.uint64(16)
    return table, np.concatenate([order, order]), np.searchsorted(table, stretches, "left").astype(np.int64)


def _in_windows(bits: int, lo: U64) -> tuple[npt.NDArray[np.int64], U64]:
    """Every (window, L) with a·L mod 2^bits in [lo, lo + 65535] (a window may wrap past 2^bits)."""
    table, low_of, stretch_start = _sorted_products(bits)
    window = np.arange(lo.shape[0], dtype=np.int64)
    at = stretch_start[lo >> np.uint64(16)]  # the first value of lo's stretch: at or below lo
    hi = lo + np.uint64(0xFFFF)
    found_window, found_at = [], []
    while window.shape[0]:
        value = table[at]
        below_end = value <= hi
        hit = below_end & (value >= lo)
        found_window.append(window[hit])
        found_at.append(at[hit])
        window, at, lo, hi = window[below_end], at[below_end] + 1, lo[below_end], hi[below_end]
    return np.concatenate(found_window), low_of[np.concatenate(found_at)]


@functools.cache
def _picks_table(region: _Region) -> npt.NDArray[np.uint8]:
    """rᵢ mod left for every left (row left − 1) and every value of the state's high bits (column)."""
    out = region.output(np.arange(1 << (region.bits - 16), dtype=np.uint64)).astype(np.int64)
    return (out[None, :] % np.arange(1, DECK_SIZE + 1)[:, None]).astype(np.uint8)


def _states(region: _Region, k: list[int]) -> U64:
    """Every s₁ (mod 2^bits) whose random numbers give the picks k."""
    bits = region.bits
    mask = np.uint64((1 << bits) - 1)
    a, c = np.uint64(MULTIPLIER), np.uint64(INCREMENT)
    high = np.arange(1 << (bits - 16), dtype=np.uint64)
    out = region.output(high)
    first = high[out % np.uint64(DECK_SIZE) == np.uint64(k[0])]
    second = high[out % np.uint64(DECK_SIZE - 1) == np.uint64(k[1])]
    # s₂ = (a·(h₁·2¹⁶ + L) + c) mod 2^bits must lie in [h₂·2¹⁶, h₂·2¹⁶ + 65535]: a·L in a window.
    base = (first * np.uint64(MULTIPLIER << 16) + c) & mask
    lo = ((second[None, :] << np.uint64(16)) - base[:, None] + np.uint64(1 << bits)) & mask
    pair, low = _in_windows(bits, lo.ravel())
    s1: U64 = (first[pair // second.shape[0]] << np.uint64(16)) | low
    state = s1.copy()
    table_of_picks = _picks_table(region)
    for step in range(1, DECK_SIZE):
        state = (state * a + c) & mask
        if step == 1:
            continue  # r₂ holds by construction
        keep = table_of_picks[DECK_SIZE - step - 1][state >> np.uint64(16)] == k[step]
        state, s1 = state[keep], s1[keep]
        if not s1.shape[0]:
            break
    return s1


_INVERSE = pow(MULTIPLIER, -1, 2**32)


def _deal_numbers(region: _Region, k: list[int]) -> list[int]:
    mask = (1 << region.bits) - 1
    seeds = {((s1 - INCREMENT) * _INVERSE) & mask for s1 in _states(region, k).tolist()}
    return sorted(n for n in (region.offset + s for s in seeds) if region.first <= n <= region.last)


def dialects_of(number: int) -> tuple[str, ...]:
    return tuple(name for name, d in DIALECTS.items() if number in d)


def identify(board: str | Sequence[int] | Sequence[str] | Sequence[Sequence[str]]) -> list[Match]:
    """Every deal number (of any dialect: fcpro's whole domain and xp's fixed layouts) that deals
    `board`, smallest first; [] for none.  `board` is board text (any layout the lenient reader
    takes), 52 card indices in dealing order, or rows, columns or 52 card names; BoardError if not."""
    if isinstance(board, str):
        cards = read_board(board)
    elif all(isinstance(c, int) for c in board):
        cards = tuple(board)  # type: ignore[arg-type]
    else:
        cards = board_from_value(board)
    k = picks(cards)
    if k is None:
        return []
    found: set[int] = set()
    for name, d in DIALECTS.items():
        for number, _layout in d.fixed_layouts.items():
            if reference.deal(number, name).cards == cards:
                found.add(number)
    for region in _REGIONS:
        for n in _deal_numbers(region, k):
            if reference.deal(n, region.dialect).cards == cards:  # confirmed by dealing it
                found.add(n)
    return [Match(n, dialects_of(n)) for n in sorted(found)]


def read_boards(paths: Sequence[str], stdin: BinaryIO) -> list[tuple[int, ...]]:
    """The boards of each file in turn (`-`, or no file at all: stdin); RequestError naming what is wrong."""
    boards = []
    for path in paths or ["-"]:
        try:
            data = stdin.read(MAX_BOARDS_BYTES + 1) if path == "-" else read_regular(path, MAX_BOARDS_BYTES)
            if len(data) > MAX_BOARDS_BYTES:
                raise RequestError(f"identify: stdin holds more than {MAX_BOARDS_BYTES >> 20} MiB of boards")
        except OSError as exc:
            raise RequestError(f"identify: cannot read {path}: {exc.strerror or exc}") from None
        except FileRefused as exc:
            raise RequestError(f"identify: cannot read {path}: {exc.why}") from None
        boards += boards_in(data, "stdin" if path == "-" else path)
    return boards


def identify_text(found: Sequence[Sequence[Match]]) -> str:
    """SPEC's text: one line per board, `617  classic fcpro xp` (several matches joined by `; `)."""
    return "\n".join("; ".join(map(str, matches)) or "not a Microsoft deal" for matches in found)


def identify_json(found: Sequence[Sequence[Match]]) -> list[dict[str, object]]:
    return [{"board": i, "matches": [m.to_json() for m in matches]} for i, matches in enumerate(found, 1)]


def boards_in(data: bytes, where: str) -> list[tuple[int, ...]]:
    """The boards in one input, framed by counting 52 cards; RequestError naming `where` and the board."""
    framer = BoardFramer()
    boards: list[Board] = []
    for line in data.splitlines(keepends=True):
        framer.layout = None  # each board's layout guessed from its own first line: layouts may mix
        boards += framer.feed(line)
    tail = framer.finish()
    if tail is not None:
        boards.append(tail)
    out = []
    for i, board in enumerate(boards, 1):
        if isinstance(board, BoardError):
            raise RequestError(f"{where}: board {i} is not a board: {board}")
        out.append(tuple(CARD_INDEX[name] for name in board.decode("ascii").split()))
    if not out:
        raise RequestError(f"{where}: no board in it")
    return out
