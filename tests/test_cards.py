"""Lenient board reading: tables of layouts, notations and garbage, with `reference` as the oracle."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

import reference
from harness.cards import BoardError, board_from_value, read_board
from harness.framing import BoardFramer

DEAL = reference.deal(617)
SYMBOLS = str.maketrans("CDHS", "♣♦♥♠")
WHITE = str.maketrans("CDHS", "♧♢♡♤")
UNICODE = {"S": 0x1F0A0, "H": 0x1F0B0, "D": 0x1F0C0, "C": 0x1F0D0}
UNICODE_RANK = {"A": 1, "T": 10, "J": 11, "Q": 13, "K": 14} | {str(v): v for v in range(2, 10)}


def value_first(name: str, width: int = 2) -> str:
    """A card as some C and Java games print it: its value 1 … 13, then its suit in lower case ('11d', ' 1s')."""
    return f"{'A23456789TJQK'.index(name[0]) + 1:>{width}}{name[1].lower()}"


def unicode_card(name: str) -> str:
    return chr(UNICODE[name[1]] + UNICODE_RANK[name[0]])


def each_card(fmt: str, card: Callable[[str], str], sep: str = " ") -> str:
    groups = DEAL.rows if fmt == "rows" else DEAL.columns if fmt == "columns" else (DEAL.names,)
    return "".join(sep.join(card(c) for c in g) + "\n" for g in groups)


LAYOUTS = {
    "rows": DEAL.format("rows"),
    "columns": DEAL.format("columns"),
    "line": DEAL.format("line"),
    "json rows": DEAL.format("json"),
    "json columns": json.dumps([list(c) for c in DEAL.columns]),
    "pretty json": json.dumps([list(r) for r in DEAL.rows], indent=2),
    "json 52": json.dumps(list(DEAL.names)),
    "ten as 10": DEAL.format("rows").replace("T", "10"),
    "lower case, t": DEAL.format("columns").lower(),
    "suit first": each_card("rows", lambda c: c[1] + c[0]),
    "suit first, 10": each_card("columns", lambda c: c[1] + c[0].replace("T", "10")),
    "symbols": DEAL.format("rows").translate(SYMBOLS),
    "white symbols": DEAL.format("columns").translate(WHITE),
    "symbols first": each_card("rows", lambda c: c[1].translate(SYMBOLS) + c[0]),
    "values 1-13 first, padded": each_card("rows", value_first),
    "values 1-13 first, unpadded": each_card("columns", lambda c: value_first(c, 1)),
    "unicode cards": each_card("rows", unicode_card),
    "unicode cards, no spaces": each_card("columns", unicode_card, ""),
    "header Game #617": "Game #617\n" + DEAL.format("rows"),
    "header Hand 1 and blank lines": "Hand 1\n\n" + DEAL.format("columns") + "\n",
    "header Deck 1:": "Deck 1:\n" + DEAL.format("line"),
    "header with a card-like word": "Game 617 as dealt\n" + DEAL.format("rows"),
    "prefix ': '": "".join(": " + c + "\n" for c in DEAL.format("columns").splitlines()),
    "a prompt, 'Deal #? ', before the first row": "Deal #? " + DEAL.format("rows"),
    "prefix 'Row 1:'": "".join(f"Row {i}: {r}\n" for i, r in enumerate(DEAL.format("rows").splitlines(), 1)),
    "brackets, quotes, commas": "".join(f"[{', '.join(repr(c) for c in r)}],\n" for r in DEAL.rows),
    "ansi colours": each_card("rows", lambda c: f"\x1b[{31 if c[1] in 'DH' else 30}m{c}\x1b[0m"),
    "crlf": DEAL.format("rows").replace("\n", "\r\n"),
    "tabs": DEAL.format("columns").replace(" ", "\t"),
}


@pytest.mark.parametrize("text", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_read_board_reads_every_layout_and_notation(text: str) -> None:
    assert read_board(text) == DEAL.cards


ROWS = DEAL.format("rows").splitlines()
GARBAGE = {
    "empty": ("", "found 0 cards"),
    "a repeated card": (DEAL.format("rows").replace(DEAL.names[5], DEAL.names[6]), f"repeated: {DEAL.names[6]}"),
    "51 cards": ("\n".join(ROWS)[:-3], f"missing: {DEAL.names[51]}"),
    "51 cards, which line": ("\n".join(ROWS)[:-3], "line 7 holds 3 cards where rows need 4"),
    "53 cards": (DEAL.format("rows") + "AC\n", "found 53 cards"),
    "rows run together": ("\n".join([ROWS[0] + " " + ROWS[1], *ROWS[2:]]), "line 1 holds 16 cards"),
    "an unknown word among cards": (DEAL.format("rows").replace(DEAL.names[9], "XX"), "line 2 is odd (not cards: XX)"),
    "0C is no card": (DEAL.format("rows").replace(DEAL.names[0], "0C"), "line 1 is odd"),  # 1C is the ace: values 1-13
    "14C is no card": (DEAL.format("rows").replace(DEAL.names[0], "14C"), "line 1 is odd"),
    "replacement character": (DEAL.format("rows").replace(DEAL.names[3], "\ufffd"), "bytes that are not text"),
    "shape of 52, not rows or columns": (
        "\n".join(" ".join(DEAL.names[i : i + 13]) for i in range(0, 52, 13)),
        "lines hold 13 13 13 13",
    ),
}


@pytest.mark.parametrize(("text", "says"), GARBAGE.values(), ids=GARBAGE.keys())
def test_read_board_says_why_garbage_is_no_board(text: str, says: str) -> None:
    with pytest.raises(BoardError) as caught:
        read_board(text)
    assert says in str(caught.value)


VALUES = {
    "rows": [list(r) for r in DEAL.rows],
    "columns": [list(c) for c in DEAL.columns],
    "52 cards": list(DEAL.names),
    "tuple of tuples": DEAL.rows,
    "text": DEAL.format("columns"),
}


@pytest.mark.parametrize("value", VALUES.values(), ids=VALUES.keys())
def test_board_from_value(value: object) -> None:
    assert board_from_value(value) == DEAL.cards


@pytest.mark.parametrize(
    "value", [None, 52, [[1, 2]], list(DEAL.names[:51]), [list(DEAL.names[:26]), list(DEAL.names[26:])]]
)
def test_board_from_value_refuses_what_is_no_board(value: object) -> None:
    with pytest.raises(BoardError):
        board_from_value(value)


NUMBERS = range(30990, 31200)  # more than FAST_MIN_BOARDS: the fast path takes part
STREAMS: dict[str, Callable[[int], str]] = {
    "rows with a header": lambda n: f"Game #{n}\n" + reference.deal(n).format("rows"),
    "columns": lambda n: reference.deal(n).format("columns"),
    "a prompt before each board": lambda n: "Deal #? " + reference.deal(n).format("rows"),
    "canonical lines": lambda n: reference.deal(n).line,
    "rows, blank line between": lambda n: reference.deal(n).format("rows") + "\n",
    "json rows": lambda n: reference.deal(n).format("json"),
    "suit symbols": lambda n: reference.deal(n).format("rows").translate(SYMBOLS),
    "suit symbols, no spaces": lambda n: reference.deal(n).format("columns").translate(SYMBOLS).replace(" ", ""),
    "symbols first, 10": lambda n: "".join(
        " ".join(c[1].translate(WHITE) + c[0].replace("T", "10") for c in r) + "\n" for r in reference.deal(n).rows
    ),
    "ten as 10, with a header": lambda n: (
        f"Game #{n} (10 moves)\n" + reference.deal(n).format("rows").replace("T", "10")
    ),
    "ansi colours": lambda n: "".join(
        " ".join(f"\x1b[{31 if c[1] in 'DH' else 30}m{c}\x1b[0m" for c in r) + "\n" for r in reference.deal(n).rows
    ),
    "values 1-13 first, padded": lambda n: "".join(
        " ".join(value_first(c) for c in r) + "\n" for r in reference.deal(n).rows
    ),
    "quotes and commas": lambda n: "".join(", ".join(f"'{c}'" for c in r) + "\n" for r in reference.deal(n).rows),
    "suit first, lower case": lambda n: "".join(
        " ".join(c[1] + c[0] for c in r).lower() + "\n" for r in reference.deal(n).columns
    ),
}


@pytest.mark.parametrize("chunk", [1, 7, 1000, 1 << 20])
@pytest.mark.parametrize("show", STREAMS.values(), ids=STREAMS.keys())
def test_framer_splits_a_stream_into_boards_however_it_is_chunked(show: Callable[[int], str], chunk: int) -> None:
    data = "".join(show(n) for n in NUMBERS).encode()
    framer = BoardFramer()
    boards = [b for i in range(0, len(data), chunk) for b in framer.feed(data[i : i + chunk])]
    assert framer.finish() is None
    assert b"".join(b for b in boards if isinstance(b, bytes)) == reference.canonical_lines(NUMBERS)


def _stream_with(bad: int, spoil: Callable[[str], str], fmt: str = "rows", many: int = 300) -> list[bytes | BoardError]:
    """Boards of deals 1 … many with deal `bad` spoiled, read 64 KiB at a time (fast path included)."""
    text = "".join(
        f"Game #{n}\n" + (spoil if n == bad else str)(reference.deal(n).format(fmt)) for n in range(1, many + 1)
    )
    data = text.encode()
    framer = BoardFramer()
    boards = [b for i in range(0, len(data), 1 << 16) for b in framer.feed(data[i : i + (1 << 16)])]
    end = framer.finish()
    return boards + ([end] if end else [])


SPOILED = {
    "a repeated card": (lambda t: t.replace(t[:2], t[3:5], 1), "rows", "repeated"),
    "51 cards in rows": (
        lambda t: t[:-4] + "\n",
        "rows",
        "line 8 holds 3 cards where rows need 4",
    ),  # line 1 is the header
    "51 cards in columns": (lambda t: t[:-4] + "\n", "columns", "line 9 holds 5 cards where columns need 6"),
    "a word among the cards": (lambda t: "XX" + t[2:], "rows", "line 2 is odd"),
}


@pytest.mark.parametrize(("spoil", "fmt", "says"), SPOILED.values(), ids=SPOILED.keys())
@pytest.mark.parametrize("bad", [1, 250])
def test_framer_reports_a_bad_board_at_its_place_and_keeps_in_step(
    spoil: Callable[[str], str], fmt: str, says: str, bad: int
) -> None:
    boards = _stream_with(bad, spoil, fmt)
    errors = [i + 1 for i, b in enumerate(boards) if isinstance(b, BoardError)]
    assert errors[0] == bad and says in str(boards[bad - 1])
    good = [b for b in boards[bad:] if isinstance(b, bytes)]
    assert b"".join(good[-10:]) == reference.canonical_lines(range(291, 301))


def test_framer_caps_runaway_output() -> None:
    framer = BoardFramer(max_board_chars=1000)
    boards = framer.feed(b"AC " * 400 + b"\n")
    assert boards and isinstance(boards[0], BoardError)


def test_framer_replaces_bytes_that_are_not_text() -> None:
    data = (
        reference.deal(5)
        .format("rows")
        .replace(reference.deal(5).names[2], "\udcff\udcfe")
        .encode("utf-8", "surrogateescape")
    )
    framer = BoardFramer("utf-8")
    boards = [b for b in (*framer.feed(data), framer.finish()) if b is not None]
    assert len(boards) == 1 and "bytes that are not text" in str(boards[0])


def test_framer_reads_other_encodings() -> None:
    data = ("Spiel\n" + reference.deal(9).format("rows").translate(SYMBOLS)).encode("utf-16-le")
    framer = BoardFramer("utf-16-le")
    assert framer.feed(data) == [reference.deal(9).line.encode()]


# What real programs print around a board that is not a card: row labels, column index lines,
# empty cells.  Each is read by `read_board` (cmd:) and by the framer (stream:) alike.
def _r_matrix(groups: tuple[tuple[str, ...], ...], n: int, quote: bool = True, empty: str = '""') -> str:
    """R's print() of a character matrix, one group a row, short rows padded with `empty`."""
    width = max(len(g) for g in groups)
    cell = (lambda c: f'"{c}"') if quote else (lambda c: c)
    rows = [[cell(c) for c in g] + [empty] * (width - len(g)) for g in groups]
    return (
        f'[1] "Hand {n}"\n'
        + "     "
        + " ".join(f"[,{j}]" for j in range(1, width + 1))
        + "\n"
        + "".join(f"[{i},] " + " ".join(c.ljust(4) for c in r).rstrip() + "\n" for i, r in enumerate(rows, 1))
    )


def _r_vector(names: tuple[str, ...]) -> str:
    """R's print() of a character vector of 52 at the default width: 15 a line, each led by its index."""
    return "".join(
        f"[{i + 1}]".rjust(4) + " " + " ".join(f'"{c}"' for c in names[i : i + 15]) + "\n" for i in range(0, 52, 15)
    )


def _pandas(groups: tuple[tuple[str, ...], ...]) -> str:
    """pandas' print() of a DataFrame, one group a row, short rows padded with None."""
    width = max(len(g) for g in groups)
    rows = [list(g) + ["None"] * (width - len(g)) for g in groups]
    return (
        "  "
        + "".join(str(j).rjust(6) for j in range(width))
        + "\n"
        + "".join(f"{i} " + "".join(c.rjust(6) for c in r) + "\n" for i, r in enumerate(rows))
    )


def _symbols(text: str) -> str:
    return text.translate(SYMBOLS)


# name: (the plain layout of the same shape, how it prints deal n)
LABELLED: dict[str, tuple[str, Callable[[int], str]]] = {
    "R matrix, quoted": ("rows", lambda n: _r_matrix(reference.deal(n).rows, n)),
    "R matrix, NA cells": ("rows", lambda n: _r_matrix(reference.deal(n).rows, n, empty="NA")),
    "R matrix, quote=FALSE, <NA> cells": (
        "rows",
        lambda n: _r_matrix(reference.deal(n).rows, n, quote=False, empty="<NA>"),
    ),
    "R matrix of columns": ("columns", lambda n: _r_matrix(reference.deal(n).columns, n)),
    "R vector of 52, wrapped": ("", lambda n: _r_vector(reference.deal(n).names)),  # no plain layout of that shape
    "row numbers '1: '": (
        "rows",
        lambda n: "".join(f"{i}: {' '.join(r)}\n" for i, r in enumerate(reference.deal(n).rows, 1)),
    ),
    "row numbers '1 '": (
        "rows",
        lambda n: "".join(f"{i} {' '.join(r)}\n" for i, r in enumerate(reference.deal(n).rows, 1)),
    ),
    "column numbers '1 ', ten as 10": (
        "columns",
        lambda n: "".join(
            f"{i} {' '.join(c).replace('T', '10')}\n" for i, c in enumerate(reference.deal(n).columns, 1)
        ),
    ),
    "pandas DataFrame, rows from 0": ("rows", lambda n: _pandas(reference.deal(n).rows)),
    "symbols run together": ("rows", lambda n: "".join(_symbols("".join(r)) + "\n" for r in reference.deal(n).rows)),
    "symbols run together, 10": (
        "columns",
        lambda n: "".join(_symbols("".join(c).replace("T", "10")) + "\n" for c in reference.deal(n).columns),
    ),
}


@pytest.mark.parametrize(("layout", "show"), LABELLED.values(), ids=LABELLED.keys())
def test_read_board_reads_labels_and_empty_cells_around_cards(layout: str, show: Callable[[int], str]) -> None:
    assert read_board(show(617)) == reference.deal(617).cards


@pytest.mark.parametrize("chunk", [7, 1 << 16])
@pytest.mark.parametrize(("layout", "show"), LABELLED.values(), ids=LABELLED.keys())
def test_framer_reads_labels_and_empty_cells_after_the_fast_path_has_started(
    layout: str, show: Callable[[int], str], chunk: int
) -> None:
    """100 plain boards of the same layout first, so that the fast path is running when the
    labelled boards come."""
    data = "".join(reference.deal(n).format(layout) for n in range(1, 101) if layout).encode()
    data += "".join(show(n) for n in range(101, 201)).encode()
    framer = BoardFramer()
    boards = [b for i in range(0, len(data), chunk) for b in framer.feed(data[i : i + chunk])]
    assert framer.finish() is None
    assert boards == [reference.deal(n).line.encode() for n in range(1 if layout else 101, 201)]


def _numbered(labels: list[str]) -> str:
    return "".join(f"{label}{' '.join(r)}\n" for label, r in zip(labels, DEAL.rows, strict=True))


MISNUMBERED = {
    "a number on one row only": (_numbered(["", "", "3 ", "", "", "", ""]), "line 3 is odd (not cards: 3)"),
    "row numbers out of sequence": (_numbered(["1 ", "2 ", "4 ", "5 ", "6 ", "7 ", "8 "]), "line 1 is odd"),
    "row numbers from 2": (_numbered([f"{i} " for i in range(2, 9)]), "line 1 is odd (not cards: 2)"),
    "an R vector whose indexes do not add up": (
        _r_vector(DEAL.names).replace("[16]", "[17]"),
        "lines hold 15 15 15 7",
    ),
}


@pytest.mark.parametrize(("text", "says"), MISNUMBERED.values(), ids=MISNUMBERED.keys())
def test_numbers_that_are_not_row_labels_are_odd_to_both_readers(text: str, says: str) -> None:
    with pytest.raises(BoardError) as caught:
        read_board(text)
    assert says in str(caught.value)
    data = (DEAL.format("rows") * 100 + text).encode()  # the fast path is running when it comes
    framer = BoardFramer()
    boards = [*framer.feed(data), framer.finish()]
    assert boards[:100] == [DEAL.line.encode()] * 100
    assert [str(b) for b in boards[100:] if b is not None] == [str(caught.value)]


def _spelt(n: int, card: Callable[[str], str], sep: str = " ") -> str:
    return "".join(sep.join(card(c) for c in r) + "\n" for r in reference.deal(n).rows)


# Spellings the normaliser rewrites for the fast path, and near misses it must leave to the
# precise path's verdict: each stream is 200 boards, the fast path running after the first.
NORMALISED = {
    "symbols": lambda n: _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS)),
    "symbols glued": lambda n: _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS), ""),
    "white symbols first, 10": lambda n: _spelt(n, lambda c: c[1].translate(WHITE) + c[0].replace("T", "10")),
    "lower suit first, 10": lambda n: _spelt(n, lambda c: (c[1] + c[0].replace("T", "10")).lower()),
    "ansi around symbols": lambda n: _spelt(n, lambda c: f"\x1b[1;31m{c[0]}{c[1].translate(SYMBOLS)}\x1b[0m"),
    "a letter glued before a symbol card": lambda n: _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS)).replace(
        " ", " x", 1 if n == 150 else 0
    ),
    "a rank after a symbol card": lambda n: _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS)).replace(
        " ", "J ", 1 if n == 150 else 0
    ),
    "an underscore before suit-first": lambda n: _spelt(n, lambda c: ("_" if n == 150 else "") + c[1] + c[0]),
    "an underscore before plain cards": lambda n: _spelt(n, lambda c: ("_" if n == 150 else "") + c),
    "10 glued to a word": lambda n: _spelt(n, lambda c: c.replace("T", "10")).replace(
        "D ", "Dx ", 1 if n == 150 else 0
    ),
    "a header with 10 and a card-like word": lambda n: (
        f"Deal {n}: 10 moves, D10 bonus\n" + _spelt(n, lambda c: c[1] + c[0])
    ),
    "quoted rows in brackets": lambda n: "".join(f"{[c for c in r]}\n" for r in reference.deal(n).rows),
    "quoted columns in brackets": lambda n: "".join(f"{list(c)},\n" for c in reference.deal(n).columns),
    "columns as one JSON line (groups by brackets)": lambda n: (
        json.dumps([list(c) for c in reference.deal(n).columns]) + "\n"
    ),
    "a bracket pair over two rows": lambda n: (
        _spelt(n, str).replace("\n", "]\n", 1 if n == 150 else 0).replace("", "[", 1 if n == 150 else 0)
    ),
    "a card before the bracket": lambda n: "".join(
        (f"{r[0]} {list(r[1:])}\n" if n == 150 else f"{list(r)}\n") for r in reference.deal(n).rows
    ),
    "JSON rows, one line each": lambda n: reference.deal(n).format("json"),
    "JSON with an escaped suit": lambda n: (
        reference.deal(n).format("json").replace('D"', '\\u2666"', 1 if n == 150 else 0)
    ),
    "JSON objects keyed by cards": lambda n: (
        reference.deal(n)
        .format("json")
        .replace('["', '[{"', 1 if n == 150 else 0)
        .replace('",', '": 1,', 1 if n == 150 else 0)
        .replace("]", "}]", 1 if n == 150 else 0)
    ),
    "ANSI colour by suit": lambda n: _spelt(n, lambda c: f"\x1b[{31 if c[1] in 'DH' else 30}m{c}\x1b[0m"),
    "ANSI around suit-first and 10": lambda n: _spelt(
        n, lambda c: f"\x1b[{31 if c[1] in 'DH' else 30}m{c[1]}{c[0].replace('T', '10')}\x1b[0m"
    ),
    "ANSI, suit-first from board 150": lambda n: _spelt(
        n, lambda c: f"\x1b[31m{c[1] + c[0] if n >= 150 else c}\x1b[0m"
    ),
    "ANSI, a new colour later": lambda n: _spelt(n, lambda c: f"\x1b[{33 if n > 150 else 31}m{c}\x1b[0m"),
    "ANSI, an escape cut short that removing another would complete": lambda n: _spelt(
        n, lambda c: f"\x1b[31m{c}\x1b[0m"
    ).replace("\x1b[31m", "\x1b[3\x1b[0m1m", 1 if n == 150 else 0),
    "ANSI with an intermediate byte": lambda n: _spelt(n, lambda c: f"\x1b[31m{c}\x1b[0m").replace(
        "\x1b[0m", "\x1b[0 q", 1 if n == 150 else 0
    ),
    "JSON columns, one line each": lambda n: json.dumps([list(c) for c in reference.deal(n).columns]) + "\n",
    "JSON 52 names, one line each": lambda n: json.dumps(list(reference.deal(n).names)) + "\n",
    "JSON, a duplicate card": lambda n: (
        reference.deal(n).format("json").replace(f'"{reference.deal(n).names[1]}"', f'"{reference.deal(n).names[0]}"')
        if n == 150
        else reference.deal(n).format("json")
    ),
    "JSON, a line cut short": lambda n: (
        reference.deal(n).format("json")[: 40 if n == 150 else None] + ("\n" if n == 150 else "")
    ),
    "JSON, a number among the names": lambda n: (
        reference.deal(n).format("json").replace('"AS"', "7" if n == 150 else '"AS"')
    ),
    "JSON, lower-case names": lambda n: (
        reference.deal(n).format("json").lower() if n > 100 else reference.deal(n).format("json")
    ),
    "R's indexes": lambda n: "".join(
        f"[{1 + 8 * i}] " + " ".join(r) + "\n" for i, r in enumerate(reference.deal(n).rows)
    ),
    "other non-ASCII text": lambda n: f"Donne {n} — é\n" + _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS)),
    # Boards alike but for their cards (read by a template learnt from the first): what changes in
    # a card's place, or anywhere else, at board 150.
    "symbols, a 1 in a ten's place": lambda n: _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS)).replace(
        "T", "1", 1 if n == 150 else 0
    ),
    "symbols, a music sign in a suit's place": lambda n: _at_150(
        n, _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS)), 1, "♪"
    ),
    "symbols, lower-case ranks": lambda n: (
        _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS)).lower()
        if n == 150
        else _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS))
    ),
    "symbols, a card-like word in a header": lambda n: (
        "Deal J♦\n" + _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS))
    ),
    "symbols, a header whose symbol becomes a card": lambda n: (
        f"Deal {'7' if n == 150 else 'x'}♦\n" + _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS))
    ),
    "symbols, a title before the first board only": lambda n: (
        ("Deals\n" if n == 1 else "") + _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS))
    ),
    "suit-first, a rank in a suit's place": lambda n: _at_150(n, _spelt(n, lambda c: c[1] + c[0]), 0, "J"),
    "suit-first, a ten": lambda n: _spelt(n, lambda c: c[1] + c[0]).replace(" ", " D10 ", 1 if n == 150 else 0),
    "ANSI, a letter among a code's parameters": lambda n: _spelt(
        n, lambda c: f"\x1b[{31 if c[1] in 'DH' else 30}m{c}\x1b[0m"
    ).replace("[0m", "[xm", 1 if n == 150 else 0),
    "ANSI, a ; among a code's parameters": lambda n: _spelt(
        n, lambda c: f"\x1b[{31 if c[1] in 'DH' else 30}m{c}\x1b[0m"
    ).replace("[31m", "[;1m", 1 if n == 150 else 0),
    "ANSI, a code inside a card": lambda n: _spelt(
        n, (lambda c: f"{c[0]}\x1b[31m{c[1]}\x1b[0m") if n == 150 else (lambda c: f"\x1b[31m{c}\x1b[0m")
    ),
    "quoted rows, a duplicate card": lambda n: "".join(f"{[c for c in r]}\n" for r in reference.deal(n).rows).replace(
        reference.deal(n).names[0], reference.deal(n).names[1], 1 if n == 150 else 0
    ),
    "JSON with an escaped quote": lambda n: (
        reference.deal(n).format("json").replace('D"', '\\"D"', 1 if n == 150 else 0)
    ),
    "JSON, a rank's place holding a quote": lambda n: _at_150(n, reference.deal(n).format("json"), 3, '"'),
    "JSON, a suit's place holding a backslash": lambda n: _at_150(n, reference.deal(n).format("json"), 4, "\\"),
    "JSON, spaced as Python prints it": lambda n: json.dumps([list(r) for r in reference.deal(n).rows]) + "\n",
    "symbols with a header Game #N": lambda n: f"Game #{n}:\n" + _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS)),
    "ANSI with a header, a number glued to the next word at 150": lambda n: (
        f"Deal {n}{'x' if n == 150 else ' '}\n" + _spelt(n, lambda c: f"\x1b[31m{c}\x1b[0m")
    ),
    "symbols, rows and then one line": lambda n: (
        " ".join(c[0] + c[1].translate(SYMBOLS) for c in reference.deal(n).names) + "\n"
        if n > 100
        else _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS))
    ),
    "symbols, the last board cut short": lambda n: _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS))[
        : 100 if n == 200 else None
    ],
}


def _at_150(n: int, text: str, i: int, char: str) -> str:
    """The board's text, with character `i` replaced by `char` in board 150."""
    return text[:i] + char + text[i + 1 :] if n == 150 else text


@pytest.mark.parametrize("chunk", [997, 1 << 16])
@pytest.mark.parametrize("show", NORMALISED.values(), ids=NORMALISED.keys())
def test_the_fast_path_reads_every_spelling_as_the_precise_path_does(show: Callable[[int], str], chunk: int) -> None:
    texts = [show(n) for n in range(1, 201)]
    expected: list[bytes | str] = []
    for text in texts:
        try:
            expected.append(reference.cards.canonical_line(read_board(text)))
        except BoardError:
            expected.append("error")
    data = "".join(texts).encode()
    framer = BoardFramer()
    boards = [b for i in range(0, len(data), chunk) for b in framer.feed(data[i : i + chunk])]
    end = framer.finish()
    got = [b if isinstance(b, bytes) else "error" for b in [*boards, *([end] if end else [])]]
    assert got[: len(expected)] == expected


def test_the_framer_holds_back_only_what_may_be_the_start_of_a_board() -> None:
    symbols = "".join(_spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS)) for n in range(1, 101))
    data = (symbols + reference.deal(101).line).encode()  # the last board shorter than the others
    framer = BoardFramer()
    assert b"".join(b for b in framer.feed(data) if isinstance(b, bytes)) == reference.canonical_lines(range(1, 102))


# Boards whose framing is in question (a line that may hold a card), where what the precise path
# makes of a board depends on the boards before it: the fast path must frame the stream as the
# precise path alone does, reading one byte at a time.
FRAMED_ALIKE = {
    "a header whose number a colour code glues to a suit letter": lambda n: (
        f"{10 + n % 7}\x1b[0mD\n" + _spelt(n, lambda c: c[0] + c[1].translate(SYMBOLS))
    ),
    "a header whose number runs into a symbol": lambda n: (
        f"{10 + n % 7}♦\n" + _spelt(n, lambda c: f"\x1b[31m{c}\x1b[0m")
    ),
}


@pytest.mark.parametrize("show", FRAMED_ALIKE.values(), ids=FRAMED_ALIKE.keys())
def test_the_fast_path_frames_a_stream_as_the_precise_path_alone_does(show: Callable[[int], str]) -> None:
    data = "".join(show(n) for n in range(1, 201)).encode()
    precise, fast = BoardFramer(), BoardFramer()
    by_byte = [b for i in range(len(data)) for b in precise.feed(data[i : i + 1])]
    by_chunk = [b for i in range(0, len(data), 1 << 16) for b in fast.feed(data[i : i + (1 << 16)])]
    assert [str(b) for b in [*by_chunk, fast.finish()]] == [str(b) for b in [*by_byte, precise.finish()]]
