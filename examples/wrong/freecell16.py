"""A deliberately wrong dealer, for the example matrix: it keeps the deal number in a signed 16-bit
integer, as a port from a 16-bit game might, so deals 1 … 32767 are right and every later one is
another deal's board.  `py:freecell16:deal` run from this directory."""

RANKS, SUITS = "A23456789TJQK", "CDHS"


def deal(n: int) -> list[str]:
    """Deal n (as a signed 16-bit number) as 52 card names in dealing order."""
    n = (n + 2**15) % 2**16 - 2**15  # the 16-bit register
    deck = [RANKS[i // 4] + SUITS[i % 4] for i in range(52)]
    state, dealt = n % 2**31, []
    for left in range(52, 0, -1):
        state = (214013 * state + 2531011) % 2**31
        k = (state >> 16) % left
        deck[k], deck[left - 1] = deck[left - 1], deck[k]
        dealt.append(deck.pop())
    return dealt
