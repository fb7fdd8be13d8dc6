"""Test dealers that each make one known mistake, written the way such dealers are (pure Python,
independent of the harness): `py:mistaken:MISTAKE`, or as a program
`mistaken.py MISTAKE [N]` (rows of deal N; with no N, deal numbers on stdin, one board each).

MISTAKE is one of the names in MISTAKES; "other-dialect" is the plain classic dealer (an XP dealer
without the fixed layouts shuffles −1 and −2 like any number)."""

from __future__ import annotations

import random
import sys

RANKS, SUITS = "A23456789TJQK", "CDHS"


def _randoms(seed: int, mistake: str) -> list[int]:
    if mistake == "glibc-rand":
        return _glibc(seed)
    out, state = [], seed
    for _ in range(53):
        if mistake == "state-32-bits":
            state = (214013 * state + 2531011) & 0xFFFFFFFF  # an unsigned 32-bit int, and no 0x7fff mask
            out.append(state >> 16)
        elif mistake == "unshifted":
            state = (214013 * state + 2531011) & 0x7FFFFFFF
            out.append(state)  # forgot >> 16
        elif mistake == "fcpro-high-rule":
            state = (214013 * state + 2531011) & 0xFFFFFFFF
            out.append(((state >> 16) & 0x7FFF) | 0x8000)  # FreeCell Pro's rule for 2^31 ... used everywhere
        else:
            state = (214013 * state + 2531011) & 0x7FFFFFFF  # C: (unsigned) seed, state kept to 31 bits
            out.append(state >> 16)
    return out


def _glibc(seed: int) -> list[int]:
    """`srand(seed); rand()` as glibc computes it (random_r.c, TYPE_3)."""
    r = [seed & 0xFFFFFFFF or 1]
    for i in range(1, 31):
        prev = r[i - 1] if r[i - 1] < 2**31 else r[i - 1] - 2**32
        value = (16807 * prev) % 2147483647
        r.append(value)
    r += [r[i - 31] for i in range(31, 34)]
    for i in range(34, 344 + 53):
        r.append((r[i - 31] + r[i - 3]) & 0xFFFFFFFF)
    return [x >> 1 for x in r[344:]]


def dealt_cards(n: int, mistake: str) -> list[str]:
    """The cards in dealing order that a dealer making `mistake` deals at deal n."""
    seed = n
    if mistake == "wraps":
        seed = n & 0x7FFFFFFF  # a 32-bit signed int holding the number
    elif mistake == "wraps-16":
        seed = n & 0xFFFF  # an unsigned short
    elif mistake == "truncated-16-bit":
        seed = (n + 32768) % 65536 - 32768  # a short
    elif mistake == "clamped":
        seed = min(n, 32000)
    elif mistake == "off-by-one":
        seed = n + 1
    elif mistake == "other-deal":
        seed = n + 1000  # "game numbers start at 1000"
    elif mistake == "xp-range" and n > 1_000_000:
        raise ValueError(f"deal {n}: XP deals go up to 1000000")
    elif mistake == "non-deterministic" and n > 32000:
        seed = random.randrange(1, 2**31)  # "a random game" beyond Microsoft's 32000
    suits = "SHDC" if mistake in ("suit-order", "suit-order-reversed") else SUITS  # the order of ♠♥♦♣ in Unicode
    by_rank = [r + s for r in RANKS for s in suits]
    deck = [r + s for s in suits for r in RANKS] if mistake == "suit-major" else by_rank  # suit-major: AC 2C … KC AD …
    randoms = _randoms(seed, mistake)
    if mistake == "skips-first":
        randoms = randoms[1:]
    dealt = []
    for left in range(52, 0, -1):
        r = randoms[52 - left]
        modulus = left - 1 if mistake == "modulus" else left  # the mistake: one less
        k = r % modulus if modulus else 0
        dealt.append(deck[k])
        deck[k] = deck[left - 1]
        deck.pop()
    if mistake == "swapped-cards" and n % 2 == 1:
        dealt[10], dealt[11] = dealt[11], dealt[10]
    return dealt


def rows_of(n: int, mistake: str) -> list[list[str]]:
    dealt = dealt_cards(n, mistake)
    if mistake in ("reversed", "suit-order-reversed"):
        dealt.reverse()  # cards popped from a stack
    if mistake == "transposed":
        columns: list[list[str]] = [[] for _ in range(8)]
        sizes = [7, 7, 7, 7, 6, 6, 6, 6]
        it = iter(dealt)
        for c, size in enumerate(sizes):  # dealt down each column in turn, instead of across the rows
            columns[c] = [next(it) for _ in range(size)]
        return [[columns[c][r] for c in range(8) if r < len(columns[c])] for r in range(7)]
    return [dealt[i : i + 8] for i in range(0, 52, 8)]


MISTAKES = (
    "wraps",
    "wraps-16",
    "truncated-16-bit",
    "clamped",
    "off-by-one",
    "other-dialect",
    "suit-order",
    "suit-major",
    "suit-order-reversed",
    "transposed",
    "reversed",
    "state-32-bits",
    "unshifted",
    "glibc-rand",
    "skips-first",
    "fcpro-high-rule",
    "modulus",
    "other-deal",
    "swapped-cards",
    "non-deterministic",
    "xp-range",
)


def _function(mistake: str):  # type: ignore[no-untyped-def]
    return lambda n: rows_of(n, mistake)


for _name in MISTAKES:
    globals()[_name.replace("-", "_")] = _function(_name)


def show(n: int, mistake: str) -> str:
    return f"Game #{n}\n" + "".join(" ".join(row) + "\n" for row in rows_of(n, mistake))


if __name__ == "__main__":
    mistake = sys.argv[1]
    if len(sys.argv) > 2:
        sys.stdout.write(show(int(sys.argv[2]), mistake))
    else:
        for line in sys.stdin:
            sys.stdout.write(show(int(line), mistake))
            sys.stdout.flush()
