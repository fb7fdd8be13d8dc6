"""The dialects: which deal numbers exist, and the random numbers each one draws.

A dialect is a list of LCG rules, each covering an interval of deal numbers, plus (for ``xp``)
fixed layouts that are not shuffles at all.  Every rule has the same shape, so the scalar path
(`random_numbers`) and the vectorised path (`reference.bulk`) read the same table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from reference.cards import DECK_SIZE

MULTIPLIER: Final = 214013
INCREMENT: Final = 2531011

CLASSIC_LAST: Final = 2**31 - 1
FCPRO_LAST: Final = 2**33 - 1
XP_LAST: Final = 1_000_000
ORIGINAL_LAST: Final = 32000  # Microsoft's original FreeCell numbered its deals 1 … 32000

# The largest 15-, 16-, 31- and 32-bit integers: where a dealer that keeps the deal number in too
# narrow an integer wraps or clamps it, whatever the dialect.
INTEGER_LIMITS: Final = (2**15 - 1, 2**16 - 1, 2**31 - 1, 2**32 - 1)


@dataclass(frozen=True, slots=True)
class LcgRule:
    """sᵢ = (214013·sᵢ₋₁ + 2531011) & state_mask from s₀ = n − seed_offset;
    rᵢ = (((sᵢ >> 16) & out_mask) | out_or) + out_add, for deal numbers first … last.
    `note` says how rᵢ differs from Microsoft's, for the diagnosis of a dealer that uses this rule
    where another applies."""

    first: int
    last: int
    seed_offset: int
    state_mask: int
    out_mask: int
    out_or: int = 0
    out_add: int = 0
    note: str = ""

    @property
    def bits(self) -> int:
        """How many low bits of the state decide rᵢ (they evolve on their own: an LCG modulo 2^k)."""
        return min(self.state_mask.bit_length(), 16 + self.out_mask.bit_length())

    def random_numbers(self, number: int) -> list[int]:
        state = number - self.seed_offset
        out: list[int] = []
        for _ in range(DECK_SIZE):
            state = (MULTIPLIER * state + INCREMENT) & self.state_mask
            out.append((((state >> 16) & self.out_mask) | self.out_or) + self.out_add)
        return out


_MS_RULE = LcgRule(1, CLASSIC_LAST, 0, 2**31 - 1, 0x7FFF)


@dataclass(frozen=True, slots=True)
class Dialect:
    """A numbering of deals: its rules, its fixed layouts, and its landmarks (deal numbers that end a
    stretch users know, where no rule changes: classic's 32000).  Everything else that knows where
    dealers go wrong derives from these: `seams`, `boundaries`, and `INTEGER_LIMITS`."""

    name: str
    title: str  # what the game is called: "FreeCell Pro"
    rules: tuple[LcgRule, ...]
    # Deal numbers that are fixed layouts: 8 columns, top card first, as card names.
    fixed_layouts: dict[int, tuple[str, ...]] = field(default_factory=dict)
    landmarks: tuple[int, ...] = ()

    @property
    def seams(self) -> tuple[int, ...]:
        """The deal numbers after which this dialect's dealing changes or ends: each rule's last deal,
        and each landmark."""
        return tuple(sorted({*(r.last for r in self.rules), *self.landmarks}))

    def boundaries(self) -> list[int]:
        """The deals of this domain where a dealer goes wrong first: its first and last, and each seam of
        any dialect (a dealer of another dialect diverges there) with the deal after it."""
        every = {n + step for d in DIALECTS.values() for n in d.seams for step in (0, 1)}
        return sorted(n for n in {self.first, self.last, *every} if n in self)

    @property
    def size(self) -> int:
        return sum(hi - lo + 1 for lo, hi in self.intervals())

    @property
    def first(self) -> int:
        return min([*self.fixed_layouts, self.rules[0].first])

    @property
    def last(self) -> int:
        return self.rules[-1].last

    def describe_domain(self) -> str:
        return ", ".join(str(lo) if lo == hi else f"{lo} … {hi}" for lo, hi in self._described())

    def _described(self) -> list[tuple[int, int]]:
        """The fixed layouts one by one, then the rules' deal numbers with adjacent rules joined."""
        fixed = [(n, n) for n in sorted(self.fixed_layouts)]
        return fixed + join_intervals([(r.first, r.last) for r in self.rules])

    def __contains__(self, number: object) -> bool:
        if not isinstance(number, int) or isinstance(number, bool):
            return False
        return number in self.fixed_layouts or self.rule_for(number) is not None

    def rule_for(self, number: int) -> LcgRule | None:
        for rule in self.rules:
            if rule.first <= number <= rule.last:
                return rule
        return None

    def check(self, number: object) -> int:
        """Return `number` if it is a deal number of this dialect; raise naming the domain if not."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise TypeError(
                f"deal number must be an int, not {type(number).__name__} {number!r} "
                f"(the {self.name} domain is {self.describe_domain()})"
            )
        if number not in self:
            raise ValueError(f"deal {number} is outside the {self.name} domain ({self.describe_domain()})")
        return number

    def intervals(self) -> list[tuple[int, int]]:
        """The domain as disjoint inclusive intervals, in order."""
        return join_intervals([(n, n) for n in self.fixed_layouts] + [(r.first, r.last) for r in self.rules])

    def check_range(self, first: object, last: object) -> tuple[int, int]:
        """Return (first, last) if every deal number first … last is in the domain; raise if not."""
        a, b = self.check(first), self.check(last)
        if a > b:
            raise ValueError(f"range {a}-{b} is reversed: the first deal must not exceed the last")
        if not any(lo <= a and b <= hi for lo, hi in self.intervals()):
            raise ValueError(f"range {a}-{b} leaves the {self.name} domain ({self.describe_domain()})")
        return a, b


def join_intervals(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Inclusive intervals as disjoint ones in order, overlapping or adjacent ones joined."""
    out: list[tuple[int, int]] = []
    for first, last in sorted(intervals):
        if out and out[-1][1] + 1 >= first:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


# Windows XP's two fixed layouts (published.json, with sources), as 8 columns top card first.
_XP_MINUS_1 = (
    "AC 3C 5C 7C 9C JC KC", "AD 3D 5D 7D 9D JD KD", "AH 3H 5H 7H 9H JH KH",
    "AS 3S 5S 7S 9S JS KS", "QC TC 8C 6C 4C 2C", "QD TD 8D 6D 4D 2D",
    "QH TH 8H 6H 4H 2H", "QS TS 8S 6S 4S 2S",
)  # fmt: skip
_XP_MINUS_2 = (
    "AS KS QS JS TS 9S 8S", "AH KH QH JH TH 9H 8H", "AD KD QD JD TD 9D 8D",
    "AC KC QC JC TC 9C 8C", "7S 6S 5S 4S 3S 2S", "7H 6H 5H 4H 3H 2H",
    "7D 6D 5D 4D 3D 2D", "7C 6C 5C 4C 3C 2C",
)  # fmt: skip

DIALECTS: Final[dict[str, Dialect]] = {
    "classic": Dialect("classic", "Microsoft FreeCell", (_MS_RULE,), landmarks=(ORIGINAL_LAST,)),
    "fcpro": Dialect(
        "fcpro",
        "FreeCell Pro",
        (
            _MS_RULE,
            LcgRule(2**31, 2**32 - 1, 0, 2**32 - 1, 0x7FFF, out_or=0x8000, note="rᵢ | 0x8000"),
            LcgRule(2**32, FCPRO_LAST, 2**32, 2**32 - 1, 0xFFFF, out_add=1, note="16-bit rᵢ + 1"),
        ),
    ),
    "xp": Dialect(
        "xp",
        "Windows XP FreeCell",
        (LcgRule(1, XP_LAST, 0, 2**31 - 1, 0x7FFF),),
        {-1: _XP_MINUS_1, -2: _XP_MINUS_2},
    ),
}
DEFAULT_DIALECT: Final = "classic"


def get_dialect(name: object) -> Dialect:
    if isinstance(name, Dialect):
        return name
    if not isinstance(name, str) or name not in DIALECTS:
        raise ValueError(f"unknown dialect {name!r}: choose one of {', '.join(DIALECTS)}")
    return DIALECTS[name]


def random_numbers(number: int, dialect: str | Dialect = DEFAULT_DIALECT) -> list[int]:
    """The 52 random numbers r₁ … r₅₂ that shuffle deal `number`."""
    d = get_dialect(dialect)
    rule = d.rule_for(d.check(number))
    if rule is None:
        raise ValueError(f"{d.name} deal {number} is a fixed layout, not a shuffle")
    return rule.random_numbers(number)
