"""Reading freeCodeCamp challenge documents: the solution, the hints, the after-test code.

Four layouts are recognised (`ChallengeDocument.format`):

- ``markdown``: the current curriculum files, with ``# --hints--``, ``# --seed--``,
  ``## --after-user-code--``, ``# --solutions--`` markers and fenced code; also their rendered
  form, where the markers lose their ``#`` and the code its fences.
- ``legacy``: the older files, with ``## Solution`` / ``<section id='solution'>``, a YAML
  ``tests:`` list (``text`` and ``testString``) and ``<div id='js-teardown'>`` after-test code.
- ``rendered``: pages whose headings are plain words ("Tests", "Challenge Seed", "After Test",
  "Solution") and whose code is unfenced.  Damaged copies are read leniently: a missing
  "Solution" heading (the solution is then what follows the after-test code after a double
  blank line), a missing "Tests" heading (the YAML items are found wherever they are).
- ``javascript``: a plain ``.js`` file; all of it is the solution.

Line numbers are 1-based lines of the document, so that errors can point into it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from harness.errors import RequestError

FORMATS = ("markdown", "legacy", "rendered", "javascript")
DEFAULT_SEED_NAMES = ("dealFreeCell",)


@dataclass(frozen=True, slots=True)
class Hint:
    """One of the challenge's tests: what it says, and the assertion code that checks it."""

    text: str
    code: str
    line: int = 1  # document line where `code` starts


@dataclass(frozen=True, slots=True)
class ChallengeDocument:
    path: str
    format: str
    language: str  # ISO 639-1 code detected from the prose ("und" when there is none)
    solution: str | None
    solution_line: int = 1
    hints: tuple[Hint, ...] = ()
    after_test: str | None = None
    after_test_line: int = 1
    seed_code: str | None = None
    title: str | None = field(default=None, compare=False)

    @property
    def seed_names(self) -> tuple[str, ...]:
        """The names the seed code declares: what the user's solution is expected to define."""
        names = _DECLARED.findall(self.seed_code or "")
        return tuple(dict.fromkeys(names)) or DEFAULT_SEED_NAMES


_DECLARED = re.compile(r"\b(?:function|const|let|var|class)\s+([A-Za-z_$][\w$]*)")


# ------------------------------------------------------------------------------------ reading


def read_challenge(path: str | Path) -> ChallengeDocument:
    """Read a challenge document (or a `.js` file); RequestError if unreadable or not a challenge."""
    name = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise RequestError(f"{name}: cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RequestError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    return parse_challenge(text, name)


def parse_challenge(text: str, name: str = "<document>") -> ChallengeDocument:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if name.endswith((".js", ".mjs", ".cjs")):
        doc = _Parsed(solution=_Block(text.replace("\r\n", "\n"), 1))
        fmt = "javascript"
    elif any((m := _MD_MARKER.match(line)) and m[2] in ("hints", "solutions") for line in lines):
        doc, fmt = _parse_markdown(lines), "markdown"
    elif any(_LEGACY_SIGN.search(line) for line in lines):
        doc, fmt = _parse_legacy(lines), "legacy"
    else:
        doc, fmt = _parse_rendered(lines), "rendered"
    if fmt != "javascript" and doc.solution is None and not doc.hints and doc.seed is None:
        raise RequestError(f"{name}: not a freeCodeCamp challenge document (no solution, tests or seed code found)")
    prose = _prose(lines, doc)
    return ChallengeDocument(
        path=name,
        format=fmt,
        language=detect_language(prose),
        solution=doc.solution.code if doc.solution else None,
        solution_line=doc.solution.line if doc.solution else 1,
        hints=tuple(doc.hints),
        after_test=doc.after_test.code if doc.after_test else None,
        after_test_line=doc.after_test.line if doc.after_test else 1,
        seed_code=doc.seed.code if doc.seed else None,
        title=_title(lines),
    )


@dataclass(slots=True)
class _Block:
    code: str
    line: int  # document line of the code's first line
    span: tuple[int, int] = (0, 0)  # 0-based [start, stop) of the lines it came from


@dataclass(slots=True)
class _Parsed:
    solution: _Block | None = None
    hints: list[Hint] = field(default_factory=list)
    after_test: _Block | None = None
    seed: _Block | None = None


def _trimmed(lines: list[str], start: int, stop: int) -> _Block | None:
    """Lines [start, stop) without the blank lines around them; None if nothing is left."""
    while start < stop and not lines[start].strip():
        start += 1
    while stop > start and not lines[stop - 1].strip():
        stop -= 1
    if start >= stop:
        return None
    return _Block("\n".join(lines[start:stop]), start + 1, (start, stop))


_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)\s*$")


def _fenced_blocks(lines: list[str], start: int, stop: int) -> list[tuple[int, _Block | None]]:
    """The fenced code blocks in [start, stop): (index of the opening fence, its content)."""
    blocks: list[tuple[int, _Block | None]] = []
    i = start
    while i < stop:
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < stop and not (lines[j].strip().startswith(m[1]) and _FENCE.match(lines[j])):
            j += 1
        block = _trimmed(lines, i + 1, j)
        if block is not None:
            block.span = (i, min(j + 1, stop))
        blocks.append((i, block))
        i = j + 1
    return blocks


def _code(lines: list[str], start: int, stop: int) -> _Block | None:
    """The code of a section: its first fenced block, else (rendered form) all of it."""
    blocks = _fenced_blocks(lines, start, stop)
    if blocks:
        return blocks[0][1]
    return _trimmed(lines, start, stop)


def _paragraphs(lines: list[str], start: int, stop: int) -> list[_Block]:
    out: list[_Block] = []
    i = start
    while i < stop:
        if not lines[i].strip():
            i += 1
            continue
        j = i
        while j < stop and lines[j].strip():
            j += 1
        block = _trimmed(lines, i, j)
        if block is not None:
            out.append(block)
        i = j
    return out


def _clean_text(text: str) -> str:
    text = html.unescape(html.unescape(text))
    text = re.sub(r"<[^>]+>", "", text)
    text = " ".join(text.split())
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1].strip()
    return text


# ------------------------------------------------------------------------------- markdown


_MD_MARKER = re.compile(r"^\s*(#*)\s*--([a-z][a-z-]*)--\s*$")


def _sections(marks: list[tuple[int, str]], total: int) -> dict[str, tuple[int, int]]:
    """Each heading's body as (first line, stop) indices: up to the next heading; the first of a name wins."""
    sections: dict[str, tuple[int, int]] = {}
    for k, (i, name) in enumerate(marks):
        stop = marks[k + 1][0] if k + 1 < len(marks) else total
        sections.setdefault(name, (i + 1, stop))
    return sections


def _parse_markdown(lines: list[str]) -> _Parsed:
    marks = [(i, m[2]) for i, line in enumerate(lines) if (m := _MD_MARKER.match(line))]
    sections = _sections(marks, len(lines))
    doc = _Parsed()
    if "solutions" in sections:
        doc.solution = _code(lines, *sections["solutions"])
    if "after-user-code" in sections:
        doc.after_test = _code(lines, *sections["after-user-code"])
    if "seed-contents" in sections:
        doc.seed = _code(lines, *sections["seed-contents"])
    if "hints" in sections:
        doc.hints = _markdown_hints(lines, *sections["hints"])
    return doc


def _markdown_hints(lines: list[str], start: int, stop: int) -> list[Hint]:
    hints: list[Hint] = []
    blocks = _fenced_blocks(lines, start, stop)
    if blocks:
        text_from = start
        for fence, block in blocks:
            text = _trimmed(lines, text_from, fence)
            if block is not None:
                hints.append(Hint(_clean_text(text.code if text else ""), block.code, block.line))
            text_from = block.span[1] if block is not None else fence + 1
        return hints
    # Rendered form: the fences are gone, so text and code paragraphs alternate.
    paragraphs = _paragraphs(lines, start, stop)
    for text, code in zip(paragraphs[::2], paragraphs[1::2], strict=False):
        hints.append(Hint(_clean_text(text.code), code.code, code.line))
    return hints


# --------------------------------------------------------------------------------- legacy


_LEGACY_SIGN = re.compile(r"<section id=['\"](solution|tests|challengeSeed)['\"]>|^##\s+Solution\s*$")
_SECTION = re.compile(r"<(section|div) id=['\"]([\w-]+)['\"]>")
_HEADING = re.compile(r"^#{2,3}\s+(.+?)\s*$")


def _parse_legacy(lines: list[str]) -> _Parsed:
    anchors: dict[str, int] = {}
    for i, line in enumerate(lines):
        for m in _SECTION.finditer(line):
            anchors.setdefault(m[2], i)
        h = _HEADING.match(line)
        if h:
            anchors.setdefault(h[1].lower(), i)
    bounds = [*sorted(anchors.values()), len(lines)]

    def section(*names: str) -> tuple[int, int] | None:
        for name in names:
            if name in anchors:
                start = anchors[name]
                stop = next(b for b in bounds if b > start)
                return start + 1, stop
        return None

    def code_after(*names: str) -> _Block | None:
        where = section(*names)
        if where is None:
            return None
        blocks = _fenced_blocks(lines, where[0], len(lines))
        return blocks[0][1] if blocks else None

    doc = _Parsed()
    doc.solution = code_after("solution")
    doc.after_test = code_after("js-teardown", "after test")
    doc.seed = code_after("js-seed", "challenge seed")
    tests = section("tests")
    doc.hints = _yaml_hints(lines, tests[0] if tests else 0, len(lines))
    return doc


# ------------------------------------------------------------------------- YAML test lists


_ITEM = re.compile(r"^(\s*)-\s+(text|testString)\s*:\s?(.*)$")
_KEY = re.compile(r"^(\s*)(text|testString)\s*:\s?(.*)$")


def _yaml_scalar(value: str) -> str:
    """A one-line YAML scalar, read leniently (damaged quoting is kept, not rejected)."""
    v = value.strip()
    if len(v) >= 2 and v[0] == v[-1] == "'":
        return v[1:-1].replace("''", "'")
    if len(v) >= 2 and v[0] == v[-1] == '"':
        escapes = {'"': '"', "\\": "\\", "/": "/", "n": "\n", "t": "\t"}
        return re.sub(r"\\(.)", lambda m: escapes.get(m[1], m[0]), v[1:-1])
    return v


def _yaml_hints(lines: list[str], start: int, stop: int) -> list[Hint]:
    """The `- text: … / testString: …` items, wherever they are (the `tests:` key may be lost)."""
    hints: list[Hint] = []
    current: dict[str, tuple[str, int]] = {}

    def flush() -> None:
        if "testString" in current:
            code, line = current["testString"]
            text = _clean_text(current.get("text", ("", 0))[0])
            hints.append(Hint(text, code, line))
        current.clear()

    for i in range(start, stop):
        item = _ITEM.match(lines[i])
        if item:
            flush()
            current[item[2]] = (_yaml_scalar(item[3]), i + 1)
            continue
        key = _KEY.match(lines[i])
        if key and current:
            current[key[2]] = (_yaml_scalar(key[3]), i + 1)
    flush()
    return hints


# ------------------------------------------------------------------------------- rendered


_RENDERED_HEADINGS = {
    "description": "description",
    "instructions": "instructions",
    "tests": "tests",
    "challenge seed": "seed",
    "before test": "before",
    "after test": "after",
    "solution": "solution",
}


def _parse_rendered(lines: list[str]) -> _Parsed:
    marks = [
        (i, _RENDERED_HEADINGS[line.strip().lower()])
        for i, line in enumerate(lines)
        if line.strip().lower() in _RENDERED_HEADINGS and line.strip()[0].isupper()
    ]
    sections = _sections(marks, len(lines))
    doc = _Parsed()
    if "seed" in sections:
        doc.seed = _trimmed(lines, *sections["seed"])
    if "solution" in sections:
        doc.solution = _trimmed(lines, *sections["solution"])
    if "after" in sections:
        start, stop = sections["after"]
        split = None if "solution" in sections else _double_blank(lines, start, stop)
        if split is None:
            doc.after_test = _trimmed(lines, start, stop)
        else:
            # The "Solution" heading was lost: the solution follows after a double blank line.
            doc.after_test = _trimmed(lines, start, split)
            doc.solution = _trimmed(lines, split, stop)
    doc.hints = _yaml_hints(lines, 0, len(lines))
    return doc


def _double_blank(lines: list[str], start: int, stop: int) -> int | None:
    """Index of the first line after the first run of two or more blank lines inside the code."""
    seen_code = False
    i = start
    while i < stop:
        if lines[i].strip():
            seen_code = True
            i += 1
            continue
        j = i
        while j < stop and not lines[j].strip():
            j += 1
        if seen_code and j - i >= 2 and j < stop:
            return j
        i = j
    return None


# ------------------------------------------------------------------------------- language


def _prose(lines: list[str], doc: _Parsed) -> str:
    """The document's text without its code, for language detection."""
    skip: set[int] = set()
    for block in (doc.solution, doc.after_test, doc.seed):
        if block is not None:
            skip.update(range(block.line - 1, block.line - 1 + block.code.count("\n") + 1))
    kept = [line for i, line in enumerate(lines) if i not in skip and not _ITEM.match(line) and not _KEY.match(line)]
    kept += [h.text for h in doc.hints]
    return "\n".join(kept)


_STOPWORDS: dict[str, frozenset[str]] = {
    code: frozenset(words.split(" "))
    for code, words in {
        "en": "the and of to is in with this that are from for on be it as by which then first next",
        "es": "el la los las del y con una es en para por que al se esta este su como luego",
        "pt": "o os as do da dos das e com uma um não é em para pelo pela que ao se esta este são",
        "fr": "le la les des du et avec une un est dans pour par que au se cette ce sont",
        "de": "der die das und mit ein eine ist im für von zu den dem nicht auf sich",
        "it": "il lo la gli le del della e con una un è per che al si questa questo sono",
    }.items()
}
_SCRIPTS = (
    ("ja", re.compile(r"[\u3040-\u30ff]")),  # kana: Japanese even when kanji are present
    ("ko", re.compile(r"[\uac00-\ud7af]")),
    ("zh", re.compile(r"[\u4e00-\u9fff]")),
    ("ru", re.compile(r"[\u0400-\u04ff]")),
    ("ar", re.compile(r"[\u0600-\u06ff]")),
)


def detect_language(text: str) -> str:
    """ISO 639-1 code of the prose's language, by script and then by common words."""
    for code, script in _SCRIPTS:
        if len(script.findall(text)) >= 20:
            return code
    words = re.findall(r"[^\W\d_]+", text.lower())
    scores = {code: sum(1 for w in words if w in stop) for code, stop in _STOPWORDS.items()}
    best = max(scores, key=lambda code: scores[code])
    return best if scores[best] >= 3 else "und"


def _title(lines: list[str]) -> str | None:
    for line in lines[:20]:
        m = re.match(r"^title:\s*(.+?)\s*$", line)
        if m:
            return m[1]
    return None
