"""What to type instead: the IMPL a newcomer meant, said in the one-line refusal of what they typed.

A JavaScript or TypeScript file can only mean `node:`, so it is taken as such (`implied_impl`).
For anything else the refusal names the exact command to try: a program (`stream:` or `cmd:`),
a Python file (`py:MODULE:FUNCTION`, naming the module's functions), a file path given as a module
name, a shell pipeline that needs a shell.  Nothing here opens, imports or runs a dealer.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
from collections.abc import Sequence
from pathlib import Path

NODE_SUFFIXES = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")  # node:PATH's file types (SPEC.md)
JSX_SUFFIXES = (".jsx", ".tsx")  # taken as node: too, which says in one line why it cannot run them
# A pipe can only mean a pipeline; other shell syntax (`;`, `$HOME`) is passed to the program as written.
PIPES = frozenset({"|", "|&"})
IMPORT_PATH = "modules are looked for in the working directory and in PYTHONPATH"
# Scripts run by an interpreter, by their suffix: what runs them.
SCRIPT_INTERPRETERS = {
    ".pl": "perl",
    ".rb": "ruby",
    ".php": "php",
    ".lua": "lua",
    ".sh": "sh",
    ".bash": "bash",
    ".tcl": "tclsh",
    ".r": "Rscript",
    ".awk": "awk -f",
}
# Names of the helpers a dealing module has beside its dealing function (not what deals a board).
_HELPER_WORDS = ("rand", "rng", "seed", "main", "print", "show", "format", "card_name", "test")


def implied_impl(text: str) -> str | None:
    """The IMPL that `text`, a bare file name, can only mean (`deal.js` is `node:deal.js`); else None."""
    path = text.partition("#")[0]
    return f"node:{text}" if ":" not in path and path.lower().endswith((*NODE_SUFFIXES, *JSX_SUFFIXES)) else None


def unknown_impl_hint(text: str) -> str:
    """What to type instead of `text`, an IMPL of no known form that names a file; "" when it names none."""
    path = Path(text)
    try:
        if not path.is_file():
            return ""
    except OSError:
        return ""
    runnable = text if "/" in text else f"./{text}"
    if path.suffix == ".py":
        return (
            f"{text} is a Python file: try {py_form(path, None)}{_functions(path)}, "
            f"or stream:{shlex.quote(f'python3 {text}')} if it reads deal numbers on stdin"
        )
    if os.access(path, os.X_OK):
        return (
            f"{text} is a program: try stream:{shlex.quote(runnable)} if it reads deal numbers on stdin "
            f"(one per line), or cmd:{shlex.quote(f'{runnable} {{n}}')} if it takes the deal number as its argument"
        )
    interpreter = SCRIPT_INTERPRETERS.get(path.suffix.lower())
    if interpreter is not None:
        return (
            f"{text} is a {interpreter} script: try cmd:{shlex.quote(f'{interpreter} {text} {{n}}')} if it takes "
            f"the deal number as its argument, or stream:{shlex.quote(f'{interpreter} {text}')} if it reads "
            "deal numbers on stdin"
        )
    return (
        f"{text} is neither a program (not executable) nor JavaScript nor Python: build it, then verify "
        "stream:./PROGRAM or cmd:'./PROGRAM {n}'"
    )


def py_form(path: Path, function: str | None) -> str:
    """`py:MODULE:FUNCTION` for the Python file at `path` (FUNCTION: `function`, else `deal` if it has
    one, else its first public function), with the PYTHONPATH it needs when it is not here."""
    if function is None:
        function = _dealing_function(path)
    form = f"py:{path.stem}:{function}"
    directory = str(path.parent)
    return form if directory == "." else f"{form} with PYTHONPATH={shlex.quote(directory)}"


def py_module_hint(module: str, function: str) -> str | None:
    """Why MODULE of `py:MODULE:FUNCTION` is not a module name but a file path, and what to type; None
    when it is a name (then only importing can tell)."""
    if "/" not in module and os.sep not in module and not module.endswith(".py"):
        return None
    path = Path(module if module.endswith(".py") else f"{module}.py")
    return f"a file path is not a module name: try {py_form(path, function)} ({IMPORT_PATH})"


def import_hint() -> str:
    """Said after "cannot import MODULE": where modules come from."""
    return f"{IMPORT_PATH}; give a module name, not a file path (py:dealer:deal for ./dealer.py)"


def shell_hint(argv: Sequence[str], command: str, kind: str) -> str | None:
    """A shell pipeline written inside `stream:`/`cmd:` (run without a shell): how to wrap it."""
    if not any(a in PIPES for a in argv) and "|" not in argv[0]:
        return None
    return f"a pipeline needs a shell, and none is run: wrap it in sh -c: {kind}:sh -c {shlex.quote(command)}"


def _public_functions(path: Path) -> list[str]:
    try:
        tree = ast.parse(path.read_bytes(), str(path))
    except (OSError, SyntaxError, ValueError):
        return []
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("_")
    ]


def _dealing_function(path: Path) -> str:
    """The module's function that deals, as far as its source says: `deal`, else one whose name says
    it deals, else one of one parameter that is no helper (a generator, a printer, `main`), else the
    first; `deal` when it defines none."""
    try:
        tree = ast.parse(path.read_bytes(), str(path))
    except (OSError, SyntaxError, ValueError):
        return "deal"
    functions = [
        node
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("_")
    ]
    names = [f.name for f in functions]
    if "deal" in names or not names:
        return "deal"
    dealing = [n for n in names if "deal" in n.lower()]
    if dealing:
        return dealing[0]
    one_argument = [
        f.name
        for f in functions
        if len(f.args.posonlyargs) + len(f.args.args) == 1 and not any(w in f.name.lower() for w in _HELPER_WORDS)
    ]
    return one_argument[0] if one_argument else names[0]


# A JavaScript or TypeScript function declared at a script's top level (not indented): `function f(`,
# `const f = (…) =>`, `const f = function`, `class C`.
_JS_TOP_FUNCTION = re.compile(
    r"^(?:export\s+)?(?:async\s+)?(?:function\s*\*?\s*(?P<f>[A-Za-z_$][\w$]*)\s*[<(]"
    r"|(?:const|let|var)\s+(?P<v>[A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>))",
    re.MULTILINE,
)


def script_functions_hint(path: Path) -> str:
    """For a script that exports nothing and lacks the function named: the functions it declares at
    its top level, and the one that looks like the dealer (by its name), as `#NAME`; "" if none."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")[: 1 << 20]
    except OSError:
        return ""
    names = list(dict.fromkeys(m["f"] or m["v"] for m in _JS_TOP_FUNCTION.finditer(text)))
    if not names:
        return ""
    shown = next((n for n in names if "deal" in n.lower()), names[0])
    listed = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
    return f" (it defines {listed}: name it, e.g. node:{path}#{shown})"


def _functions(path: Path) -> str:
    names = _public_functions(path)
    return f" (its functions: {', '.join(names)})" if names else ""
