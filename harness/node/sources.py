"""What the Node driver is asked to load for `node:PATH[#NAME]`: the files of a JavaScript dealer.

The driver reads no files (it runs under Node's permission model), so the harness gathers a
dealer's sources here: the file itself and, followed statically, every relative file and
`node_modules` package it `require`s or `import`s.  ES modules are turned into the CommonJS
shape the driver runs, line for line (imports become `require` on the same line, exports are
assigned at the end), so that error lines stay those of the file.  A challenge document's
solution is one script.  Anything that cannot be gathered is a RequestError naming file and line.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from harness.errors import RequestError
from harness.files import read_regular
from harness.node.protocol import LoadRequest, ModuleSource

DEFAULT_NAME = "dealFreeCell"
MAX_FILE_BYTES = 8 << 20
MAX_FILES = 500
JS_SUFFIXES = (".js", ".cjs", ".mjs")
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
NODE_BUILTINS = frozenset(
    [
        "assert",
        "buffer",
        "child_process",
        "cluster",
        "console",
        "constants",
        "crypto",
        "dgram",
        "diagnostics_channel",
        "dns",
        "domain",
        "events",
        "fs",
        "http",
        "http2",
        "https",
        "inspector",
        "module",
        "net",
        "os",
        "path",
        "perf_hooks",
        "process",
        "punycode",
        "querystring",
        "readline",
        "repl",
        "stream",
        "string_decoder",
        "sys",
        "timers",
        "tls",
        "trace_events",
        "tty",
        "url",
        "util",
        "v8",
        "vm",
        "wasi",
        "worker_threads",
        "zlib",
    ]
)


@dataclass(frozen=True, slots=True)
class DealerSpec:
    """`node:PATH[#NAME]`, split: which file, which function, and whether the user named it."""

    path: str
    name: str = DEFAULT_NAME
    explicit: bool = False


def parse_node_arg(arg: str) -> DealerSpec:
    """`deck.js#dealGame` -> (deck.js, dealGame); a `#` that is part of an existing file name stays."""
    path, sep, name = arg.rpartition("#")
    if not sep or Path(arg).exists():
        return DealerSpec(arg)
    if not _NAME.fullmatch(name):
        raise RequestError(f"node:{arg}: {name!r} after '#' is not a JavaScript function name")
    return DealerSpec(path, name, explicit=True)


def read_text(path: Path, what: str = "file") -> str:
    """A source file's text; RequestError (one line) if it cannot be read, is huge, or is not UTF-8."""
    raw = read_regular(path, MAX_FILE_BYTES, what)  # a FIFO, a device or /dev/zero is refused, never read
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RequestError(f"{path}: not UTF-8 text (byte {exc.start})") from None


# ---------------------------------------------------------------------------- gathering files

_REQUIRE = re.compile(r"""\brequire\s*\(\s*(['"])([^'"\n]+)\1\s*\)""")
_FROM = re.compile(
    r"""^\s*(?:import|export)\b[^;'"]*?\bfrom\s*(['"])([^'"\n]+)\1|^\s*import\s*(['"])([^'"\n]+)\3""", re.M
)
_ESM_SYNTAX = re.compile(
    r"^\s*(?:import\s*[\w$*{'\"]|export\s+(?:default\b|async\b|function\b|const\b|let\b|var\b|class\b)|export\s*[{*])",
    re.M,
)


def gather(spec: DealerSpec) -> LoadRequest:
    """The LoadRequest for a JavaScript file and everything it requires (RequestError if any is missing)."""
    entry = Path(spec.path)
    modules: dict[str, ModuleSource] = {}
    todo = [entry]
    while todo:
        path = todo.pop()
        key = str(path)
        if key in modules:
            continue
        if len(modules) >= MAX_FILES:
            raise RequestError(f"{spec.path}: requires more than {MAX_FILES} files")
        text = read_text(path, "module" if modules else "dealer")
        requires: dict[str, str] = {}
        for line_no, specifier in _specifiers(text):
            if _is_builtin(specifier):
                continue
            target = _resolve(path, specifier)
            if target is None:
                raise RequestError(f"{path}:{line_no}: cannot find module {specifier!r} (required there)")
            requires[specifier] = str(target)
            todo.append(target)
        modules[key] = ModuleSource(key, key, _as_commonjs(path, text), 1, requires)
    ordered = (modules[str(entry)], *(m for k, m in modules.items() if k != str(entry)))
    return LoadRequest(ordered, str(entry), spec.name, spec.explicit)


def script_request(source: str, filename: str, line: int, name: str = DEFAULT_NAME) -> LoadRequest:
    """A LoadRequest for one script (a challenge document's solution) whose first line is `line`."""
    return LoadRequest((ModuleSource(filename, filename, source, line),), filename, name)


def _specifiers(text: str) -> list[tuple[int, str]]:
    code = _strip_comments(text)
    found: list[tuple[int, str]] = []
    for m in _REQUIRE.finditer(code):
        found.append((code.count("\n", 0, m.start()) + 1, m[2]))
    for m in _FROM.finditer(code):
        found.append((code.count("\n", 0, m.start()) + 1, m[2] or m[4]))
    return found


def _strip_comments(text: str) -> str:
    """Comments blanked out (newlines kept), so that a require in a comment is not followed."""

    def blank(m: re.Match[str]) -> str:
        s = m[0]
        if s.startswith(("'", '"', "`")):
            return s
        return re.sub(r"[^\n]", " ", s)

    return re.sub(r"""'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`|//[^\n]*|/\*[\s\S]*?\*/""", blank, text)


def _is_builtin(specifier: str) -> bool:
    return specifier.startswith("node:") or specifier.split("/")[0] in NODE_BUILTINS


def _resolve(importer: Path, specifier: str) -> Path | None:
    if specifier.startswith(("./", "../", "/")) or specifier in (".", ".."):
        return _as_file_or_dir(importer.parent / specifier)
    for base in (importer.parent, *importer.parent.parents):
        candidate = base / "node_modules" / specifier
        found = _as_file_or_dir(candidate)
        if found is not None:
            return found
    return None


def _as_file_or_dir(base: Path) -> Path | None:
    for candidate in (base, *(base.with_name(base.name + s) for s in (*JS_SUFFIXES, ".json"))):
        if candidate.is_file():
            return candidate
    if base.is_dir():
        package = base / "package.json"
        if package.is_file():
            try:
                main = json.loads(read_text(package, "package.json")).get("main")
            except ValueError:
                main = None
            if isinstance(main, str):
                found = _as_file_or_dir(base / main)
                if found is not None:
                    return found
        for index in ("index.js", "index.cjs", "index.mjs", "index.json"):
            if (base / index).is_file():
                return base / index
    return None


# ---------------------------------------------------------------------------- ES modules


def is_es_module(path: Path, text: str) -> bool:
    if path.suffix == ".mjs":
        return True
    if path.suffix == ".cjs":
        return False
    here = path.parent.resolve()
    for base in (here, *here.parents):
        package = base / "package.json"
        if package.is_file():
            try:
                kind = json.loads(package.read_text(encoding="utf-8")).get("type")
            except (OSError, ValueError, AttributeError):
                kind = None
            if kind == "module":
                return True
            break
    return bool(_ESM_SYNTAX.search(_strip_comments(text)))


def _as_commonjs(path: Path, text: str) -> str:
    if text.startswith("#!"):
        text = "//" + text[2:]
    if path.suffix == ".json":
        return f"module.exports = {text.strip() or 'null'};"
    if not is_es_module(path, text):
        return text
    return esm_to_commonjs(text)


_IMPORT_FROM = re.compile(r"""^([ \t]*)import\s+([\w$\s{},*]+?)\s*from\s*(['"])([^'"\n]+)\3[ \t]*;?""", re.M)
_IMPORT_BARE = re.compile(r"""^([ \t]*)import\s*(['"])([^'"\n]+)\2[ \t]*;?""", re.M)
_EXPORT_FROM = re.compile(
    r"""^([ \t]*)export\s*(\*\s*(?:as\s+[\w$]+\s*)?|\{[^}]*\}\s*)from\s*(['"])([^'"\n]+)\3[ \t]*;?""", re.M
)
_EXPORT_LIST = re.compile(r"^([ \t]*)export\s*\{([^}]*)\}[ \t]*;?", re.M)
_EXPORT_DEFAULT_DECL = re.compile(
    r"^([ \t]*)export\s+default\s+((?:async\s+)?function\s*\*?\s*([\w$]+)|class\s+([\w$]+))", re.M
)
_EXPORT_DEFAULT = re.compile(r"^([ \t]*)export\s+default\s+", re.M)
_EXPORT_DECL = re.compile(
    r"^([ \t]*)export\s+((?:async\s+)?function\s*\*?\s*([\w$]+)|class\s+([\w$]+)|(?:const|let|var)\s+([\w$]+))", re.M
)


def _same_lines(original: str, replacement: str) -> str:
    """`replacement` padded with the newlines `original` spanned, so that later lines keep their numbers."""
    return replacement + "\n" * original.count("\n")


def _bindings(clause: str, module: str) -> str:
    """`X, { a, b as c }` / `* as ns` -> the right-hand sides of a `const` declaration."""
    parts: list[str] = []
    clause = clause.strip()
    named = re.search(r"\{([^}]*)\}", clause)
    rest = re.sub(r"\{[^}]*\}", "", clause).strip().strip(",").strip()
    for item in filter(None, (p.strip() for p in rest.split(","))):
        ns = re.fullmatch(r"\*\s*as\s+([\w$]+)", item)
        parts.append(f"{ns[1]} = {module}" if ns else f"{item} = __fcDefault({module})")
    if named:
        pairs = []
        for item in filter(None, (p.strip() for p in named[1].split(","))):
            m = re.fullmatch(r"([\w$]+)\s+as\s+([\w$]+)", item)
            pairs.append(f"{m[1]}: {m[2]}" if m else item)
        parts.append("{ " + ", ".join(pairs) + " } = " + module)
    return ", ".join(parts)


def esm_to_commonjs(text: str) -> str:
    """An ES module's text in CommonJS shape, every line where it was."""
    exported: list[tuple[str, str]] = []  # (export name, local name)
    counter = iter(range(1, 1 << 30))

    def import_from(m: re.Match[str]) -> str:
        module = f"__fcImport{next(counter)}"
        bindings = _bindings(m[2], module)
        decl = f"const {module} = require({m[3]}{m[4]}{m[3]});" + (f" const {bindings};" if bindings else "")
        return _same_lines(m[0], m[1] + decl)

    def export_from(m: re.Match[str]) -> str:
        source = f"require({m[3]}{m[4]}{m[3]})"
        what = m[2].strip()
        if what.startswith("*"):
            ns = re.search(r"as\s+([\w$]+)", what)
            code = f"exports.{ns[1]} = {source};" if ns else f"__fcReexport(exports, {source});"
        else:
            module = f"__fcImport{next(counter)}"
            assigns = []
            for item in filter(None, (p.strip() for p in what.strip("{} ").split(","))):
                pair = re.fullmatch(r"([\w$]+)\s+as\s+([\w$]+)", item)
                local, name = (pair[1], pair[2]) if pair else (item, item)
                assigns.append(f"exports.{name} = {module}.{local};")
            code = f"{{ const {module} = {source}; {' '.join(assigns)} }}"
        return _same_lines(m[0], m[1] + code)

    def export_list(m: re.Match[str]) -> str:
        for item in filter(None, (p.strip() for p in m[2].split(","))):
            pair = re.fullmatch(r"([\w$]+)\s+as\s+([\w$]+)", item)
            exported.append((pair[2], pair[1]) if pair else (item, item))
        return _same_lines(m[0], m[1])

    def export_default_decl(m: re.Match[str]) -> str:
        exported.append(("default", m[3] or m[4]))
        return m[1] + m[2]

    def export_decl(m: re.Match[str]) -> str:
        name = m[3] or m[4] or m[5]
        exported.append((name, name))
        return m[1] + m[2]

    code = text.replace("import.meta", "({ url: 'file://' + __filename })")
    code = _EXPORT_FROM.sub(export_from, code)
    code = _IMPORT_FROM.sub(import_from, code)
    code = _IMPORT_BARE.sub(lambda m: _same_lines(m[0], f"{m[1]}require({m[2]}{m[3]}{m[2]});"), code)
    code = _EXPORT_LIST.sub(export_list, code)
    code = _EXPORT_DEFAULT_DECL.sub(export_default_decl, code)
    code = _EXPORT_DEFAULT.sub(lambda m: m[1] + "exports.default = ", code)
    code = _EXPORT_DECL.sub(export_decl, code)
    assigns = " ".join(f"exports.{name} = {local};" for name, local in exported)
    helpers = (
        "function __fcDefault(m) { return m && m.__esModule ? m.default : m; } "
        "function __fcReexport(to, from) { for (const k of Object.keys(from)) if (k !== 'default') to[k] = from[k]; }"
    )
    return (
        f"'use strict'; Object.defineProperty(exports, '__esModule', {{ value: true }}); {code}\n;{assigns} {helpers}"
    )
