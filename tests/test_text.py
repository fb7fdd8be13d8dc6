"""What a dealer writes never reaches a terminal or a report raw: control characters are escaped."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from harness.cli import main
from harness.text import printable

DEALERS = Path(__file__).parent / "dealers"
SCRIPT = f"{sys.executable} {DEALERS / 'control_characters.py'}"
# What no output may hold raw: C0 controls but tab and LF, DEL, C1 controls, surrogates, U+FFFE/FFFF.
UNSAFE = {chr(c) for c in [*range(0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0), 0xD800, 0xFFFE, 0xFFFF]}


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain ♦ text\twith\nlines", "plain ♦ text\twith\nlines"),
        ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),
        ("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"),
        ("a\rb\x00c\x7f", "a\\x0db\\x00c\\x7f"),
        ("\x9b31m", "\\x9b31m"),
        ("\ud800 \udcff \ufffe \uffff", "\\ud800 \\udcff \\ufffe \\uffff"),
    ],
)
def test_printable_escapes_controls_and_what_xml_forbids(text: str, shown: str) -> None:
    assert printable(text) == shown


def test_printable_on_one_line_escapes_line_ends_and_tabs_too() -> None:
    assert printable("a\nb\tc", one_line=True) == "a\\x0ab\\x09c"


IMPLS = {
    "py: raises": ("py:control_characters:raises", "error"),
    "py: returns": ("py:control_characters:returns", "invalid-output"),
    "cmd: stderr": (f"cmd:{SCRIPT}", "crash"),
    "stream: stderr": (f"stream:{SCRIPT}", "crash"),
}


@pytest.mark.usefixtures("test_dealers")
@pytest.mark.parametrize(("impl", "kind"), IMPLS.values(), ids=IMPLS.keys())
def test_a_dealer_s_control_characters_are_escaped_in_every_output(
    impl: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junit, report = tmp_path / "j.xml", tmp_path / "r.json"
    status = main(["verify", impl, "--range", "1-3", "--jobs", "1", "--junit", str(junit), "--report", str(report)])
    out, err = capsys.readouterr()
    assert status == 1
    assert not UNSAFE & set(out + err), (out + err)[:400]
    failure = ET.parse(junit).getroot().find("testsuite/testcase/failure")
    assert failure is not None and failure.get("type") == kind
    shown = failure.get("message", "") + (failure.text or "")
    assert not UNSAFE & set(shown)
    data = report.read_bytes()
    assert data.isascii() and not any(b < 0x20 and b not in b"\n" for b in data)
    assert json.loads(data)["first_failure"]["kind"] == kind
    if kind != "invalid-output":  # a board's odd line is quoted with repr(), escaped already
        assert "\\x1b]0;owned\\x07" in out and "\\x1b]0;owned\\x07" in shown


@pytest.mark.usefixtures("test_dealers")
def test_a_request_error_quoting_control_characters_is_one_escaped_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "py:control_characters:\x1b]0;owned\x07", "--range", "1-3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and not UNSAFE & set(err) and "\\x1b]0;owned\\x07" in err


JS_NASTY = r"\u001b]0;owned\u0007\u001b[2J\u009b31m\r"


@pytest.mark.parametrize("as_json", [False, True], ids=["table", "json"])
def test_a_challenge_s_control_characters_are_escaped(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], as_json: bool
) -> None:
    from test_challenge import markdown_doc

    solution = f'function dealFreeCell(seed) {{ throw new Error("{JS_NASTY}"); }}'
    path = tmp_path / "challenge.md"
    path.write_text(markdown_doc([("fails", f'assert.fail("{JS_NASTY}");')], solution=solution), encoding="utf-8")
    assert main(["challenge", str(path), "--range", "1-10", *(["--json"] if as_json else [])]) == 1
    out = capsys.readouterr().out
    assert not UNSAFE & set(out), out
    if as_json:
        [report] = json.loads(out)
        assert "\x1b]0;owned\x07" in report["hints"]["details"][0]["reason"]  # the data itself is kept
    else:
        assert "\\x1b]0;owned\\x07" in out


@pytest.mark.usefixtures("test_dealers")
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_a_profile_quotes_a_dealer_s_control_characters_escaped(
    capsys: pytest.CaptureFixture[str], as_json: bool
) -> None:
    assert main(["profile", "py:control_characters:raises", *(["--json"] if as_json else [])]) == 1
    out = capsys.readouterr().out
    assert not UNSAFE & set(out) and "owned" in out, out[:400]
