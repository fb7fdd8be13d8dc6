"""Reading freeCodeCamp challenge documents: solutions, hints, hooks and after-test code.

Layouts recognised (`ChallengeDocument.format`), as freeCodeCamp's own parser reads them:

- ``markdown-2025``: the current curriculum files: ``# --hints--``, ``# --solutions--`` and
  hook sections ``# --before-all--``, ``# --before-each--``, ``# --after-each--``,
  ``# --after-all--`` that define what the hints use (e.g. ``game1``);
- ``markdown``: the 2020-24 files (``# --hints--``, ``# --seed--``, ``## --before-user-code--``,
  ``## --after-user-code--``, ``## --seed-contents--``, ``# --solutions--``), and their rendered
  form where the markers lose their ``#`` and the code its fences;
- ``legacy``: the 2018-19 files, with a YAML ``tests:`` list (``text``/``testString``),
  ``<section id='solution'>`` and ``### After Test`` / ``<div id='js-teardown'>``;
- ``arcade``: the 2017 arcade-mode JavaScript files with ``/// title:``, ``/// challengeSeed:``,
  ``/// solutions:``, ``/// tail:`` and ``/// tests:`` (one assertion a line) comment sections;
- ``html``: a rendered HTML page (code in ``<pre><code>``, entities decoded), read as markdown;
- ``rendered``: text copies whose headings are plain words ("Tests", "Challenge Seed",
  "After Test", "Solution") and whose code is unfenced, read leniently when damaged;
- ``javascript``: a plain ``.js``/``.cjs``/``.mjs`` file; all of it is the solution.

``# --solutions--`` may hold several solutions separated by ``---`` lines: each is judged.
Line numbers are 1-based lines of the document, so that errors can point into it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from harness.challenge.language import detect_language
from harness.challenge.names import declared_names, keyword_declared_names
from harness.errors import RequestError
from harness.files import read_regular

FORMATS = ("markdown-2025", "markdown", "legacy", "arcade", "html", "rendered", "javascript")
DEFAULT_SEED_NAMES = ("dealFreeCell",)
MAX_DOCUMENT_BYTES = 4 << 20  # a challenge document is a few KiB; more is not one (or is /dev/zero)
HOOKS = ("before_all", "before_each", "before_user", "after_user", "after_each", "after_all")


@dataclass(frozen=True, slots=True)
class Hint:
    """One of the challenge's tests: what it says, and the assertion code that checks it."""

    text: str
    code: str
    line: int = 1  # document line where `code` starts


@dataclass(frozen=True, slots=True)
class Code:
    """A piece of the document's code and the document line of its first line."""

    code: str
    line: int = 1


@dataclass(frozen=True, slots=True)
class ChallengeDocument:
    path: str
    format: str
    language: str  # ISO 639-1 code detected from the prose ("und" when unsure)
    solutions: tuple[Code, ...] = ()
    hints: tuple[Hint, ...] = ()
    hooks: dict[str, Code] = field(default_factory=dict)  # keys from HOOKS
    seed: Code | None = None
    title: str | None = field(default=None, compare=False)

    @property
    def solution(self) -> str | None:
        return self.solutions[0].code if self.solutions else None

    @property
    def solution_line(self) -> int:
        return self.solutions[0].line if self.solutions else 1

    @property
    def after_test(self) -> str | None:
        hook = self.hooks.get("after_user")
        return hook.code if hook else None

    @property
    def after_test_line(self) -> int:
        hook = self.hooks.get("after_user")
        return hook.line if hook else 1

    @property
    def seed_code(self) -> str | None:
        return self.seed.code if self.seed else None

    @property
    def seed_names(self) -> tuple[str, ...]:
        """The names the seed code declares: what the user's solution is expected to define."""
        names = keyword_declared_names(self.seed_code or "")
        return tuple(dict.fromkeys(names)) or DEFAULT_SEED_NAMES

    @property
    def defined_names(self) -> tuple[str, ...]:
        """Every name some code of the document declares or assigns at its top (hooks, seed,
        solutions, hints): a hint that fails on a name outside these can never pass."""
        blocks = [
            *(c.code for c in self.solutions),
            *(h.code for h in self.hooks.values()),
            *(h.code for h in self.hints),
        ]
        blocks.append(self.seed_code or "")
        names: dict[str, None] = dict.fromkeys(DEFAULT_SEED_NAMES)
        for code in blocks:
            names.update(dict.fromkeys(declared_names(code)))
        return tuple(names)


# ------------------------------------------------------------------------------------ reading


def read_challenge(path: str | Path) -> ChallengeDocument:
    """Read a challenge document (or a `.js` file); RequestError if unreadable or not a challenge."""
    name = str(path)
    raw = read_regular(path, MAX_DOCUMENT_BYTES, "document")  # a FIFO or /dev/zero is no challenge
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RequestError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    return parse_challenge(text, name)


def parse_challenge(text: str, name: str = "<document>") -> ChallengeDocument:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    line_of = list(range(1, len(lines) + 1))  # document line of each line that is parsed
    if name.endswith((".js", ".mjs", ".cjs")) and not _ARCADE_SIGN.search(text):
        doc, fmt = _Parsed(solutions=[_Block(text, 1)]), "javascript"
    elif _ARCADE_SIGN.search(text):
        doc, fmt = _parse_arcade(lines), "arcade"
    else:
        if _is_html_page(text):
            lines, line_of = _html_lines(text)
            fmt = "html"
        else:
            fmt = ""
        if any((m := _MD_MARKER.match(line)) and m[2] in ("hints", "solutions") for line in lines):
            doc = _parse_markdown(lines)
            fmt = fmt or ("markdown-2025" if any(k in doc.hooks for k in ("before_each", "before_all")) else "markdown")
        elif any(_LEGACY_SIGN.search(line) for line in lines):
            doc, fmt = _parse_legacy(lines), fmt or "legacy"
        else:
            doc, fmt = _parse_rendered(lines), fmt or "rendered"
    if fmt != "javascript" and not doc.solutions and not doc.hints and doc.seed is None:
        raise RequestError(f"{name}: not a freeCodeCamp challenge document (no solution, tests or seed code found)")
    prose = _prose(lines, doc)

    def at(block: _Block) -> Code:
        return Code(block.code, line_of[block.line - 1] if block.line - 1 < len(line_of) else block.line)

    return ChallengeDocument(
        path=name,
        format=fmt,
        language=detect_language(prose),
        solutions=tuple(at(b) for b in doc.solutions),
        hints=tuple(
            Hint(h.text, h.code, line_of[h.line - 1] if h.line - 1 < len(line_of) else h.line) for h in doc.hints
        ),
        hooks={k: at(b) for k, b in doc.hooks.items()},
        seed=at(doc.seed) if doc.seed else None,
        title=_title(lines),
    )


@dataclass(slots=True)
class _Block:
    code: str
    line: int  # document line of the code's first line
    span: tuple[int, int] = (0, 0)  # 0-based [start, stop) of the lines it came from


@dataclass(slots=True)
class _Parsed:
    solutions: list[_Block] = field(default_factory=list)
    hints: list[Hint] = field(default_factory=list)
    hooks: dict[str, _Block] = field(default_factory=dict)
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


_MD_HOOKS = {
    "before-all": "before_all",
    "before-each": "before_each",
    "before-user-code": "before_user",
    "after-user-code": "after_user",
    "after-each": "after_each",
    "after-all": "after_all",
}


def _parse_markdown(lines: list[str]) -> _Parsed:
    marks = [(i, m[2]) for i, line in enumerate(lines) if (m := _MD_MARKER.match(line))]
    sections = _sections(marks, len(lines))
    doc = _Parsed()
    if "solutions" in sections:
        doc.solutions = _solutions(lines, *sections["solutions"])
    for marker, hook in _MD_HOOKS.items():
        if marker in sections:
            block = _code(lines, *sections[marker])
            if block is not None:
                doc.hooks[hook] = block
    if "seed-contents" in sections:
        doc.seed = _code(lines, *sections["seed-contents"])
    if "hints" in sections:
        doc.hints = _markdown_hints(lines, *sections["hints"])
    return doc


_SEPARATOR = re.compile(r"^\s*---\s*$")


def _solutions(lines: list[str], start: int, stop: int) -> list[_Block]:
    """Each solution of a `--solutions--` section: parts separated by `---` lines outside code."""
    parts: list[tuple[int, int]] = []
    first = start
    fence: str | None = None
    for i in range(start, stop):
        m = _FENCE.match(lines[i])
        if m and (fence is None or lines[i].strip().startswith(fence)):
            fence = None if fence is not None else m[1]
        elif fence is None and _SEPARATOR.match(lines[i]):
            parts.append((first, i))
            first = i + 1
    parts.append((first, stop))
    found = [_code(lines, a, b) for a, b in parts]
    return [b for b in found if b is not None]


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
    doc.solutions = _legacy_solutions(lines, section("solution"))
    for hook, names in (("before_user", ("js-setup", "before test")), ("after_user", ("js-teardown", "after test"))):
        block = code_after(*names)
        if block is not None:
            doc.hooks[hook] = block
    doc.seed = code_after("js-seed", "challenge seed")
    tests = section("tests")
    doc.hints = _yaml_hints(lines, tests[0] if tests else 0, len(lines))
    return doc


def _legacy_solutions(lines: list[str], where: tuple[int, int] | None) -> list[_Block]:
    """The fenced blocks of the solution section, up to its `</section>`: one solution each."""
    if where is None:
        return []
    start = where[0]
    end = next((i for i in range(start, len(lines)) if "</section>" in lines[i]), len(lines))
    return [b for _, b in _fenced_blocks(lines, start, end) if b is not None]


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
    solution = _trimmed(lines, *sections["solution"]) if "solution" in sections else None
    if "before" in sections:
        before = _trimmed(lines, *sections["before"])
        if before is not None:
            doc.hooks["before_user"] = before
    if "after" in sections:
        start, stop = sections["after"]
        split = None if "solution" in sections else _double_blank(lines, start, stop)
        after = _trimmed(lines, start, stop if split is None else split)
        if split is not None:
            # The "Solution" heading was lost: the solution follows after a double blank line.
            solution = _trimmed(lines, split, stop)
        if after is not None:
            doc.hooks["after_user"] = after
    doc.solutions = [solution] if solution is not None else []
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


# --------------------------------------------------------------------------------- arcade

_ARCADE_SIGN = re.compile(r"^///\s*(?:challengeSeed|solutions|tests)\s*:", re.M)
_ARCADE_KEY = re.compile(r"^///\s*([A-Za-z]+)\s*:(.*)$")
_ARCADE_MESSAGE = re.compile(r"""['"`]message:\s*(.*?)['"`]\s*\)\s*;?\s*$""")


def _parse_arcade(lines: list[str]) -> _Parsed:
    """2017 arcade-mode files: `/// key:` lines open sections; `/// tests:` has one assertion a line."""
    keys = [(i, m[1]) for i, line in enumerate(lines) if (m := _ARCADE_KEY.match(line))]
    sections = _sections(keys, len(lines))
    doc = _Parsed()
    if "solutions" in sections:
        block = _trimmed(lines, *sections["solutions"])
        if block is not None:
            doc.solutions = [block]
    if "tail" in sections:
        tail = _trimmed(lines, *sections["tail"])
        if tail is not None:
            doc.hooks["after_user"] = tail
    if "head" in sections:
        head = _trimmed(lines, *sections["head"])
        if head is not None:
            doc.hooks["before_user"] = head
    if "challengeSeed" in sections:
        doc.seed = _trimmed(lines, *sections["challengeSeed"])
    if "tests" in sections:
        start, stop = sections["tests"]
        for i in range(start, stop):
            code = lines[i].strip()
            if not code or code.startswith("//"):
                continue
            m = _ARCADE_MESSAGE.search(code)
            doc.hints.append(Hint(_clean_text(m[1]) if m else "", code, i + 1))
    return doc


# ----------------------------------------------------------------------------------- html

_HTML_SIGN = re.compile(r"<(?:!doctype|html|body)\b|<pre\b[^>]*>\s*<code\b", re.I)


def _is_html_page(text: str) -> bool:
    """A rendered page: an HTML document, or `<pre><code>` blocks and no markdown fences or markers."""
    if re.search(r"<(?:!doctype|html|body)\b", text, re.I):
        return True
    return bool(_HTML_SIGN.search(text)) and "```" not in text and not _MD_MARKER_ANY.search(text)


_MD_MARKER_ANY = re.compile(r"^\s*#*\s*--(?:hints|solutions|seed)--\s*$", re.M)
_HTML_CODE = re.compile(r"<pre\b[^>]*>\s*(?:<code\b[^>]*>)?([\s\S]*?)(?:</code>\s*)?</pre>", re.I)
_HTML_HEADING = re.compile(r"<h([1-6])\b[^>]*>([\s\S]*?)</h\1>", re.I)
_HTML_BREAK = re.compile(r"</?(?:p|div|li|ul|ol|section|br|tr|table|blockquote)\b[^>]*>", re.I)
_HEADING_MARKERS = {
    "description": "# --description--",
    "instructions": "# --instructions--",
    "hints": "# --hints--",
    "tests": "# --hints--",
    "seed": "# --seed--",
    "challenge seed": "# --seed--",
    "before all": "# --before-all--",
    "before each": "# --before-each--",
    "after each": "# --after-each--",
    "after all": "# --after-all--",
    "before user code": "## --before-user-code--",
    "after user code": "## --after-user-code--",
    "after test": "## --after-user-code--",
    "seed contents": "## --seed-contents--",
    "solution": "# --solutions--",
    "solutions": "# --solutions--",
}


def _html_lines(text: str) -> tuple[list[str], list[int]]:
    """A rendered HTML page as markdown lines (headings as markers, `<pre>` as fenced code, entities
    decoded), with the page's line number of each, so that errors still point into the page."""
    out: list[str] = []
    line_of: list[int] = []
    pos = 0
    line = 1

    def emit(chunk: str, first_line: int, *, code: bool) -> None:
        if code:
            body = html.unescape(re.sub(r"<[^>]+>", "", chunk))
            body = body[1:] if body.startswith("\n") else body
            out.append("```js")
            line_of.append(first_line)
            start = first_line + (1 if chunk.startswith("\n") else 0)
            for k, piece in enumerate(body.rstrip("\n").split("\n")):
                out.append(piece)
                line_of.append(start + k)
            out.append("```")
            line_of.append(first_line + chunk.count("\n"))
            return
        chunk = _HTML_HEADING.sub(lambda m: "\n" + _heading_marker(m[2]) + "\n", chunk)
        chunk = _HTML_BREAK.sub("\n", chunk)
        for k, piece in enumerate(chunk.split("\n")):
            cleaned = html.unescape(re.sub(r"<[^>]+>", "", piece)).strip()
            out.append(cleaned)
            line_of.append(first_line + min(k, chunk.count("\n")))

    for m in _HTML_CODE.finditer(text):
        emit(text[pos : m.start()], line, code=False)
        line += text.count("\n", pos, m.start(1))
        emit(m[1], line, code=True)
        line += m[1].count("\n") + text.count("\n", m.end(1), m.end())
        pos = m.end()
    emit(text[pos:], line, code=False)
    return out, line_of


def _heading_marker(inner: str) -> str:
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", "", inner)).split())
    key = words.strip("-# ").replace("-", " ").lower()
    return _HEADING_MARKERS.get(key, words)


# ------------------------------------------------------------------------------- language


def _prose(lines: list[str], doc: _Parsed) -> str:
    """The document's text without its code, for language detection."""
    skip: set[int] = set()
    for block in (*doc.solutions, *doc.hooks.values(), doc.seed):
        if block is not None:
            skip.update(range(block.line - 1, block.line - 1 + block.code.count("\n") + 1))
    for hint in doc.hints:
        skip.update(range(hint.line - 1, hint.line - 1 + hint.code.count("\n") + 1))
    kept = [line for i, line in enumerate(lines) if i not in skip and not _ITEM.match(line) and not _KEY.match(line)]
    kept += [h.text for h in doc.hints]
    return "\n".join(kept)


def _title(lines: list[str]) -> str | None:
    for line in lines[:20]:
        m = re.match(r"^title:\s*(.+?)\s*$", line)
        if m:
            return m[1]
    return None
