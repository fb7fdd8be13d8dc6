"""A test dealer program, pure Python: `planted_program.py PLANTED [N]` prints the rows of deal N,
or, with no N, reads deal numbers on stdin and prints a `Game #N` header and the rows of each.
At deal PLANTED two cards are swapped."""

import sys


def rows(n: int, planted: int) -> list[list[str]]:
    deck = [r + s for r in "A23456789TJQK" for s in "CDHS"]
    dealt, state = [], n
    for left in range(52, 0, -1):
        state = (214013 * state + 2531011) & 0x7FFFFFFF
        k = (state >> 16) % left
        dealt.append(deck[k])
        deck[k] = deck[left - 1]
        deck.pop()
    if n == planted:
        dealt[10], dealt[11] = dealt[11], dealt[10]
    return [dealt[i : i + 8] for i in range(0, 52, 8)]


def show(n: int, planted: int) -> str:
    return f"Game #{n}\n" + "".join(" ".join(r) + "\n" for r in rows(n, planted))


if __name__ == "__main__":
    planted = int(sys.argv[1])
    if len(sys.argv) > 2:
        sys.stdout.write(show(int(sys.argv[2]), planted))
    else:
        for line in sys.stdin:
            sys.stdout.write(show(int(line), planted))
            sys.stdout.flush()
