"""The catalogue of known mistakes, as data: each one a way to build the board a mistaken dealer
deals at deal n, with the cause and the words that explain it (SPEC.md, "Diagnosis").

Three kinds of entry: a deal-number map (the right board of another number m = f(n)), a
transform of the right board (suits, the deck built suit by suit, rows and columns, order), and a
wrong shuffle (another random-number generator, or another modulus).  `diagnose` tries them in
this order, then the transforms made together (suit-major and a suit order and a layout).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import reference
from harness.failures import Cause
from reference.cards import COLUMNS, DECK_SIZE, SUITS
from reference.dialects import DIALECTS, INCREMENT, INTEGER_LIMITS, MULTIPLIER

Cards = tuple[int, ...]


# ---------------------------------------------------------------------------------------------
# Random-number generators, right and wrong.


@dataclass(frozen=True, slots=True)
class Lcg:
    """sᵢ = (214013·sᵢ₋₁ + 2531011) & state_mask (None: never reduced) from s₀ = n;
    rᵢ = (((sᵢ >> shift) & out_mask) | out_or) + out_add (out_mask None: no mask); `skip` draws thrown away."""

    state_mask: int | None = 2**31 - 1
    shift: int = 16
    out_mask: int | None = 0x7FFF
    out_or: int = 0
    out_add: int = 0
    skip: int = 0

    def random_numbers(self, n: int) -> list[int]:
        state, out = n, []
        for _ in range(DECK_SIZE + self.skip):
            state = MULTIPLIER * state + INCREMENT
            if self.state_mask is not None:
                state &= self.state_mask
            high = state >> self.shift
            if self.out_mask is not None:
                high &= self.out_mask
            out.append((high | self.out_or) + self.out_add)
        return out[self.skip :]


@dataclass(frozen=True, slots=True)
class GlibcRand:
    """glibc's `srand(n); rand()` (TYPE_3: additive feedback over 34 words, seeded by 16807·x mod 2³¹−1)."""

    def random_numbers(self, n: int) -> list[int]:
        seed = n & 0xFFFFFFFF or 1
        r = [seed]
        for i in range(1, 31):
            word = r[i - 1] - 2**32 if r[i - 1] >= 2**31 else r[i - 1]
            hi, lo = divmod(word, 127773) if word >= 0 else (-((-word) // 127773), -((-word) % 127773))
            value = 16807 * lo - 2836 * hi
            r.append((value + 2147483647 if value < 0 else value) & 0xFFFFFFFF)
        r += [r[i - 31] for i in range(31, 34)]
        for i in range(34, 344 + DECK_SIZE):
            r.append((r[i - 31] + r[i - 3]) & 0xFFFFFFFF)
        return [x >> 1 for x in r[344:]]


Generator = Lcg | GlibcRand
CLASSIC: Final = Lcg()


def shuffle(randoms: Sequence[int], modulus_delta: int = 0) -> Cards:
    """SPEC.md's dealing, with k = r mod (left + modulus_delta) (0 where that modulus is not positive)."""
    deck = list(range(DECK_SIZE))
    dealt = []
    for left, r in zip(range(DECK_SIZE, 0, -1), randoms, strict=True):
        modulus = left + modulus_delta
        k = r % modulus if modulus > 0 else 0
        dealt.append(deck[k])
        deck[k] = deck[left - 1]
    return tuple(dealt)


_WIDEST: Final = max(DIALECTS, key=lambda name: DIALECTS[name].last)


def board_of(number: int, dialect: str) -> Cards:
    """The right board of `number` in `dialect`; outside the domain, what a dealer that does not
    check it deals (the widest dialect's rules, fcpro's up to 2³³−1, else the classic rule on any integer)."""
    for name in (dialect, _WIDEST):
        if number in DIALECTS[name]:
            return reference.deal(number, name).cards
    return shuffle(CLASSIC.random_numbers(number))


# ---------------------------------------------------------------------------------------------
# The catalogue.


@dataclass(frozen=True, slots=True)
class NumberMap:
    """The right board of deal m = to(n) (None: the mistake cannot show at n)."""

    to: Callable[[int], int | None]


@dataclass(frozen=True, slots=True)
class Transform:
    """The right board of n, rearranged: actual[p] = card(expected[source[p]]), where card(k) is the card
    at position k of the deck as the dealer builds it (rank by rank, or suit by suit, in `suits` order)."""

    source: tuple[int, ...] = tuple(range(DECK_SIZE))
    suits: str = SUITS  # the deck's suit order, replacing CDHS
    suit_major: bool = False  # the deck built suit by suit (AC 2C … KC AD …), not rank by rank

    def relabel(self) -> list[int]:
        """card(k) for each deck position k, as a card index of the rank-major CDHS deck."""
        if self.suit_major:
            return [(k % 13) * 4 + SUITS.index(self.suits[k // 13]) for k in range(DECK_SIZE)]
        return [(k // 4) * 4 + SUITS.index(self.suits[k % 4]) for k in range(DECK_SIZE)]


@dataclass(frozen=True, slots=True)
class WrongShuffle:
    """Deal n dealt with another generator or modulus; `fixed_layouts_only`: tried only where n is one."""

    generator: Generator = CLASSIC
    modulus_delta: int = 0
    fixed_layouts_only: bool = False


Source = NumberMap | Transform | WrongShuffle


@dataclass(frozen=True, slots=True)
class Mistake:
    """A known mistake: `key` names it (same_as.transform for transforms and wrong shuffles);
    `explanation` says what the dealer does; `same_dialect` is the dialect same_as names
    (None: the one asked for)."""

    cause: Cause
    key: str
    source: Source
    explanation: str
    same_dialect: str | None = None


def _wrap(modulus: int) -> Callable[[int], int | None]:
    return lambda n: n % modulus if n >= modulus else None


def _signed_16(n: int) -> int | None:
    m = (n + 2**15) % 2**16 - 2**15
    return m if m != n else None


def _suit_orders() -> list[Mistake]:
    return [
        Mistake("suit-order", f"suits {''.join(order)}", Transform(suits="".join(order)),
                f"the deck is built in suit order {''.join(order)}, not CDHS")
        for order in itertools.permutations(SUITS)
        if "".join(order) != SUITS
    ]  # fmt: skip


def power_words(n: int) -> str:
    """n as words write it: 2³¹, 2³²−1 (a power of two, or one less), else its digits."""
    return _power(n)[1]


def _power(n: int) -> tuple[str, str]:
    """n as the catalogue's key writes it (2^31, 2^32-1) and as its words do (2³¹, 2³²−1)."""
    for k in range(n.bit_length() + 1):
        for delta, key, words in ((0, "", ""), (-1, "-1", "−1")):
            if n == 2**k + delta:
                return f"2^{k}{key}", "2" + str(k).translate(_SUPERSCRIPTS) + words
    return str(n), str(n)


_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _other_rules() -> list[Mistake]:
    """A dealer that uses a dialect's rule for other numbers than its own: each rule that Microsoft's
    classic one is not, applied from s₀ = n (its state wide enough that n − seed_offset ≡ n)."""
    out = []
    for d in DIALECTS.values():
        for rule in d.rules:
            generator = Lcg(rule.state_mask, out_mask=rule.out_mask, out_or=rule.out_or, out_add=rule.out_add)
            if generator == CLASSIC:  # Microsoft's rule, or a stretch of it
                continue
            (first_key, first), (last_key, last) = _power(rule.first), _power(rule.last)
            out.append(Mistake("other-dialect", f"{d.name} rule of {first_key} ... {last_key}", WrongShuffle(generator),
                               f"dealt by {d.title}'s rule for {first} … {last} ({rule.note})", d.name))  # fmt: skip
    return out


# Position p of the columns read one after another holds dealt card _TO_COLUMNS[p].
_SUIT_MAJOR = "the deck is built suit by suit (AC 2C … KC AD …), not rank by rank (AC AD AH AS 2C …)"
_TO_COLUMNS = tuple(p for column in range(COLUMNS) for p in range(column, DECK_SIZE, COLUMNS))
_FROM_COLUMN_ORDER = tuple(_TO_COLUMNS.index(p) for p in range(DECK_SIZE))
# Each column read from its exposed (last dealt) card, each row from its right end: position p of the
# board as read holds dealt card _COLUMNS_REVERSED[p] (_ROWS_REVERSED[p]).
_COLUMNS_REVERSED = tuple(
    p % COLUMNS + COLUMNS * (len(range(p % COLUMNS, DECK_SIZE, COLUMNS)) - 1 - p // COLUMNS) for p in range(DECK_SIZE)
)
_ROWS_REVERSED = tuple(
    p - p % COLUMNS + min(COLUMNS, DECK_SIZE - (p - p % COLUMNS)) - 1 - p % COLUMNS for p in range(DECK_SIZE)
)

_SINGLE: Final[tuple[Mistake, ...]] = (
    Mistake("other-dialect", "classic shuffle of a fixed layout", WrongShuffle(fixed_layouts_only=True),
            "dealt as a classic shuffle, not as XP's fixed layout", "classic"),
    Mistake("wraps", "mod 2^31", NumberMap(_wrap(2**31)), "the number wraps modulo 2³¹"),
    Mistake("wraps", "mod 2^32", NumberMap(_wrap(2**32)), "the number wraps modulo 2³²"),
    Mistake("wraps", "mod 2^16", NumberMap(_wrap(2**16)), "the number wraps modulo 2¹⁶ (an unsigned 16-bit integer)"),
    Mistake("wraps", "mod 2^15", NumberMap(_wrap(2**15)),
            "the number wraps modulo 2¹⁵ (kept to 15 bits, as if there were only the original 32,000 games)"),
    Mistake("truncated-16-bit", "signed 16-bit", NumberMap(_signed_16),
            "the number is cut to a signed 16-bit integer"),
    Mistake("off-by-one", "n - 1", NumberMap(lambda n: n - 1), "the number is off by one (n − 1)"),
    Mistake("off-by-one", "n + 1", NumberMap(lambda n: n + 1), "the number is off by one (n + 1)"),
    *_suit_orders(),
    Mistake("suit-order", "suit-major", Transform(suit_major=True), _SUIT_MAJOR),
    Mistake("transposed", "columns as rows", Transform(source=_TO_COLUMNS),
            "rows and columns are swapped (the columns written out as rows)"),
    Mistake("transposed", "rows as columns", Transform(source=_FROM_COLUMN_ORDER),
            "rows and columns are swapped (cards dealt down the columns instead of across the rows)"),
    Mistake("reversed", "reversed", Transform(source=tuple(range(DECK_SIZE - 1, -1, -1))),
            "the cards are in reverse dealing order"),
    Mistake("reversed", "each column reversed", Transform(source=_COLUMNS_REVERSED),
            "each column is reversed (its exposed card first, not the card dealt first)"),
    Mistake("reversed", "each row reversed", Transform(source=_ROWS_REVERSED),
            "each row is reversed (dealt right to left)"),
    *_other_rules(),
    Mistake("generator", "state kept to 32 bits", WrongShuffle(Lcg(2**32 - 1, out_mask=0xFFFF)),
            "dealt with a wrong random-number generator: the state is kept to 32 bits, not 31"),
    Mistake("generator", "state never reduced", WrongShuffle(Lcg(None, out_mask=None)),
            "dealt with a wrong random-number generator: the state is never reduced modulo 2³¹"),
    Mistake("generator", "r not shifted", WrongShuffle(Lcg(shift=0, out_mask=None)),
            "dealt with a wrong random-number generator: rᵢ is the whole state, not shifted right by 16"),
    Mistake("generator", "first random number skipped", WrongShuffle(Lcg(skip=1)),
            "dealt with a wrong random-number generator: r₁ is thrown away"),
    Mistake("generator", "glibc rand", WrongShuffle(GlibcRand()),
            "dealt with a wrong random-number generator: the C library's rand (glibc), not Microsoft's"),
    Mistake("modulus", "r mod (left - 1)", WrongShuffle(modulus_delta=-1),
            "dealt with a wrong modulus: k = r mod (left − 1), not r mod left"),
)  # fmt: skip


def _together(singles: Sequence[Mistake]) -> list[Mistake]:
    """Two or three of the rearranging mistakes made together: the deck built suit by suit, its suits in
    another order, and the board laid out another way (each combination not a single mistake)."""
    transforms = [(m, m.source) for m in singles if isinstance(m.source, Transform)]
    decks: list[tuple[bool, list[Mistake]]] = [(False, [])]
    decks += [(True, [m]) for m, t in transforms if t.suit_major]
    orders: list[tuple[str, list[Mistake]]] = [(SUITS, [])]
    orders += [(t.suits, [m]) for m, t in transforms if m.cause == "suit-order" and not t.suit_major]
    layouts: list[tuple[tuple[int, ...], list[Mistake]]] = [(tuple(range(DECK_SIZE)), [])]
    layouts += [(t.source, [m]) for m, t in transforms if m.cause in ("transposed", "reversed")]
    out = []
    for (major, deck), (suits, order), (source, layout) in itertools.product(decks, orders, layouts):
        parts = [*deck, *order, *layout]
        if len(parts) < 2:
            continue
        out.append(Mistake(parts[0].cause, ", ".join(m.key for m in parts),
                           Transform(source=source, suits=suits, suit_major=major),
                           "; and ".join(m.explanation for m in parts)))  # fmt: skip
    return out


CATALOGUE: Final[tuple[Mistake, ...]] = (*_SINGLE, *_together(_SINGLE))

# Limits where dealers clamp the deal number (a board repeated above them): every dialect's seams, and
# the integer limits.
CLAMP_LIMITS: Final = tuple(sorted({*(n for d in DIALECTS.values() for n in d.seams), *INTEGER_LIMITS}))


def build(mistake: Mistake, n: int, dialect: str, expected: Cards) -> tuple[Cards, int] | None:
    """The board a dealer making `mistake` deals at n, and the deal number same_as names; None: not here."""
    source = mistake.source
    if isinstance(source, NumberMap):
        m = source.to(n)
        if m is None or m == n:
            return None
        return board_of(m, dialect), m
    if isinstance(source, Transform):
        relabel = source.relabel()
        return tuple(relabel[expected[q]] for q in source.source), n
    if source.fixed_layouts_only and n not in DIALECTS[dialect].fixed_layouts:
        return None
    return shuffle(source.generator.random_numbers(n), source.modulus_delta), n
