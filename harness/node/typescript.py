"""TypeScript dealers (`node:deck.ts#dealCodes`): `.ts`/`.mts`/`.cts` files made JavaScript by
TypeScript's own `transpileModule` (the npm package `typescript`, pinned to TYPESCRIPT_VERSION).

Node 20 cannot strip types, so the harness runs the compiler: in a Node process of its own,
under the permission model, reading only the compiler, given the sources on stdin (it runs no
dealer code).  The compiler is the one in $FREECELL_TYPESCRIPT (an install prefix or the package
folder), else in the harness's cache (`~/.cache/freecell-harness/typescript`), where
`freecell-harness setup typescript` installs it.  A dealer's own node_modules/typescript is never
run: it is code of the tree under test, and would run outside the dealer's sandbox.

What a project's tsconfig.json says that changes the emitted code (decorators, class fields) is
kept; `paths` and `baseUrl` are read for resolving imports (sources.py).  The JavaScript keeps
each statement on its line of the TypeScript where it can (blank lines put back from the source
map), so that error lines point into the .ts file.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from harness import process
from harness.errors import RequestError
from harness.limits import NO_LIMITS
from harness.node.locate import find_node, permission_flags

TS_SUFFIXES = (".ts", ".mts", ".cts")
TYPESCRIPT_VERSION = "5.9.3"  # the last major with a JavaScript API (7 is native); transpileModule is stable
TYPESCRIPT_ENV = "FREECELL_TYPESCRIPT"
SETUP_COMMAND = "freecell-harness setup typescript"
TRANSPILER = Path(__file__).with_name("transpile.js")
MAX_OUTPUT = 1 << 28
INSTALL_TIMEOUT_S = 600.0
MAX_TSCONFIG_BYTES = 1 << 20
# compilerOptions of a tsconfig.json that change what transpileModule emits (not how it checks)
KEPT_OPTIONS = ("experimentalDecorators", "emitDecoratorMetadata", "useDefineForClassFields", "verbatimModuleSyntax")
_MODERN_TARGET = re.compile(r"(?i)es(2022|2023|2024|next)")


def cache_prefix() -> Path:
    """Where `setup typescript` installs the compiler: $XDG_CACHE_HOME or ~/.cache, freecell-harness/typescript."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "freecell-harness" / "typescript"


def where_the_harness_looks() -> Path:
    """The prefix (or package folder) the compiler is looked for in: $FREECELL_TYPESCRIPT, else the cache."""
    given = os.environ.get(TYPESCRIPT_ENV)
    return Path(given) if given else cache_prefix()


def _package_in(place: Path) -> Path | None:
    for candidate in (place, place / "node_modules" / "typescript"):
        if (candidate / "lib" / "typescript.js").is_file() and (candidate / "package.json").is_file():
            return candidate
    return None


def find_typescript(needed_by: str) -> Path:
    """The typescript package folder; RequestError (one line, the command to run) if there is none."""
    given = os.environ.get(TYPESCRIPT_ENV)
    place = where_the_harness_looks()
    package = _package_in(place)
    if package is None:
        where = f"${TYPESCRIPT_ENV} ({given})" if given else str(place)
        raise RequestError(
            f"{needed_by}: a TypeScript dealer needs the TypeScript compiler, not found in {where}: "
            f"run `{SETUP_COMMAND}` (npm installs typescript@{TYPESCRIPT_VERSION} there)"
        )
    try:
        version = str(json.loads((package / "package.json").read_text(encoding="utf-8")).get("version", ""))
    except (OSError, ValueError, AttributeError):
        version = ""
    major = int(m[1]) if (m := re.match(r"(\d+)\.", version)) else 0
    if not 4 <= major <= 6:
        raise RequestError(
            f"{package}: typescript {version or '(no version)'} has no transpileModule the harness can run "
            f"(4.x-6.x): run `{SETUP_COMMAND}`"
        )
    return package


def install_typescript(prefix: Path | None = None) -> Path:
    """`npm install --prefix PREFIX typescript@TYPESCRIPT_VERSION`; the package folder installed."""
    if prefix is None:
        prefix = where_the_harness_looks()
    prefix.mkdir(parents=True, exist_ok=True)
    command = ["npm", "install", "--prefix", str(prefix), "--no-save", "--no-audit", "--no-fund"]
    command.append(f"typescript@{TYPESCRIPT_VERSION}")
    try:
        done = subprocess.run(command, timeout=INSTALL_TIMEOUT_S, check=False)  # npm speaks to the terminal
    except FileNotFoundError:
        raise RequestError(f"npm not found: install Node's npm, or run {' '.join(command)} where npm is") from None
    except subprocess.TimeoutExpired:
        raise RequestError(f"{' '.join(command)} took longer than {INSTALL_TIMEOUT_S:.0f} s") from None
    package = _package_in(prefix)
    if done.returncode != 0 or package is None:
        raise RequestError(f"{' '.join(command)} failed (exit {done.returncode}); see npm's messages above")
    transpile(
        [TsSource("setup-check.ts", "export const ok: boolean = true;\n", ())], package
    )  # it runs as dealers need
    return package


# ---------------------------------------------------------------------------- tsconfig.json


@dataclass(frozen=True, slots=True)
class TsConfig:
    """What the harness uses of a tsconfig.json (and what it extends)."""

    paths: tuple[tuple[str, tuple[Path, ...]], ...] = ()  # pattern -> target patterns, as absolute paths
    options: tuple[tuple[str, bool], ...] = ()  # KEPT_OPTIONS set in it
    target: str | None = None

    def emit_options(self) -> tuple[tuple[str, bool], ...]:
        options = dict(self.options)
        if "useDefineForClassFields" not in options:  # TypeScript's default follows the target
            options["useDefineForClassFields"] = bool(self.target and _MODERN_TARGET.fullmatch(self.target))
        return tuple(sorted(options.items()))

    def aliases(self, specifier: str) -> list[Path]:
        """The paths `specifier` may be under `paths`, best match first (the longest prefix)."""
        found: list[tuple[int, Path]] = []
        for pattern, targets in self.paths:
            if "*" in pattern:
                head, _, tail = pattern.partition("*")
                if specifier.startswith(head) and specifier.endswith(tail) and len(specifier) >= len(head + tail):
                    star = specifier[len(head) : len(specifier) - len(tail)]
                    found += [(len(head), Path(str(t).replace("*", star, 1))) for t in targets]
            elif pattern == specifier:
                found += [(1 << 30, t) for t in targets]
        return [p for _, p in sorted(found, key=lambda x: -x[0])]


def _jsonc(text: str) -> object:
    """JSON with comments and trailing commas, as tsconfig.json is written."""
    no_comments = re.sub(
        r'"(?:\\.|[^"\\\n])*"|//[^\n]*|/\*[\s\S]*?\*/', lambda m: m[0] if m[0].startswith('"') else " ", text
    )
    return json.loads(re.sub(r'"(?:\\.|[^"\\\n])*"|,(\s*[}\]])', lambda m: m[0] if m[1] is None else m[1], no_comments))


def read_tsconfig(path: Path, allowed: Callable[[Path], bool], depth: int = 0) -> TsConfig:
    """A tsconfig.json, with what it extends (files the dealer's tree holds only); RequestError if unreadable."""
    try:
        if path.stat().st_size > MAX_TSCONFIG_BYTES:
            raise RequestError(f"{path}: larger than {MAX_TSCONFIG_BYTES >> 10} KiB: not a tsconfig.json")
        raw = _jsonc(path.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError) as exc:
        raise RequestError(f"{path}: not a readable tsconfig.json ({exc})") from None
    data = raw if isinstance(raw, dict) else {}
    base = TsConfig()
    extends = data.get("extends")
    for parent in [extends] if isinstance(extends, str) else extends if isinstance(extends, list) else []:
        if isinstance(parent, str) and parent.startswith(".") and depth < 8:
            target = (path.parent / parent).resolve()
            if target.suffix != ".json":
                target = target.with_name(target.name + ".json")
            if allowed(target) and target.is_file():
                base = _merged(base, read_tsconfig(target, allowed, depth + 1))
    options = data.get("compilerOptions")
    options = options if isinstance(options, dict) else {}
    paths = base.paths
    base_url = options.get("baseUrl")
    root = path.parent / base_url if isinstance(base_url, str) else None
    if isinstance(options.get("paths"), dict):
        where = root or path.parent
        paths = tuple(
            (str(k), tuple(where / t for t in v if isinstance(t, str)))
            for k, v in options["paths"].items()
            if isinstance(v, list)
        )
    elif root is not None:
        paths = (*paths, ("*", (root / "*",)))
    kept = {**dict(base.options), **{k: bool(options[k]) for k in KEPT_OPTIONS if k in options}}
    language = options.get("target")
    return TsConfig(paths, tuple(kept.items()), language if isinstance(language, str) else base.target)


def _merged(base: TsConfig, child: TsConfig) -> TsConfig:
    return TsConfig(child.paths or base.paths, (*base.options, *child.options), child.target or base.target)


# ---------------------------------------------------------------------------- transpiling


@dataclass(frozen=True, slots=True)
class TsSource:
    name: str
    text: str
    options: tuple[tuple[str, bool], ...]

    @property
    def commonjs(self) -> bool:
        """Emitted as CommonJS: a .cts file, or one written with `import x = require()` / `export =`
        (which an ES-module emit would drop without a word)."""
        return self.name.endswith(".cts") or bool(_COMMONJS_SYNTAX.search(self.text))


_COMMONJS_SYNTAX = re.compile(
    r"^[ \t]*(?:export[ \t]+)?import[ \t]+[\w$]+[ \t]*=[ \t]*require[ \t]*\(|^[ \t]*export[ \t]*=", re.M
)


def transpile(sources: Sequence[TsSource], package: Path | None = None) -> list[str]:
    """Each source's JavaScript (ES module syntax; CommonJS for .cts and `import = require` code),
    lines kept where they were;
    RequestError naming file and line for TypeScript that does not parse."""
    if not sources:
        return []
    return list(_transpile(tuple(sources), package or find_typescript(sources[0].name)))


@functools.lru_cache(maxsize=64)
def _transpile(sources: tuple[TsSource, ...], package: Path) -> tuple[str, ...]:
    request = {
        "typescript": str(package.resolve()),
        "files": [
            {"name": s.name, "text": s.text, "commonjs": s.commonjs, "options": dict(s.options)} for s in sources
        ],
    }
    node = find_node()
    argv = [node, *permission_flags(node, package, TRANSPILER), "--no-warnings", str(TRANSPILER)]
    # no deadline: what is loaded must not depend on how busy the machine is (the compiler ends)
    run = process.run(argv, json.dumps(request).encode(), 0, MAX_OUTPUT, NO_LIMITS)
    what = f"the TypeScript compiler ({package})"
    if run.overflowed:
        raise RequestError(f"{sources[0].name}: {what} printed more than {MAX_OUTPUT >> 20} MiB")
    try:
        answer = json.loads(run.stdout)
        files = answer["files"]
    except (ValueError, KeyError, TypeError):
        tail = run.child.stderr_lines()[-1:]
        raise RequestError(f"{sources[0].name}: {what} failed (exit {run.returncode}): {' '.join(tail)}") from None
    out: list[str] = []
    for source, result in zip(sources, files, strict=True):
        if result["errors"]:
            first = result["errors"][0]
            where = f"{source.name}:{first['line']}" if first["line"] else source.name
            raise RequestError(f"{where}: cannot load the dealer: it does not compile: TypeScript: {first['message']}")
        out.append(realign(result["code"], result["map"]))
    return tuple(out)


_B64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}


def _first_source_lines(mappings: str) -> list[int | None]:
    """Per generated line, the source line (0-based) of its first mapped segment, or None."""
    lines: list[int | None] = []
    source_line = 0
    for group in mappings.split(";"):
        first: int | None = None
        for segment in filter(None, group.split(",")):
            values: list[int] = []
            value = shift = 0
            for ch in segment:
                digit = _B64.get(ch, 0)
                value += (digit & 31) << shift
                if digit & 32:
                    shift += 5
                else:
                    values.append(-(value >> 1) if value & 1 else value >> 1)
                    value = shift = 0
            if len(values) >= 4:
                source_line += values[2]
                if first is None:
                    first = source_line
        lines.append(first)
    return lines


def realign(code: str, source_map: str) -> str:
    """`code` with each statement moved to its line of the TypeScript where the emitter allows: the
    compiler's helpers (the lines before the first with a source line) made one line, blank lines
    put back before a line whose source line (by the map) lies further down, and a line of a
    source line already passed joined to the line before (`if (x)` / `throw …` that the emitter
    split), unless that line ends inside a literal, where the line break is text, or it is an
    import or export, which the reading of ES modules needs first on its line."""
    try:
        mappings = str(json.loads(source_map)["mappings"])
    except (ValueError, KeyError, TypeError):
        return code
    code = re.sub(r"\n//# sourceMappingURL=\S*\s*$", "\n", code)
    sources = _first_source_lines(mappings)
    out: list[str] = []
    scanner = _TemplateScanner()
    in_template = False
    first_mapped = next((k for k, line in enumerate(sources) if line is not None), None)
    for k, line in enumerate(code.split("\n")):
        wanted = sources[k] if k < len(sources) else None
        helper = first_mapped is not None and 0 < k < first_mapped
        passed = helper or (wanted is not None and wanted < len(out))
        if passed and not in_template and not _MODULE_STATEMENT.match(line):
            out[-1] += " " + line.lstrip()
        else:
            while wanted is not None and len(out) < wanted:
                out.append("")
            out.append(line)
        in_template = scanner.ends_in_template(line)
    return "\n".join(out)


_MODULE_STATEMENT = re.compile(r"""[ \t]*(?:import[ \t]*[\w${*'"]|export\b)""")


class _TemplateScanner:
    """Whether JavaScript, read a line at a time, is inside a literal at a line's end: a template
    literal, or a string continued on the next line with a backslash."""

    def __init__(self) -> None:
        self.stack: list[int] = []  # per open template: -1 while in its text, else the ${ } brace depth

    def ends_in_template(self, line: str) -> bool:
        quote = ""
        i = 0
        while i < len(line):
            ch = line[i]
            in_text = bool(self.stack) and self.stack[-1] == -1
            if quote or in_text:
                if ch == "\\":
                    i += 2
                    continue
                if quote and ch == quote:
                    quote = ""
                elif in_text and ch == "`":
                    self.stack.pop()
                elif in_text and line.startswith("${", i):
                    self.stack[-1] = 0
                    i += 1
            elif ch in "'\"":
                quote = ch
            elif ch == "`":
                self.stack.append(-1)
            elif self.stack and ch == "{":
                self.stack[-1] += 1
            elif self.stack and ch == "}":
                if self.stack[-1] == 0:
                    self.stack[-1] = -1
                else:
                    self.stack[-1] -= 1
            i += 1
        return bool(quote) or (bool(self.stack) and self.stack[-1] == -1)
