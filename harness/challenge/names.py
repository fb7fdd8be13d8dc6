"""JavaScript names in challenge code: what a piece of code declares, and which names a hint relies
on that nothing defines (a hint that names what nowhere exists is `broken`, not `failed`)."""

from __future__ import annotations

import re

_DECLARED = re.compile(r"\b(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)")
_DESTRUCTURED = re.compile(r"\b(?:const|let|var)\s*[{\[]([^=]*)[}\]]\s*=")
_ASSIGNED = re.compile(r"^\s*(?:globalThis\.|window\.|this\.)?([A-Za-z_$][\w$]*)\s*=[^=]", re.M)


def keyword_declared_names(code: str) -> list[str]:
    """Names declared with `function`, `class`, `const`, `let` or `var`, in order."""
    return list(_DECLARED.findall(code))


def declared_names(code: str) -> list[str]:
    """Names a piece of code declares (functions, classes, variables, destructured, assigned)."""
    names = _DECLARED.findall(code) + _ASSIGNED.findall(code)
    for group in _DESTRUCTURED.findall(code):
        names += re.findall(r"(?:^|[,{\[:\s])([A-Za-z_$][\w$]*)\s*(?=,|$|=|\})", group.strip())
    return names


_JS_WORDS = frozenset(
    [
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "import",
        "in",
        "instanceof",
        "let",
        "new",
        "null",
        "return",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "with",
        "yield",
        "async",
        "await",
        "of",
        "static",
        "get",
        "set",
        "undefined",
        "NaN",
        "Infinity",
        "arguments",
        "globalThis",
        "eval",
        "Object",
        "Function",
        "Array",
        "Number",
        "String",
        "Boolean",
        "Symbol",
        "BigInt",
        "Math",
        "JSON",
        "Date",
        "RegExp",
        "Error",
        "TypeError",
        "RangeError",
        "SyntaxError",
        "ReferenceError",
        "EvalError",
        "URIError",
        "AggregateError",
        "Promise",
        "Map",
        "Set",
        "WeakMap",
        "WeakSet",
        "WeakRef",
        "Proxy",
        "Reflect",
        "ArrayBuffer",
        "SharedArrayBuffer",
        "DataView",
        "Atomics",
        "Int8Array",
        "Uint8Array",
        "Uint8ClampedArray",
        "Int16Array",
        "Uint16Array",
        "Int32Array",
        "Uint32Array",
        "Float32Array",
        "Float64Array",
        "BigInt64Array",
        "BigUint64Array",
        "Intl",
        "parseInt",
        "parseFloat",
        "isNaN",
        "isFinite",
        "encodeURI",
        "encodeURIComponent",
        "decodeURI",
        "decodeURIComponent",
        "escape",
        "unescape",
        "structuredClone",
        "queueMicrotask",
        "assert",
        "console",
        "code",
        "editableContents",
        "__helpers",
        "DeepEqual",
    ]
)
_STRINGS_AND_COMMENTS = re.compile(
    r"""'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`|//[^\n]*|/\*[\s\S]*?\*/|/(?![*/])(?:\\.|\[[^\]\n]*\]|[^/\\\n])+/[gimsuyd]*"""
)
_PARAMS = re.compile(
    r"\(([^()]*)\)\s*=>|([A-Za-z_$][\w$]*)\s*=>|function\s*\*?\s*[\w$]*\s*\(([^()]*)\)|catch\s*\(\s*([\w$]+)"
)


def undefined_names(code: str, defined: tuple[str, ...] | frozenset[str]) -> list[str]:
    """Names a hint uses that neither the document, the hint itself, nor JavaScript defines.

    Conservative: object keys, properties, parameters and anything doubtful count as defined,
    so that a hint is called broken only when it plainly names what nowhere exists."""
    bare = _STRINGS_AND_COMMENTS.sub(" 0 ", code)
    known = set(defined) | _JS_WORDS | set(declared_names(bare))
    for m in _PARAMS.finditer(bare):
        params = next(g for g in m.groups() if g is not None) if any(m.groups()) else ""
        known.update(re.findall(r"[A-Za-z_$][\w$]*", params))
    unknown: dict[str, None] = {}
    for m in re.finditer(r"[A-Za-z_$][\w$]*", bare):
        name = m[0]
        before = bare[: m.start()].rstrip()
        after = bare[m.end() :].lstrip()
        if name in known or before.endswith((".", "?.")) or after.startswith(":") or before[-1:].isdigit():
            continue
        if m.start() > 0 and (bare[m.start() - 1].isalnum() or bare[m.start() - 1] in "_$"):
            continue
        unknown[name] = None
    return list(unknown)
