"""A dealer that puts terminal control sequences and bytes XML forbids wherever the harness
quotes it: `py:control_characters:raises` raises with them, `py:control_characters:returns`
returns them among the cards of a board; run as a program (`cmd:`/`stream:`) it prints the board of deal 1
with them, then writes them to stderr and exits 3."""

from __future__ import annotations

import sys

import reference

# Set the window title, clear the screen, ring the bell, CSI in one byte, NUL, backspace, form
# feed, CR, a lone surrogate and a non-character.
NASTY = "\x1b]0;owned\x07\x1b[2J\x1b[H\x9b31m\x00\x08\x0c\r\ud800\uffff"


def raises(n: int) -> str:
    raise RuntimeError(f"deal {n} {NASTY}")


def returns(n: int) -> str:
    first, rest = reference.deal(n).format("rows").split("\n", 1)
    return f"{first} {NASTY} XX\n{rest}"


if __name__ == "__main__":
    sys.stdout.write(reference.deal(1).format("rows"))
    sys.stdout.flush()
    sys.stderr.buffer.write(NASTY.encode("utf-8", "surrogatepass"))
    sys.exit(3)
