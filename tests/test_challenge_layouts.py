"""Every layout freeCodeCamp has used for a challenge, in documents of our own, run as
freeCodeCamp runs them (hooks, solution, after-user-code, hint; chai's assert), each solution
judged on its own; and the bounds on what a document may be."""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

import reference
from harness.challenge import read_challenge
from harness.cli import main
from harness.errors import RequestError

GOOD = (Path(__file__).with_name("js") / "good.js").read_text(encoding="utf-8").strip()
WRONG = GOOD.replace("(s >> 16) % deck.length", "(s >> 16) % (deck.length + 1) % deck.length")
assert WRONG != GOOD


def rows_literal(n: int) -> str:
    cards = reference.canonical_lines([n]).decode().split()
    rows = [cards[i : i + 8] for i in range(0, 52, 8)]
    return "[\n" + ",\n".join("  [" + ", ".join(f"'{c}'" for c in row) + "]" for row in rows) + "\n]"


GAMES = f"const game1 = {rows_literal(1)};\nconst game617 = {rows_literal(617)};"
HINTS = [
    ("`dealFreeCell` is a function.", "assert.isFunction(dealFreeCell);"),
    ("It returns 7 rows.", "assert.lengthOf(dealFreeCell(1), 7);"),
    ("Game 1.", "assert.deepEqual(dealFreeCell(1), game1);"),
    ("Game 617.", "assert.deepEqual(dealFreeCell(617), game617);"),
]


def fenced(code: str) -> list[str]:
    return ["```js", code, "```", ""]


def md_2025(solutions: list[str]) -> str:
    out = ["---", "id: 5f0000000000000000000001", "title: Deal the board", "challengeType: 1", "---", ""]
    out += ["# --description--", "", "Write a function that deals the board of a game number.", ""]
    out += ["# --before-all--", "", *fenced("const ROWS = 7;")]
    out += ["# --before-each--", "", *fenced(GAMES)]
    out += ["# --hints--", ""]
    for text, code in HINTS:
        out += [text, "", *fenced(code)]
    out += ["# --seed--", "", "## --seed-contents--", "", *fenced("function dealFreeCell(n) {\n}")]
    out += ["# --solutions--", ""]
    for k, solution in enumerate(solutions):
        if k:
            out += ["---", ""]
        out += fenced(solution)
    return "\n".join(out)


def md_2020(solutions: list[str]) -> str:
    out = ["---", "title: Deal the board", "---", "", "# --description--", "", "Deal the board of a game.", ""]
    out += ["# --hints--", ""]
    for text, code in HINTS:
        out += [text, "", *fenced(code)]
    out += ["# --seed--", "", "## --before-user-code--", "", *fenced("const helperFromHead = 1;")]
    out += ["## --after-user-code--", "", *fenced(GAMES)]
    out += ["## --seed-contents--", "", *fenced("function dealFreeCell(n) {\n}"), "# --solutions--", ""]
    for k, solution in enumerate(solutions):
        if k:
            out += ["---", ""]
        out += fenced(solution)
    return "\n".join(out)


def legacy(solutions: list[str]) -> str:
    out = ["---", "title: Deal the board", "challengeType: 5", "---", "", "## Description"]
    out += ["<section id='description'>", "Deal the board of a game number.", "</section>", "", "## Tests"]
    out += ["<section id='tests'>", "", "```yml", "tests:"]
    for text, code in HINTS:
        out += [f"  - text: {json.dumps(text)}", f"    testString: {json.dumps(code)}"]
    out += ["```", "", "</section>", "", "## Challenge Seed", "<section id='challengeSeed'>", "<div id='js-seed'>", ""]
    out += [*fenced("function dealFreeCell(n) {\n}"), "</div>", "", "### After Test", "<div id='js-teardown'>", ""]
    out += [*fenced(GAMES), "</div>", "</section>", "", "## Solution", "<section id='solution'>", ""]
    for solution in solutions:
        out += fenced(solution)
    out += ["</section>"]
    return "\n".join(out)


def arcade(solutions: list[str]) -> str:
    out = ["/* eslint spaced-comment: 0 */", "", "const assert = require('chai').assert;", ""]
    out += ["/// title: Deal the board", "/// type: rosetta-code", "", "/// categories:", "/// Games", ""]
    out += ["/// description:", "/// <div class='rosetta'><p>Deal the board of a game number.</p></div>", ""]
    out += ["/// challengeSeed:", "function dealFreeCell(n) {", "  // Good luck!", "}", ""]
    out += ["/// solutions:", solutions[0], "", "/// tail:", GAMES, "", "/// tests:"]
    for text, code in HINTS:
        out += [f"{code[:-2]}, 'message: {text}');"]
    out += ["", "/// id: 5f0000000000000000000002", ""]
    return "\n".join(out)


def html_page(solutions: list[str]) -> str:
    def pre(code: str) -> str:
        return f'<pre><code class="language-js">{html.escape(code)}\n</code></pre>'

    out = ["<!DOCTYPE html>", "<html><body>", "<h1>Deal the board</h1>", "<h2>Description</h2>"]
    out += ["<p>Deal the board of a game number &amp; return its rows.</p>", "<h2>Hints</h2>"]
    for text, code in HINTS:
        out += [f"<p>{html.escape(text)}</p>", pre(code)]
    out += ["<h2>Seed</h2>", "<h3>After User Code</h3>", pre(GAMES), "<h3>Seed Contents</h3>"]
    out += [pre("function dealFreeCell(n) {\n}"), "<h2>Solutions</h2>", pre(solutions[0]), "</body></html>"]
    return "\n".join(out)


LAYOUTS = {
    "markdown-2025": (md_2025, "challenge.md"),
    "markdown": (md_2020, "challenge.md"),
    "legacy": (legacy, "challenge.md"),
    "arcade": (arcade, "deal-board.js"),
    "html": (html_page, "challenge.html"),
}


def judge(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str) -> tuple[int, dict[str, Any]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    rc = main(["challenge", str(path), "--json", "--range", "1-700"])
    [report] = json.loads(capsys.readouterr().out)
    return rc, report


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_each_layout_is_recognised_and_its_hints_pass(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], layout: str
) -> None:
    build, name = LAYOUTS[layout]
    text = build([GOOD])
    rc, report = judge(tmp_path, capsys, name, text)
    assert (report["format"], report["language"], report["solution"]) == (layout, "en", "ok"), report
    statuses = [d["status"] for d in report["hints"]["details"]]
    assert statuses == ["passed"] * len(HINTS), report["hints"]
    assert (report["conformant"], report["checked"], rc) == (True, 700, 0)
    doc = read_challenge(tmp_path / name)
    lines = [html.unescape(re.sub(r"<[^>]+>", "", line)) for line in text.split("\n")]  # as a page shows them
    assert lines[doc.solution_line - 1] == GOOD.split("\n")[0]
    for hint in doc.hints:
        assert hint.code.split("\n")[0][:20] in lines[hint.line - 1]


@pytest.mark.parametrize("layout", ["markdown-2025", "markdown", "legacy"])
def test_every_solution_is_judged(node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], layout: str) -> None:
    build, name = LAYOUTS[layout]
    rc, report = judge(tmp_path, capsys, name, build([GOOD, WRONG]))
    first, second = report["solutions"]
    assert (first["solution"], first["conformant"], first["hints"]["passed"]) == ("ok", True, 4)
    assert (second["solution"], second["conformant"]) == ("ok", False)
    assert second["first_failure"]["kind"] == "mismatch"
    assert [d["status"] for d in second["hints"]["details"]][2:] == ["failed", "failed"]
    assert second["line"] > first["line"]
    assert (report["conformant"], rc) == (False, 1)
    assert report["checked"] == first["checked"] + second["checked"]


def test_2025_hints_that_use_the_hooks_are_not_broken(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """game1/game617 come from `# --before-each--`: without running it they looked undefined."""
    _, report = judge(tmp_path, capsys, "challenge.md", md_2025([GOOD]))
    assert report["hints"]["broken"] == 0 and report["hints"]["passed"] == len(HINTS)


@pytest.mark.parametrize(
    ("suffix", "fmt"),
    [(".js", "javascript"), (".cjs", "javascript"), (".mjs", "javascript")],
)
def test_plain_javascript_files(tmp_path: Path, suffix: str, fmt: str) -> None:
    path = tmp_path / f"deal{suffix}"
    path.write_text(GOOD + "\n", encoding="utf-8")
    doc = read_challenge(path)
    assert (doc.format, doc.solution_line, doc.hints, doc.solution) == (fmt, 1, (), GOOD + "\n")


# ------------------------------------------------------------------- chai, not Node's assert

CHAI_ONLY = [
    "assert.isFunction(dealFreeCell);",
    "assert.isArray(dealFreeCell(1));",
    "assert.lengthOf(dealFreeCell(1)[6], 4);",
    "assert.include(dealFreeCell(1)[0], 'JD');",
    "assert.sameMembers(dealFreeCell(1)[6], ['6H', '2H', '9C', '6S']);",
    "assert.isAbove(dealFreeCell(1).length, 6);",
    "assert.typeOf(dealFreeCell(1)[0][0], 'string');",
    "assert.property(dealFreeCell(1), 'length');",
    "assert.exists(dealFreeCell(1));",
    "assert.strictEqual(-0, 0);",  # chai: ===; Node: Object.is
    "assert.isTrue(Array.isArray(dealFreeCell(1)));",
    "assert.throws(() => { throw new TypeError('no'); }, TypeError);",
    "assert.doesNotThrow(() => dealFreeCell(2));",
    "assert.match(dealFreeCell(1)[0][0], /^[2-9TJQKA][CDHS]$/);",
    "const rows = await Promise.resolve(dealFreeCell(1)); assert.deepStrictEqual(rows.length, 7);",
]
NODE_ONLY = [
    ("assert.deepEqual(dealFreeCell(1).map((r) => r.length), ['8', '8', '8', '8', '8', '8', '4']);", "to deeply equal"),
    ("assert.deepEqual({ a: 1 }, { a: '1' });", "expected { a: 1 } to deeply equal { a: '1' }"),
    ("assert.equal(NaN, NaN);", "expected NaN to equal NaN"),
]
MESSAGES = [
    ("assert.strictEqual(dealFreeCell(1).length, 8);", "expected 7 to equal 8"),
    ("assert.strictEqual(1, 2, 'one is not two');", "one is not two: expected 1 to equal 2"),
    ("assert(false);", "Unspecified AssertionError"),
    ("assert.lengthOf([1, 2], 3);", "expected [ 1, 2 ] to have a length of 3 but got 2"),
    ("assert.deepEqual(dealFreeCell(1), []);", "expected [ Array(7) ] to deeply equal []"),
    ("assert.isString(5);", "expected 5 to be a string"),
    ("assert.include([1, 2], 3);", "expected [ 1, 2 ] to include 3"),
]


def hints_doc(codes: list[str]) -> str:
    out = ["# --description--", "", "Deal the board.", "", "# --hints--", ""]
    for k, code in enumerate(codes):
        out += [f"Hint {k}.", "", *fenced(code)]
    out += ["# --solutions--", "", *fenced(GOOD)]
    return "\n".join(out)


def test_hints_that_pass_only_under_chai_pass(node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, report = judge(tmp_path, capsys, "c.md", hints_doc(CHAI_ONLY))
    assert [(d["status"], d["reason"]) for d in report["hints"]["details"]] == [("passed", None)] * len(CHAI_ONLY)


@pytest.mark.parametrize(("code", "message"), NODE_ONLY + MESSAGES)
def test_hints_that_pass_only_under_node_fail_with_chais_message(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], code: str, message: str
) -> None:
    _, report = judge(tmp_path, capsys, "c.md", hints_doc([code]))
    [detail] = report["hints"]["details"]
    assert detail["status"] == "failed" and detail["reason"].startswith("assertion failed: ")
    assert message in detail["reason"], detail["reason"]


# ------------------------------------------------------------------------- bounds and errors


@pytest.mark.parametrize(("source", "why"), [("huge", "larger than"), ("/dev/zero", "it is a character device")])
def test_a_huge_document_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, why: str
) -> None:
    path = Path(source)
    if source == "huge":
        path = tmp_path / "huge.md"
        with path.open("wb") as f:
            f.truncate(100 << 20)  # 100 MB, sparse
    assert main(["challenge", str(path), "--json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and why in err


def test_an_unreadable_document_among_several_is_reported_and_the_others_judged(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.md"
    good.write_text(md_2020([GOOD]), encoding="utf-8")
    bad = tmp_path / "shopping.md"
    bad.write_text("milk\neggs\n", encoding="utf-8")
    paths = [str(good), str(tmp_path / "missing.md"), str(bad), str(good)]
    assert main(["challenge", *paths, "--json", "--range", "1-50"]) == 2
    captured = capsys.readouterr()
    reports = json.loads(captured.out)
    assert [r["document"] for r in reports] == paths
    assert [r["conformant"] for r in reports] == [True, None, None, True]
    assert "cannot read" in reports[1]["error"] and "not a freeCodeCamp challenge" in reports[2]["error"]
    assert captured.err.count("\n") == 1 and "missing.md" in captured.err and "1 more" in captured.err


def test_a_document_without_a_solution_cannot_be_verified(tmp_path: Path) -> None:
    path = tmp_path / "c.md"
    path.write_text("# --hints--\n\nIt works.\n\n```js\nassert(true);\n```\n", encoding="utf-8")
    with pytest.raises(RequestError, match="no solution"):
        from harness.adapters import open_dealer

        open_dealer(f"node:{os.path.relpath(path)}")


def test_hooks_solution_and_hint_run_in_freecodecamps_order(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    steps = [
        ("before-all", "var order = ['before-all'];"),
        ("before-each", "order.push('before-each');"),
    ]
    out = ["# --description--", "", "Deal the board.", ""]
    for marker, code in steps:
        out += [f"# --{marker}--", "", *fenced(code)]
    out += ["# --hints--", "", "The order.", ""]
    out += fenced(
        "await null;\nassert.deepEqual(order, ['before-all', 'before-each', 'head', 'solution', 'tail']);\n"
        "assert.strictEqual(typeof code, 'string');\nassert.include(code, 'order.push');"
    )
    out += ["# --seed--", "", "## --before-user-code--", "", *fenced("order.push('head');")]
    out += ["## --after-user-code--", "", *fenced("order.push('tail');")]
    out += ["# --solutions--", "", *fenced("order.push('solution');\n" + GOOD)]
    _, report = judge(tmp_path, capsys, "c.md", "\n".join(out))
    assert report["format"] == "markdown-2025"
    assert [(d["status"], d["reason"]) for d in report["hints"]["details"]] == [("passed", None)]


def test_a_name_missing_in_the_solution_fails_its_hints_without_breaking_them(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another solution could pass: only a name missing in the hint's own code makes it broken."""
    solution = "function dealFreeCell(n) {\n  return shuffleHelper(n);\n}"
    codes = ["assert.lengthOf(dealFreeCell(1), 7);", "assert.deepEqual(dealFreeCell(1), nowhereDefined);"]
    _, report = judge(tmp_path, capsys, "c.md", hints_doc(codes).replace(GOOD, solution))
    first, second = report["hints"]["details"]
    assert first["status"] == "failed" and "shuffleHelper is not defined" in first["reason"]
    assert second["status"] == "broken" and "nowhereDefined" in second["reason"]


def test_freecodecamps_helpers_are_there(node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    codes = [
        "assert.match(__helpers.removeJSComments(code), /function dealFreeCell/);",
        "assert(DeepEqual(dealFreeCell(2).length, 7));",
    ]
    _, report = judge(tmp_path, capsys, "c.md", hints_doc(codes))
    assert [d["status"] for d in report["hints"]["details"]] == ["passed", "passed"]
