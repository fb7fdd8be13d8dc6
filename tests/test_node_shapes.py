"""`node:` dealers as real JavaScript games write them (tests/js/shapes/): card objects, game states,
classes, generators, text forms; read from themselves, never fitted to the expected board."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import reference
from harness.adapters import DealerOptions, open_dealer
from harness.cli import main
from harness.errors import RequestError
from harness.failures import Failure

SHAPES = Path(__file__).with_name("js") / "shapes"
DEALS = range(1, 301)


def impl(spec: str) -> str:
    return f"node:{os.path.relpath(SHAPES)}/{spec}"


CONFORMING = {
    "card-class-game-state": ("card_class.js#newGame", {}),
    "class-with-private-fields": ("game_class.js", {}),
    "es5-class-of-typescript": ("es5_classes.js#FreeCellGame", {}),  # a function with prototype methods: new
    "es5-class-of-babel": ("es5_classes.js#Board", {}),
    "state-with-its-dimensions": ("state_settings.js#withDimensions", {}),  # rows: 7, columns: 8 beside cards
    "state-with-counts-of-cells": ("state_settings.js#withCounts", {}),  # cells: 4, layout: 'freecell'
    "iterable-deck-with-an-empty-stock": ("state_settings.js#shuffled", {}),  # cards: [] beside Symbol.iterator
    "card-name-field-ace-high": ("named_cards.js", {}),
    "generator-of-names": ("generator.js", {}),
    "instances-known-by-text": ("to_string.js#rowsOfCards", {}),
    "board-printed-by-to-string": ("to_string.js#printed", {}),
    "piles-with-rank-words": ("piles.js", {}),
    "a-set-of-52": ("piles.js#asSet", {}),
    "tableau-piles-beside-all-cards": ("other_fields.js#newGame", {}),
    "a-class-with-tableau-piles": ("other_fields.js#Game", {}),
    "52-card-fields-sorted-then-dealt": ("other_fields.js#flatDeal", {}),
    "value-and-kind-letters": ("other_fields.js#valueKindLetters", {}),
    "names-value-first": ("other_fields.js#valueFirst", {}),  # " 1s" the ace, "11d" the jack
    "value-and-kind-numbers-stated": ("other_fields.js#valueKind", {"suits": "CDHS"}),
    "enum-suits-stated": ("numbers.js#enumSuits", {"suits": "SHDC"}),
    "card-numbers-stated": ("numbers.js#cardNumbers", {"cards": "rank-major", "suits": "shdc"}),
    "suit-major-1-based-stated": ("numbers.js#suitMajor", {"cards": "suit-major", "suits": "CDHS"}),
}


@pytest.mark.parametrize("case", sorted(CONFORMING))
def test_a_real_games_shape_conforms_as_written(node: str, case: str) -> None:
    spec, encoding = CONFORMING[case]
    with open_dealer(impl(spec), DealerOptions(**encoding)) as dealer:  # type: ignore[arg-type]
        assert dealer.lines(DEALS) == [reference.canonical_lines([n]) for n in DEALS]
        assert dealer.block_digest(DEALS) == reference.block_digest(DEALS)


AMBIGUOUS = {
    "enum-suits": ("numbers.js#enumSuits", {}, "--suits"),
    "card-numbers": ("numbers.js#cardNumbers", {}, "--cards and --suits"),
    "card-numbers-without-suits": ("numbers.js#cardNumbers", {"cards": "rank-major"}, "--suits"),
    "value-and-kind-numbers": ("other_fields.js#valueKind", {}, "--suits"),
}


@pytest.mark.parametrize("case", sorted(AMBIGUOUS))
def test_an_ambiguous_encoding_is_refused_naming_the_option(node: str, case: str) -> None:
    spec, encoding, option = AMBIGUOUS[case]
    with open_dealer(impl(spec), DealerOptions(**encoding)) as dealer:  # type: ignore[arg-type]
        for ask in (dealer.block_digest, dealer.lines):
            with pytest.raises(RequestError, match=f"with {option} ") as refused:
                ask(range(1, 5))
            assert "\n" not in str(refused.value)


def test_verify_refuses_an_ambiguous_encoding_in_one_line(node: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", impl("numbers.js#enumSuits"), "--range", "1-10", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert "--suits" in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("spec", "encoding"),
    [("numbers.js#enumSuits", {"suits": "CDHS"}), ("numbers.js#cardNumbers", {"cards": "rank-major", "suits": "CDHS"})],
    ids=["suits", "cards"],
)
def test_a_wrongly_stated_encoding_is_a_mismatch_not_a_fit(node: str, spec: str, encoding: dict[str, str]) -> None:
    """Read as stated, never fitted to the expected board: the suits come out permuted."""
    with open_dealer(impl(spec), DealerOptions(**encoding)) as dealer:  # type: ignore[arg-type]
        [answer] = dealer.lines([1])
    assert isinstance(answer, bytes) and answer != reference.canonical_lines([1])
    assert sorted(answer.split()) == sorted(reference.canonical_lines([1]).split())


# A game's wrong answers, each an invalid-output at its deal that names what was read.
INVALID = {
    "rank-out-of-range": ("{ rank: 15, suit: 'hearts' }", "card 1's rank is 15: expected a rank"),
    "suit-unknown": ("{ rank: 'Q', suit: 'stars' }", 'card 1\'s suit is "stars": expected a suit'),
    "boolean": ("true", "card 1 is true: not a card"),
    "no-fields": ("{ colour: 'red' }", "card 1 is an object (its fields: colour): not a card"),
    "class-without-card": ("new (class Token { constructor() { this.x = 1; } })()", "card 1 is a Token"),
}


@pytest.mark.parametrize("case", sorted(INVALID))
def test_an_unreadable_card_says_what_was_read_and_what_was_expected(node: str, tmp_path: Path, case: str) -> None:
    card, needle = INVALID[case]
    path = tmp_path / "bad.js"
    path.write_text(
        "const { deal } = require('./deal');\n"
        "function dealFreeCell(n) {\n"
        "  const cards = deal(n).map((c) => 'A23456789TJQK'[c.rank] + 'CDHS'[c.suit]);\n"
        f"  if (n === 2) cards[0] = {card};\n"
        "  return cards;\n}\nmodule.exports = { dealFreeCell };\n",
        encoding="utf-8",
    )
    (tmp_path / "deal.js").write_text((SHAPES / "deal.js").read_text(encoding="utf-8"), encoding="utf-8")
    with open_dealer(f"node:{path}", DealerOptions()) as dealer:
        answers = dealer.lines([1, 2, 3])
    assert answers[0] == reference.canonical_lines([1]) and answers[2] == reference.canonical_lines([3])
    failure = answers[1]
    assert isinstance(failure, Failure) and (failure.deal, failure.kind) == (2, "invalid-output"), failure
    assert failure.message.startswith("dealFreeCell(2) returned an array of 52: ")
    assert needle in failure.message, failure.message


@pytest.mark.parametrize(
    ("spec", "called"),
    [
        ("game_class.js", "new FreeCellGame(2)"),
        ("card_class.js#newGame", "newGame(2)"),
        ("es5_classes.js#Board", "new Board(2)"),
        ("es5_classes.js#FreeCellGame", "new FreeCellGame(2)"),
    ],
)
def test_messages_name_the_function_called(node: str, tmp_path: Path, spec: str, called: str) -> None:
    with open_dealer(impl(spec), DealerOptions()) as dealer:
        assert dealer.bridge.dealer_name == called.split("(")[0]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("state", "needle"),
    [
        ("{ tableau: columns, foundations: [[cards0], [], [], []] }", "cards in its foundations"),
        ("{ tableau: columns, freecells: [cards0, null, null, null] }", "cards in its freecells"),
    ],
    ids=["foundations", "free-cells"],
)
def test_a_game_state_is_a_fresh_deal(node: str, tmp_path: Path, state: str, needle: str) -> None:
    path = tmp_path / "state.js"
    path.write_text(
        "const { deal } = require('./deal');\n"
        "function dealFreeCell(n) {\n"
        "  const columns = [[], [], [], [], [], [], [], []];\n"
        "  deal(n).forEach((c, p) => columns[p % 8].push('A23456789TJQK'[c.rank] + 'CDHS'[c.suit]));\n"
        "  const cards0 = columns[0][0];\n"
        f"  return {state};\n}}\nmodule.exports = {{ dealFreeCell }};\n",
        encoding="utf-8",
    )
    (tmp_path / "deal.js").write_text((SHAPES / "deal.js").read_text(encoding="utf-8"), encoding="utf-8")
    with open_dealer(f"node:{path}", DealerOptions()) as dealer:
        [failure] = dealer.lines([5])
    assert isinstance(failure, Failure) and failure.kind == "invalid-output" and needle in failure.message, failure


# Built-ins a dealer replaces between deals, before the reader learns a new layout (card objects,
# suits as words, ranks as numbers and then as letters): learning one calls none of them.
REPLACED_BEFORE_A_NEW_LAYOUT = {
    "array-join": "Array.prototype.join = function () { for (;;) {} };",
    "typed-array-subarray": "Reflect.getPrototypeOf(Int8Array.prototype).subarray = function () { for (;;) {} };",
    "typed-array-iterator": "Reflect.getPrototypeOf(Int8Array.prototype)[Symbol.iterator] = () => { for (;;) {} };",
    "int8array": "globalThis.Int8Array = function () { for (;;) {} };",
}


@pytest.mark.parametrize("tampering", sorted(REPLACED_BEFORE_A_NEW_LAYOUT))
def test_a_layout_learnt_after_a_dealer_replaced_built_ins_is_read_as_before(
    node: str, tmp_path: Path, tampering: str
) -> None:
    path = tmp_path / "tamperer.js"
    path.write_text(
        "const { deal } = require('./deal');\n"
        "const WORDS = ['clubs', 'diamonds', 'hearts', 'spades'];\n"
        "function dealFreeCell(n) {\n"
        f"  if (n === 150) {{ {REPLACED_BEFORE_A_NEW_LAYOUT[tampering]} }}\n"
        "  const rows = [[], [], [], [], [], [], []];\n"
        "  deal(n).forEach((c, p) => rows[p >> 3].push({\n"
        "    rank: n < 150 ? c.rank + 1 : 'A23456789TJQK'[c.rank],\n"
        "    suit: WORDS[c.suit],\n"
        "  }));\n"
        "  return rows;\n}\nmodule.exports = { dealFreeCell };\n",
        encoding="utf-8",
    )
    (tmp_path / "deal.js").write_text((SHAPES / "deal.js").read_text(encoding="utf-8"), encoding="utf-8")
    with open_dealer(f"node:{path}", DealerOptions(timeout=5)) as dealer:
        assert dealer.block_digest(DEALS) == reference.block_digest(DEALS)


@pytest.mark.parametrize("holder", ["cards", "deck", "dealtCards"])
def test_xps_fixed_layouts_are_deals_not_a_fresh_deck(node: str, tmp_path: Path, holder: str) -> None:
    """XP's fixed layouts run rank by rank (A A A A Q Q Q Q 3 …): read as the deal, under a common
    name or any other, beside the whole deck in its fresh order."""
    layouts = {n: list(reference.deal(n, "xp").names) for n in (-1, -2)}
    fresh = [r + s for r in "A23456789TJQK" for s in "CDHS"]
    dealer = tmp_path / "xp.js"
    dealer.write_text(
        f"const LAYOUTS = {json.dumps(layouts)};\nconst FRESH = {json.dumps(fresh)};\n"
        f"exports.dealFreeCell = (n) => ({{ allCards: FRESH, {holder}: LAYOUTS[n] }});\n"
    )
    with open_dealer(f"node:{dealer}", DealerOptions(dialect="xp")) as opened:
        assert opened.lines([-1, -2]) == [reference.canonical_lines([n], "xp") for n in (-1, -2)]
