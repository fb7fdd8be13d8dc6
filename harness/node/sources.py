"""What the Node driver is asked to load for `node:PATH[#NAME]`: the files of a JavaScript (or
TypeScript) dealer.

The driver reads no files (it runs under Node's permission model), so the harness gathers a dealer's
sources here: the file itself and, followed statically, every relative file and `node_modules`
package it `require`s or `import`s (and, for TypeScript, every tsconfig `paths` alias).  Gathering
is confined to the dealer's own tree (DealerTree: its package root, or without a package.json the
working directory it lies under, and the node_modules above it), with symlinks resolved before
deciding: whatever leads elsewhere is a RequestError naming the path, and nothing there is read.
TypeScript is made JavaScript by typescript.py.  ES modules are turned into the CommonJS shape the
driver runs, line for line (imports become `require` on the same line, exports are assigned at the
end), so that error lines stay those of the file.  A challenge document's solution is one script.
Anything that cannot be gathered is a RequestError naming file and line.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from harness.errors import RequestError
from harness.files import read_regular
from harness.node.protocol import LoadRequest, ModuleSource
from harness.node.typescript import TS_SUFFIXES, TsConfig, TsSource, read_tsconfig, transpile

DEFAULT_NAME = "dealFreeCell"
MAX_FILE_BYTES = 8 << 20
MAX_FILES = 500
JS_SUFFIXES = (".js", ".cjs", ".mjs")
SOURCE_SUFFIXES = (*JS_SUFFIXES, *TS_SUFFIXES)  # what `node:` loads as modules (anything else: a challenge document)
JSX_SUFFIXES = (".jsx", ".tsx")  # refused: JSX needs a UI library to run
_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")  # `deal`, or a path to it: `Game.deal`
NODE_BUILTINS = frozenset(
    [
        "assert",
        "async_hooks",
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
        "test",
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
    """`deck.js#dealGame` -> (deck.js, dealGame), `deck.js#Game.deal` -> (deck.js, Game.deal); a `#`
    that is part of an existing file name stays."""
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
    """The LoadRequest for a JavaScript or TypeScript file and everything it requires (RequestError
    if any is missing, lies outside the dealer's tree, or is TypeScript that does not parse)."""
    found, tree, real_entry = _found_files(spec)
    _transpile_typescript(found, tree)
    modules = {
        real: ModuleSource(g.name, g.name, _as_commonjs(real, g.text, tree, g.es_module), 1, g.requires)
        for real, g in found.items()
    }
    ordered = (modules[real_entry], *(m for k, m in modules.items() if k != real_entry))
    return LoadRequest(ordered, spec.path, spec.name, spec.explicit)


def source_files(spec: DealerSpec) -> list[Path]:
    """The files a JavaScript or TypeScript dealer is made of: the file and everything it requires,
    found as `gather` finds them (nothing transpiled); RequestError as there."""
    return list(_found_files(spec)[0])


def _found_files(spec: DealerSpec) -> tuple[dict[Path, _Gathered], DealerTree, Path]:
    """Every file the dealer requires, by real path (a file reached twice is one module), with the
    dealer's tree and the entry's real path."""
    entry = Path(spec.path)
    real_entry = entry.resolve()
    tree = DealerTree.of(real_entry)
    found: dict[Path, _Gathered] = {}
    names: dict[Path, str] = {real_entry: spec.path}
    todo = [real_entry]
    while todo:
        real = todo.pop()
        if real in found:
            continue
        if len(found) >= MAX_FILES:
            raise RequestError(f"{spec.path}: requires more than {MAX_FILES} files")
        name = names[real]
        text = read_text(Path(name), "module" if found else "dealer")
        typescript = real.suffix in TS_SUFFIXES
        gathered = _Gathered(name, text, {}, {})
        for line_no, specifier in _specifiers(text, typescript=typescript):
            if _is_builtin(specifier) or specifier in gathered.requires:
                continue
            try:
                target = _resolve(real, specifier, tree)
            except _NoFile as bad:
                raise RequestError(f"{name}:{line_no}: {specifier!r} names no file: {bad.why} at {bad.path}") from None
            except _Outside as out:
                raise RequestError(
                    f"{name}:{line_no}: {specifier!r} leads to {out.path}, outside the dealer's tree "
                    f"({tree.root}): a dealer may load only files under its tree (its package.json's folder, else the "
                    "working directory it lies under, else its own folder) and its node_modules"
                ) from None
            if target is None:
                if not typescript:
                    raise RequestError(f"{name}:{line_no}: cannot find module {specifier!r} (required there)")
                gathered.unresolved.setdefault(specifier, line_no)  # perhaps an import of types only
                continue
            names.setdefault(target, _display(target))
            gathered.requires[specifier] = names[target]
            todo.append(target)
        found[real] = gathered
    return found, tree, real_entry


@dataclass(slots=True)
class _Gathered:
    """A file being gathered: its text (JavaScript once transpiled), what it requires and, for
    TypeScript, the specifiers not found (an error only if the JavaScript still imports them)."""

    name: str
    text: str
    requires: dict[str, str]
    unresolved: dict[str, int]
    es_module: bool | None = None  # None: as its suffix, package.json or syntax say


def _transpile_typescript(found: dict[Path, _Gathered], tree: DealerTree) -> None:
    """Every TypeScript file's text replaced by its JavaScript, all in one run of the compiler."""
    typescript = [(real, g) for real, g in found.items() if real.suffix in TS_SUFFIXES]
    sources = [TsSource(g.name, g.text, tree.tsconfig(real.parent).emit_options()) for real, g in typescript]
    for (_, gathered), source, code in zip(typescript, sources, transpile(sources), strict=True):
        gathered.text = code
        gathered.es_module = not source.commonjs
        still = {specifier for _, specifier in _specifiers(code)}
        for specifier, line_no in gathered.unresolved.items():
            if specifier in still:
                raise RequestError(f"{gathered.name}:{line_no}: cannot find module {specifier!r} (required there)")


@dataclass(frozen=True, slots=True)
class DealerTree:
    """Where a dealer's files may come from, as real paths: its root and the node_modules folders
    above that root, where Node finds installed packages.  The root is the nearest folder above the
    entry with a package.json; without one, the working directory when the entry lies under it (a
    project run from its top: `src/deck.js` may require `../utils/srand`), else the entry's own
    folder.  Neither the filesystem's root nor the home folder (or a folder above it) is ever a
    dealer's root: a stray package.json there, or a run from there, does not open the whole disk."""

    root: Path
    module_dirs: tuple[Path, ...]
    configs: dict[Path, TsConfig] = field(default_factory=dict, compare=False, hash=False)  # by folder

    @classmethod
    def of(cls, real_entry: Path) -> DealerTree:
        here = real_entry.parent
        try:
            home: Path | None = Path.home().resolve()
        except (RuntimeError, KeyError):
            home = None

        def may_be_root(folder: Path) -> bool:
            return folder != Path(folder.anchor) and (home is None or folder not in (home, *home.parents))

        packaged = next((d for d in (here, *here.parents) if (d / "package.json").is_file()), None)
        if packaged is not None and may_be_root(packaged):
            root = packaged
        else:
            try:
                cwd: Path | None = Path.cwd().resolve()
            except OSError:  # the working directory was removed
                cwd = None
            under_cwd = cwd is not None and here.is_relative_to(cwd) and may_be_root(cwd)
            root = cwd if under_cwd and cwd is not None else here
        return cls(root, tuple(d / "node_modules" for d in root.parents))

    def holds(self, real: Path) -> bool:
        return real.is_relative_to(self.root) or any(real.is_relative_to(d) for d in self.module_dirs)

    def tsconfig(self, folder: Path) -> TsConfig:
        """The tsconfig.json nearest above `folder` (a real path) within the tree, or an empty one."""
        if folder not in self.configs:
            self.configs[folder] = self._find_tsconfig(folder)
        return self.configs[folder]

    def _find_tsconfig(self, folder: Path) -> TsConfig:
        for here in (folder, *folder.parents):
            config = (here / "tsconfig.json").resolve()
            if self.holds(config) and config.is_file():
                return read_tsconfig(config, self.holds)
            if here == self.root or not self.holds(here):
                break
        return TsConfig()


class _Outside(Exception):
    def __init__(self, path: Path) -> None:
        super().__init__(str(path))
        self.path = path


class _NoFile(_Outside):
    """A path that can name no file: a symlink loop, or a NUL in the name."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(path)
        self.why = why


def _inside(path: Path, tree: DealerTree) -> Path:
    """`path` with every symlink resolved, if it lies in the dealer's tree; else _Outside.
    Nothing outside is opened, and nothing is tried there (not even whether it exists)."""
    if "\0" in str(path):
        raise _NoFile(path, "a NUL in the name")  # Path would raise ValueError
    try:
        real = path.resolve()
    except (RuntimeError, OSError):
        raise _NoFile(path, "a symlink loop") from None
    if not tree.holds(real):
        raise _Outside(real)
    return real


def _display(real: Path) -> str:
    """How a gathered file is named in messages: relative to the working folder when under it."""
    try:
        return str(real.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(real)


def script_request(source: str, filename: str, line: int, name: str = DEFAULT_NAME) -> LoadRequest:
    """A LoadRequest for one script (a challenge document's solution) whose first line is `line`."""
    return LoadRequest((ModuleSource(filename, filename, source, line),), filename, name)


def _specifiers(text: str, *, typescript: bool = False) -> list[tuple[int, str]]:
    """(line, specifier) of every require and static import; for TypeScript, not `import type`."""
    code = _strip_comments(text)
    found: list[tuple[int, str]] = []
    for m in _REQUIRE.finditer(code):
        found.append((code.count("\n", 0, m.start()) + 1, m[2]))
    for m in _FROM.finditer(code):
        if typescript and _TYPE_ONLY.match(m[0]):
            continue
        found.append((code.count("\n", 0, m.start()) + 1, m[2] or m[4]))
    return sorted(found)


_TYPE_ONLY = re.compile(r"\s*(?:import|export)\s+type\s*[\w${*]")


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


def _resolve(importer: Path, specifier: str, tree: DealerTree) -> Path | None:
    """The real path `specifier` names from the file `importer` (a real path) as Node finds it
    (and TypeScript: `paths` aliases, `./x.js` meaning `./x.ts`), or None."""
    if specifier.startswith(("./", "../", "/")) or specifier in (".", ".."):
        return _as_file_or_dir(Path(os.path.normpath(importer.parent / specifier)), tree)
    for alias in tree.tsconfig(importer.parent).aliases(specifier):
        found = _as_file_or_dir(Path(os.path.normpath(alias)), tree)
        if found is not None:
            return found
    package, subpath = _package_and_subpath(specifier)
    for base in (importer.parent, *importer.parent.parents):
        if base.name == "node_modules":
            continue
        modules = base / "node_modules"
        try:
            if not tree.holds(modules.resolve()):
                continue  # a node_modules above the package root's own ones: not the dealer's
        except (RuntimeError, OSError):
            continue
        exported = _exported(Path(os.path.normpath(modules / package)), subpath, tree)
        if exported is not _NO_EXPORTS:
            return exported  # a package with "exports" is loaded only by them
        found = _as_file_or_dir(Path(os.path.normpath(modules / specifier)), tree)
        if found is not None:
            return found
    return None


def _package_and_subpath(specifier: str) -> tuple[str, str]:
    """`@scope/name/a/b` -> (`@scope/name`, `./a/b`); `name` -> (`name`, `.`)."""
    parts = specifier.split("/")
    size = 2 if specifier.startswith("@") else 1
    rest = "/".join(parts[size:])
    return "/".join(parts[:size]), f"./{rest}" if rest else "."


_NO_EXPORTS = Path("/nonexistent/no-exports")  # a package.json without "exports" (resolve as files)
# the conditions of `require()`, then (for a package only for `import`) those of `import`
_CONDITIONS = (("require", "node", "default"), ("import", "node", "default"))


def _exported(package_dir: Path, subpath: str, tree: DealerTree) -> Path | None:
    """The file a package's "exports" field gives for `subpath`; None when they name none;
    _NO_EXPORTS when the package has no "exports" (or no package.json)."""
    package_json = _inside(package_dir / "package.json", tree)
    if not package_json.is_file():
        return _NO_EXPORTS
    try:
        exports = json.loads(read_text(package_json, "package.json")).get("exports")
    except (ValueError, AttributeError):
        return _NO_EXPORTS
    if exports is None:
        return _NO_EXPORTS
    if not (isinstance(exports, dict) and any(str(k).startswith(".") for k in exports)):
        exports = {".": exports}
    target: object = None
    if subpath in exports:
        target = exports[subpath]
    else:
        for key, value in exports.items():
            head, star, tail = str(key).partition("*")
            if star and subpath.startswith(head) and subpath.endswith(tail) and len(subpath) >= len(head + tail):
                target = _substitute(value, subpath[len(head) : len(subpath) - len(tail)])
                break
    for conditions in _CONDITIONS:
        chosen = _condition(target, conditions)
        if chosen is not None:
            real = _inside(Path(os.path.normpath(package_dir / chosen)), tree)
            return real if real.is_file() else None
    return None


def _substitute(value: object, star: str) -> object:
    if isinstance(value, str):
        return value.replace("*", star)
    if isinstance(value, list):
        return [_substitute(v, star) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, star) for k, v in value.items()}
    return value


def _condition(value: object, conditions: tuple[str, ...]) -> str | None:
    """The target an "exports" value gives under `conditions` (in the value's own key order)."""
    if isinstance(value, str):
        return value if value.startswith("./") else None
    if isinstance(value, list):
        return next((t for v in value if (t := _condition(v, conditions)) is not None), None)
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in conditions and (found := _condition(inner, conditions)) is not None:
                return found
    return None


_TS_FOR_JS = {".js": ".ts", ".mjs": ".mts", ".cjs": ".cts"}


def _as_file_or_dir(base: Path, tree: DealerTree) -> Path | None:
    candidates = [base]
    if base.name:
        candidates += [base.with_name(base.name + s) for s in (*JS_SUFFIXES, ".json", *TS_SUFFIXES)]
        if base.suffix in _TS_FOR_JS:  # TypeScript's ES-module style: `./card.js` is card.ts
            candidates.append(base.with_suffix(_TS_FOR_JS[base.suffix]))
    for candidate in candidates:
        real = _inside(candidate, tree)
        if real.is_file():
            return real
    real_dir = _inside(base, tree)
    if real_dir.is_dir():
        package = _inside(real_dir / "package.json", tree)
        if package.is_file():
            try:
                main = json.loads(read_text(package, "package.json")).get("main")
            except (ValueError, AttributeError):
                main = None
            if isinstance(main, str):
                found = _as_file_or_dir(Path(os.path.normpath(real_dir / main)), tree)
                if found is not None:
                    return found
        for suffix in (*JS_SUFFIXES, ".json", *TS_SUFFIXES):
            real = _inside(real_dir / f"index{suffix}", tree)
            if real.is_file():
                return real
    return None


# ---------------------------------------------------------------------------- ES modules


def is_es_module(path: Path, text: str, tree: DealerTree) -> bool:
    """By its suffix, else the nearest package.json's "type" in the dealer's tree, else its syntax."""
    if path.suffix in (".mjs", ".mts"):
        return True
    if path.suffix in (".cjs", ".cts"):
        return False
    here = path.parent.resolve()
    for base in (here, *here.parents):
        if not tree.holds(base):
            break
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


def _as_commonjs(path: Path, text: str, tree: DealerTree, es_module: bool | None = None) -> str:
    if text.startswith("#!"):
        text = "//" + text[2:]
    if path.suffix == ".json":
        return f"module.exports = {text.strip() or 'null'};"
    if not (is_es_module(path, text, tree) if es_module is None else es_module):
        return text
    return esm_to_commonjs(text)


_ATTRIBUTES = r"""(?:\s*(?:with|assert)\s*\{[^}]*\})?"""  # `with { type: 'json' }`: nothing to do for them
_IMPORT_FROM = re.compile(
    r"""^([ \t]*)import\s+([\w$\s{},*]+?)\s*from\s*(['"])([^'"\n]+)\3""" + _ATTRIBUTES + r"""[ \t]*;?""", re.M
)
_IMPORT_BARE = re.compile(r"""^([ \t]*)import\s*(['"])([^'"\n]+)\2""" + _ATTRIBUTES + r"""[ \t]*;?""", re.M)
_EXPORT_FROM = re.compile(
    r"""^([ \t]*)export\s*(\*\s*(?:as\s+[\w$]+\s*)?|\{[^}]*\}\s*)from\s*(['"])([^'"\n]+)\3"""
    + _ATTRIBUTES
    + r"""[ \t]*;?""",
    re.M,
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
        decl = f"const {module} = __fcRequire({m[3]}{m[4]}{m[3]});" + (f" const {bindings};" if bindings else "")
        return _same_lines(m[0], m[1] + decl)

    def export_from(m: re.Match[str]) -> str:
        source = f"__fcRequire({m[3]}{m[4]}{m[3]})"
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
    code = _IMPORT_BARE.sub(lambda m: _same_lines(m[0], f"{m[1]}__fcRequire({m[2]}{m[3]}{m[2]});"), code)
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
