"""The layout of the package: no import cycle (lazy imports inside functions included), nothing in
the library imports the command line, and only the command line prints."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("harness", "reference")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def _modules() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """Modules of ours that `path` imports, anywhere in it; `from pkg import name` counts as pkg.name
    when that is a module, else pkg.  A module also depends on the packages above it (their __init__)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in modules else node.module
                      for a in node.names}  # fmt: skip
    ours = {m for m in found if m in modules}
    return ours | {".".join(m.split(".")[:i]) for m in ours for i in range(1, m.count(".") + 1)}


@functools.cache
def _graph() -> dict[str, set[str]]:
    """Module → the modules of ours it imports, but not its own ancestors (importing harness.x.y runs
    harness.x's __init__ first: that is not a cycle between the two)."""
    modules = _modules()
    return {
        name: {d for d in _imports(path, modules) if d != name and not name.startswith(d + ".")}
        for name, path in modules.items()
    }


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_import_graph_has_no_cycle() -> None:
    assert _cycle(_graph()) is None


# A matrix row is a `profile` command line run in a process of its own (harness.matrix.row, whose
# answer it prints): its options are read, and checked in the manifest, by the command line's parser.
MATRIX_ROWS = {"harness.matrix.row", "harness.matrix.manifest"}


@pytest.mark.parametrize(
    "module", sorted(m for m in _modules() if m not in ("harness.cli", "harness.__main__", *MATRIX_ROWS))
)
def test_the_library_never_imports_the_command_line(module: str) -> None:
    assert "harness.cli" not in _graph()[module]


# The command line: its commands print their output, and its progress bar draws on stderr.
COMMAND_LINE = {"harness.cli", "harness.__main__", "harness.progress", "harness.matrix.row"}


@pytest.mark.parametrize("module", sorted(m for m in _modules() if m.startswith("harness") and m not in COMMAND_LINE))
def test_only_the_command_line_prints(module: str) -> None:
    tree = ast.parse(_modules()[module].read_text())
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    assert not [c.lineno for c in calls if c.func.id == "print"]  # type: ignore[attr-defined]
    code = ast.unparse(tree)
    writes = ("sys.stdout.write", "sys.stderr.write", "sys.stdout.buffer", "sys.stderr.buffer")
    assert not [w for w in writes if w in code]


def test_every_package_is_in_the_distribution() -> None:
    """A package missing from pyproject's list imports from the checkout but not from an installed copy."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {_module_name(p) for pkg in PACKAGES for p in (ROOT / pkg).rglob("__init__.py")}
    assert on_disk <= listed, f"not in pyproject.toml's packages: {sorted(on_disk - listed)}"


@pytest.mark.parametrize("name", ["Limits", "exit_text", "dealer_identity", "dealer_class", "ConformanceSession",
                                  "detect_language", "undefined_names", "pin_failure"])  # fmt: skip
def test_each_concept_has_one_home(name: str) -> None:
    """Defined once in the package (a second copy drifts from the first)."""
    homes = [
        module
        for module, path in _modules().items()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == name
    ]
    assert len(homes) == 1, homes


def test_only_one_module_reads_the_process_table() -> None:
    """/proc/PID/stat is parsed in harness.process.proc alone (interrupts and the supervisor once each kept a copy)."""
    readers = [m for m, path in _modules().items() if re.search(r"/proc/\{\w+\}/stat\b", path.read_text())]
    assert readers == ["harness.process.proc"], readers
