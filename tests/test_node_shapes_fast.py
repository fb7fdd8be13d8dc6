"""The `node:` reader (harness/node/answers.js) reads a board laid out as the boards before it taught
(a reader made for that layout: where the list is, its shape and groups, the kind of card, each
card straight to its code through tables learnt from those boards) exactly as a reader made afresh
for that board alone reads it, card by card from the board's own readings: the same line, or the
same failure with the same message; and it reads board text printed as rows exactly as its general
text reader does.

The runs (tests/js/readers/runs.js) are the boards one dealer returns, in order: every shape the
shape dealers return over many deals, then boards made to trip the fast way (a numbering changed
midway, a field missing or added, shapes mixed, repeated and extra cards, getters whose value
changes, iterables of 51 and 53 cards, a game state's holders and free cells, piles, name fields,
values of another type than learnt, texts near rows as printed).  tests/js/readers/compare.js
reads each board both ways; every bug planted below in a copy of the reader is found."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
ANSWERS = HERE.parent / "harness" / "node" / "answers.js"
READERS = HERE / "js" / "readers"

RUNS = (
    "shape dealers: rows of letters",
    "shape dealers: columns of 1-based numbers and words",
    "shape dealers: 52 of 0-based numbers",
    "shape dealers: ace high values",
    "shape dealers: digit texts",
    "shape dealers: face values beside letters",
    "shape dealers: 10 and symbols",
    "shape dealers: card class game state",
    "shape dealers: game class with getters",
    "shape dealers: generator",
    "shape dealers: name fields",
    "shape dealers: piles of rank words",
    "shape dealers: a set of 52",
    "shape dealers: text forms",
    "shape dealers: enum suits, stated",
    "shape dealers: enum suits, unstated",
    "shape dealers: card numbers, stated",
    "shape dealers: suit-major numbers, stated",
    "numbering: 1-based, then 0-based, ace high, a rank missing, back",
    "numbering: letters, then digits beside letters, then 1-based texts",
    "numbering: suits stated, then 1 … 4, then a 5th value",
    "numbering: card numbers 0-based, then 1-based, then 53 values",
    "fields: one missing, one added, a name field, a number id, other field names",
    "cards: repeated, extra, too few, not cards",
    "shapes mixed: rows, columns, 52, one group, game states, iterables, text",
    "game states: then a card in a free cell, in a foundation, nested deep",
    "generators: one yields too many, one of objects after one of names, one repeated",
    "getters: a value that changes from one read to the next, a throwing getter, a text form",
    "board text: rows as printed, and texts near them",
    "layouts: a game state: another holder first, a holder read as nothing, parts holding cards",
    "layouts: piles holding their cards: as a Set, a bare array, none, 8 of them, a getter",
    "layouts: iterables: 51 and 53 cards, a Set, an array, a holder field beside an iterator",
    "layouts: name fields: a getter, a number id beside a code, a code naming another card",
    "layouts: values of another type than learnt: symbols, words, a word in a learnt word's place",
    "layouts: suits as the learnt spellings: another spelling, a computed text, a swapped suit",
)

Board = dict[str, Any]  # {"fast": [kind, text], "full": [kind, text], "readFast": bool}


def _compared(node: str, answers: Path) -> dict[str, list[Board]]:
    """Every run of runs.js read both ways by the readers of `answers` (a copy of answers.js)."""
    done = subprocess.run(
        [node, str(READERS / "compare.js"), str(answers), str(READERS / "runs.js")],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    result: dict[str, list[Board]] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def outcomes(node: str) -> dict[str, list[Board]]:
    return _compared(node, ANSWERS)


@pytest.mark.parametrize("run", RUNS)
def test_a_board_read_fast_is_read_as_a_fresh_reader_reads_it(outcomes: dict[str, list[Board]], run: str) -> None:
    for i, board in enumerate(outcomes[run]):
        assert board["fast"] == board["full"], f"board {i}"


def test_every_run_is_listed(outcomes: dict[str, list[Board]]) -> None:
    assert sorted(outcomes) == sorted(RUNS)


def test_the_runs_are_read_fast_and_hold_failures(outcomes: dict[str, list[Board]]) -> None:
    """No comparison of the full reader with itself: after a shape dealer's first board, every board
    it deals is read the fast way (as card names, or all 52 cards straight to their code); the odd
    boards fail."""
    for run in RUNS:
        if run.startswith("shape dealers") and "unstated" not in run:
            assert all(b["readFast"] for b in outcomes[run][1:]), run
    boards = [b for run in RUNS for b in outcomes[run]]
    assert sum(b["readFast"] for b in boards) > len(boards) // 2
    assert sum(b["full"][0] != "line" for b in boards) >= 25


# Bugs planted in a copy of the reader, each a change of its text: the comparison finds each.
PLANTED = {
    "repeated hits read as a line": ("if ((got & 63) === 52)", "if (got >> 6 === 52)"),
    "tables learnt from more readings than ranks": ("if (ranks !== 13 || suits !== 4) return;", ""),
    "cards of any kind counted as hits": (
        "      cardKindIs(KIND_TEXT);\n      return setCard(p, c);",
        "      cardKindIs(KIND_TEXT);\n      hit(p, c);\n      return setCard(p, c);",
    ),
    "numbers the learnt board did not use fitted to its numbering": (
        "      if (ranks !== 13 || suits !== 4) return;\n",
        "      if (ranks !== 13 || suits !== 4) return;\n"
        "      const k0 = RANK_OF_READING.findIndex((r, k) => k >= 13 && r >= 0);\n"
        "      const shift = k0 - 13 - RANK_OF_READING[k0];\n"
        "      for (let n = 0; n <= 14; n++) {\n"
        "        const r = n - shift;\n"
        "        if (RANK_OF_READING[13 + n] < 0 && r >= 0 && r < 13) RANK_OF_READING[13 + n] = r;\n"
        "      }\n",
    ),
    "a holder field before the learnt one passed over": (
        "for (let k = 0; k < before; k++)",
        "for (let k = 0; k < 0; k++)",
    ),
    "a game state's free cells and foundations passed over": (
        "for (let k = 0; k < EMPTY_PARTS.length; k++)",
        "for (let k = 0; k < 0; k++)",
    ),
    "a group's size taken as learnt": (
        "if (!isArray(g${g}) || g${g}.length !== ${widths[g]}) ${out(`groupOf(g${g})`)}",
        "if (!isArray(g${g})) ${out(`groupOf(g${g})`)}",
    ),
    "a pile's size taken as learnt": (
        "if (!isArray(g${g}) || g${g}.length !== ${widths[g]}) ${out(`groupOfCards(g${g})`)}",
        "if (!isArray(g${g})) ${out(`groupOfCards(g${g})`)}",
    ),
    "a holder read again after it held nothing": (
        'readObjectFrom(v, "it", 0, ${layout.holder + 1})',
        'readObjectFrom(v, "it", 0, ${layout.holder})',
    ),
    "a name field read again after it named no card": (
        "readNamedFrom(c, ${layout.named + 1}, p, ${D})",
        "readNamedFrom(c, ${layout.named}, p, ${D})",
    ),
    "a rank or suit read again after it missed the tables": (
        "readFields(${layout.fields}, rv, sv, p, ${D})",
        "readCard(c, p, ${D})",
    ),
    "a kept text taken for another of its first letter and length": (
        "${to} = ${table}_TEXTS[e] === ${x} ? ",
        "${to} = ${table}_TEXTS[e] !== '' ? ",
    ),
    "rows as printed read without their separators": (
        "(k < 51 && charCodeAt(text, 3 * k + 2) !== ((k & 7) === 7 ? 10 : 32))",
        "false",
    ),
    "a learnt spelling read as another suit's": (
        "suits[j + 1] = SUIT_OF_READING[SUIT_TEXT[SUIT_SPELLINGS[layout.spellings[j]]]];",
        "suits[j + 1] = SUIT_OF_READING[j & 3];",
    ),
    "a reader's spellings kept from the tables learnt before": ("    learnSpellingSuits(learntLayout);\n", ""),
    "a spelling taken for a text of its length": (
        "${j + 1} * (${x} === ${stringify(SUIT_SPELLINGS[spellings[j]])})",
        "${j + 1} * (typeof ${x} === 'string' && ${x}.length === ${SUIT_SPELLINGS[spellings[j]].length})",
    ),
    "a card-name field passed over": (
        '|| typeof c !== "object" || ${NAMES_IN}${rankIn}',
        '|| typeof c !== "object"${rankIn}',
    ),
}


@pytest.mark.parametrize("bug", sorted(PLANTED))
def test_the_comparison_finds_a_planted_bug(node: str, tmp_path: Path, bug: str) -> None:
    find, replace = PLANTED[bug]
    text = ANSWERS.read_text(encoding="utf-8")
    assert text.count(find) == 1, "the planted bug no longer fits answers.js: plant it anew"
    planted = tmp_path / "answers.js"
    planted.write_text(text.replace(find, replace), encoding="utf-8")
    runs = _compared(node, planted)
    assert any(b["fast"] != b["full"] for boards in runs.values() for b in boards)
