"""Rows of card names, as most Python dealers return them: right boards, but for deal $ODD_AT
(default 40), which each function writes its own way: `py:named_rows:FUNCTION`."""

from __future__ import annotations

import os

import reference


def _names(n: int) -> list[str]:
    return reference.deal(n).format("line").split()


def _odd(n: int) -> bool:
    return n == int(os.environ.get("ODD_AT", "40"))


def _rows(names: list[str]) -> list[list[str]]:
    return [names[i : i + 8] for i in range(0, 52, 8)]


def card_twice(n: int) -> list[list[str]]:
    names = _names(n)
    if _odd(n):
        names[5] = names[3]
    return _rows(names)


def card_twice_in_tuples(n: int) -> tuple[tuple[str, ...], ...]:
    return tuple(map(tuple, card_twice(n)))


def card_twice_in_lines(n: int) -> list[str]:
    """Rows as a program prints them, a line of text each: `[" ".join(row) for row in rows]`."""
    return [" ".join(row) for row in card_twice(n)]


def lower_case(n: int) -> list[list[str]]:
    names = _names(n)
    return _rows([name.lower() for name in names] if _odd(n) else names)


def ten_as_10(n: int) -> list[list[str]]:
    names = _names(n)
    return _rows([name.replace("T", "10") for name in names] if _odd(n) else names)


def columns(n: int) -> list[list[str]]:
    names = _names(n)
    return [names[i::8] for i in range(8)] if _odd(n) else _rows(names)


def card_twice_in_columns(n: int) -> list[list[str]]:
    names = [card for row in card_twice(n) for card in row]
    return [names[i::8] for i in range(8)]


def card_twice_in_52(n: int) -> list[str]:
    return [card for row in card_twice(n) for card in row]


def card_twice_in_text(n: int) -> str:
    return "\n".join(map(" ".join, card_twice(n))) + "\n"


def text_in_lower_case(n: int) -> str:
    return "\n".join(map(" ".join, lower_case(n))) + "\n"


def card_twice_once(n: int) -> list[list[str]]:
    """A card twice at deal $ODD_AT the first time it is dealt ($ONCE_MARK does not exist yet), never again."""
    mark = os.environ["ONCE_MARK"]
    if _odd(n) and not os.path.exists(mark):
        open(mark, "w").close()
        return card_twice(n)
    return _rows(_names(n))
