"""Reading challenge documents, running their hints, and `freecell-harness challenge`."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from harness.adapters import DealerOptions
from harness.challenge import parse_challenge, read_challenge
from harness.challenge.language import detect_language
from harness.cli import main
from harness.errors import RequestError

SEED_FACTS = [
    # name, layout, language
    ("000_8985819e1f56d382.txt", "rendered", "en"),
    ("001_ee425cc924723fcb.txt", "markdown", "pt"),
    ("002_510b9092f5b6f07e.txt", "rendered", "en"),
    ("003_cb543c2375f333a8.txt", "markdown", "ja"),
    ("004_0a5e90750e08c43d.txt", "legacy", "es"),
]
CONFORMANT = ["000_8985819e1f56d382.txt", "001_ee425cc924723fcb.txt", "003_cb543c2375f333a8.txt"]


def doc_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize(("name", "layout", "language"), SEED_FACTS)
def test_seed_layout_and_language(seeds: Path, name: str, layout: str, language: str) -> None:
    doc = read_challenge(seeds / name)
    assert (doc.format, doc.language) == (layout, language)


@pytest.mark.parametrize("name", [n for n, _, _ in SEED_FACTS])
def test_seed_code_is_found_at_its_document_lines(seeds: Path, name: str) -> None:
    path = seeds / name
    lines = doc_lines(path)
    doc = read_challenge(path)
    assert doc.solution is not None and "dealFreeCell" in doc.solution
    assert lines[doc.solution_line - 1] == doc.solution.splitlines()[0]
    assert doc.solution.splitlines()[-1].strip() in {"}", "return deltCards;"}
    assert doc.after_test is not None and lines[doc.after_test_line - 1] == doc.after_test.splitlines()[0]
    assert doc.seed_code is not None and "dealFreeCell" in doc.seed_code
    assert doc.seed_names == ("dealFreeCell",)
    assert len(doc.hints) == 5
    for hint in doc.hints:
        assert hint.text and "assert" in hint.code
        assert hint.code[:12] in lines[hint.line - 1]
        assert "dealFreeCell" in hint.text
    assert "dealFreeCell(617)" in doc.hints[-1].code


@pytest.mark.parametrize(("name", "defines_games"), [(n, n != "004_0a5e90750e08c43d.txt") for n, _, _ in SEED_FACTS])
def test_after_test_code(seeds: Path, name: str, defines_games: bool) -> None:
    after = read_challenge(seeds / name).after_test or ""
    assert ("game1" in after and "game617" in after) == defines_games


def test_javascript_file(tmp_path: Path) -> None:
    src = tmp_path / "mine.js"
    src.write_text("function dealFreeCell(n) {\n  return n;\n}\n")
    doc = read_challenge(src)
    assert (doc.format, doc.solution_line, doc.hints) == ("javascript", 1, ())
    assert doc.solution is not None and doc.solution.startswith("function dealFreeCell")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b"A shopping list.\n\nmilk\neggs\n", "not a freeCodeCamp challenge"),
        (b"", "not a freeCodeCamp challenge"),
    ],
)
def test_unreadable_or_not_a_challenge(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "doc.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(RequestError, match=message):
        read_challenge(path)


def test_a_directory_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(RequestError, match="cannot read"):
        read_challenge(tmp_path)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("The function must return the board, and the deck is shuffled with this generator.", "en"),
        ("La fonction doit rendre la table, et le paquet est mélangé par ce générateur dans les règles.", "fr"),
        ("Die Funktion gibt das Spielfeld zurück, und das Blatt ist mit dem Generator gemischt, nicht von Hand.", "de"),
        ("Функция должна вернуть раскладку; колода перемешивается этим генератором случайных чисел.", "ru"),
        ("该函数必须返回一个二维数组，表示空当接龙的牌局，牌由线性同余生成器洗好并依次发到八列之中。", "zh"),
        ("x = 1; y = 2;", "und"),
    ],
)
def test_detect_language(text: str, code: str) -> None:
    assert detect_language(text) == code


# ------------------------------------------------------------------------- running hints

GOOD_SOLUTION = Path(__file__).with_name("js").joinpath("good.js").read_text(encoding="utf-8")


def markdown_doc(
    hints: list[tuple[str, str]], *, after: str = "const answer = 42;", solution: str = GOOD_SOLUTION
) -> str:
    parts = [
        "---",
        "title: A test challenge",
        "---",
        "# --description--",
        "",
        "Deal the cards for the game.",
        "",
        "# --hints--",
        "",
    ]
    for text, code in hints:
        parts += [text, "", "```js", code, "```", ""]
    parts += ["# --seed--", "", "## --after-user-code--", "", "```js", after, "```", "", "## --seed-contents--", ""]
    parts += [
        "```js",
        "function dealFreeCell(seed) {\n  return true;\n}",
        "```",
        "",
        "# --solutions--",
        "",
        "```js",
        solution,
        "```",
        "",
    ]
    return "\n".join(parts)


HINT_CASES = [
    ("passes", "assert(typeof dealFreeCell === 'function');", "passed", None),
    ("uses the after-test", "assert.strictEqual(answer, 42);", "passed", None),
    ("fails an assertion", "assert.strictEqual(dealFreeCell(1).length, 8);", "failed", "assertion failed"),
    ("throws", "assert(dealFreeCell(1).nope.length);", "failed", "TypeError"),
    ("loops forever", "for (;;) {}", "failed", "timed out"),
    ("names nothing defined", "assert.deepEqual(dealFreeCell(1), nowhere);", "broken", "nowhere is not defined"),
    ("does not compile", 'assert(dealFreeCell(1), "a "quoted" word");', "broken", "SyntaxError"),
]


@pytest.mark.parametrize(("text", "code", "status", "reason"), HINT_CASES, ids=[c[0] for c in HINT_CASES])
def test_hints_are_passed_failed_or_broken(
    node: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    code: str,
    status: str,
    reason: str | None,
) -> None:
    path = tmp_path / "challenge.md"
    path.write_text(markdown_doc([(text, code)]), encoding="utf-8")
    doc = parse_challenge(path.read_text(encoding="utf-8"), str(path))
    assert doc.format == "markdown" and [h.code for h in doc.hints] == [code]
    if status == "failed" and reason == "timed out":  # waits out a deal's timeout, 0.5 s (a right deal
        # takes a millisecond), not the default 10
        import harness.challenge.command as command

        monkeypatch.setattr(command, "DealerOptions", lambda: DealerOptions(timeout=0.5))
    rc = main(["challenge", str(path), "--json", "--range", "1-100"])
    [report] = json.loads(capsys.readouterr().out)
    [detail] = report["hints"]["details"]
    assert detail["status"] == status
    assert report["hints"][status] == 1
    if reason is None:
        assert detail["reason"] is None
    else:
        assert reason in detail["reason"]
    assert (report["solution"], report["conformant"], report["checked"], rc) == ("ok", True, 100, 0)


def test_an_undefined_dealfreecell_is_a_failure_not_a_broken_hint(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "challenge.md"
    path.write_text(markdown_doc([("deals", "assert(dealFreeCell(1))")], solution="const other = 1;"), encoding="utf-8")
    assert main(["challenge", str(path), "--json"]) == 1
    [report] = json.loads(capsys.readouterr().out)
    assert report["solution"] == "missing" and report["conformant"] is None and report["checked"] == 0
    assert report["hints"]["details"][0]["status"] == "failed"


# ---------------------------------------------------------------------------- the seeds


@pytest.fixture(scope="module")
def seed_reports(seeds: Path) -> dict[str, dict[str, object]]:
    from contextlib import redirect_stdout
    from io import StringIO

    out = StringIO()
    paths = [os.path.relpath(p) for p in sorted(seeds.glob("*.txt"))]
    with redirect_stdout(out):
        rc = main(["challenge", *paths, "--json"])
    reports = json.loads(out.getvalue())
    assert rc == 1  # 002's solution does not compile
    assert [r["document"] for r in reports] == paths
    return {Path(r["document"]).name: r for r in reports}


@pytest.mark.parametrize("name", CONFORMANT)
def test_seed_solution_conforms_and_passes_all_hints(
    node: str, seed_reports: dict[str, dict[str, object]], name: str
) -> None:
    r = seed_reports[name]
    assert (r["solution"], r["solution_error"], r["conformant"], r["checked"]) == ("ok", None, True, 32000)
    hints = r["hints"]
    assert isinstance(hints, dict)
    assert {k: v for k, v in hints.items() if k != "details"} == {"passed": 5, "failed": 0, "broken": 0}


def test_seed_002_does_not_compile(node: str, seeds: Path, seed_reports: dict[str, dict[str, object]]) -> None:
    r = seed_reports["002_510b9092f5b6f07e.txt"]
    bad = next(
        i for i, line in enumerate(doc_lines(seeds / "002_510b9092f5b6f07e.txt"), 1) if re.search(r"=\s*%", line)
    )
    assert (r["solution"], r["conformant"], r["checked"]) == ("syntax-error", None, 0)
    assert isinstance(r["solution_error"], str)
    assert "SyntaxError" in r["solution_error"] and r["solution_error"].endswith(f":{bad})")
    hints = r["hints"]
    assert isinstance(hints, dict) and hints["passed"] == 0


def test_seed_004_conforms_and_its_broken_hints_say_why(
    node: str, seeds: Path, seed_reports: dict[str, dict[str, object]]
) -> None:
    r = seed_reports["004_0a5e90750e08c43d.txt"]
    assert (r["solution"], r["conformant"], r["checked"]) == ("ok", True, 32000)
    doc = read_challenge(seeds / "004_0a5e90750e08c43d.txt")
    # its after-test code defines no games, so every hint comparing with one cannot run
    needs_game = [bool(re.search(r"\bgame\d+\b", h.code)) for h in doc.hints]
    hints = r["hints"]
    assert isinstance(hints, dict)
    assert [d["status"] == "broken" for d in hints["details"]] == needs_game
    assert all(d["reason"] for d in hints["details"] if d["status"] == "broken")
    assert (hints["passed"], hints["broken"]) == (needs_game.count(False), needs_game.count(True))


def test_human_table(node: str, seeds: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = [os.path.relpath(seeds / n) for n in ("000_8985819e1f56d382.txt", "002_510b9092f5b6f07e.txt")]
    assert main(["challenge", *paths, "--range", "1-500"]) == 1
    out = capsys.readouterr().out
    assert all(p in out for p in paths)
    assert "syntax-error" in out and "5/0/0" in out and "conforms 1-500" in out


@pytest.mark.parametrize(
    ("args", "rc"),
    [(["000_8985819e1f56d382.txt", "001_ee425cc924723fcb.txt"], 0), (["000_8985819e1f56d382.txt", "missing.txt"], 2)],
)
def test_exit_status(node: str, seeds: Path, capsys: pytest.CaptureFixture[str], args: list[str], rc: int) -> None:
    assert main(["challenge", *[os.path.relpath(seeds / a) for a in args], "--range", "1-100"]) == rc
    err = capsys.readouterr().err
    if rc == 2:
        assert err.count("\n") == 1 and "missing.txt" in err and "Traceback" not in err


# A solution whose cards or suits are bare numbers: `challenge` takes no --cards or --suits (a
# freeCodeCamp answer names its cards), so it is that solution's failure, and the other documents
# are still judged; never a request error that names an option `challenge` does not have.
NAMED_CARD = "'A23456789TJQK'[i >> 2] + 'CDHS'[i & 3]"
NUMBERED = {
    "cards as numbers": GOOD_SOLUTION.replace(NAMED_CARD, "i"),
    "suits as numbers": GOOD_SOLUTION.replace(NAMED_CARD, "{ rank: i >> 2, suit: i & 3 }"),
}


@pytest.mark.parametrize("solution", NUMBERED.values(), ids=NUMBERED.keys())
def test_a_solution_of_bare_numbers_is_its_failure_not_the_runs(
    node: str, seeds: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], solution: str
) -> None:
    assert solution != GOOD_SOLUTION
    numbered = tmp_path / "numbered.md"
    numbered.write_text(markdown_doc([("deals", "assert(dealFreeCell(1))")], solution=solution), encoding="utf-8")
    good = os.path.relpath(seeds / "000_8985819e1f56d382.txt")
    assert main(["challenge", str(numbered), good, "--json", "--range", "1-100"]) == 1
    reports = json.loads(capsys.readouterr().out)
    assert [r["conformant"] for r in reports] == [False, True]
    failure = reports[0]["first_failure"]
    assert (failure["deal"], failure["kind"]) == (1, "invalid-output")
    assert "bare numbers" in failure["message"] and '"JD"' in failure["message"], failure
    assert re.search(r"(?<![\w-])--(cards|suits)\b", failure["message"]) is None, failure
