"""The declared public API (`harness.__all__`, `reference.__all__`), and what importing it costs: the
light entry points (the errors, the pytest plugin, the command line's parser) import neither NumPy
nor the engine, and every module imports alone in a fresh interpreter (no import cycle at run time)."""

from __future__ import annotations

import ast
import functools
import inspect
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import harness
import reference

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
pytest_plugins = ["pytester"]

DECLARED = [
    "Block",
    "ConformanceSession",
    "Dealer",
    "DealerOptions",
    "Diagnosis",
    "Failure",
    "HarnessBug",
    "HarnessError",
    "Limits",
    "RequestError",
    "deal_numbers",
    "identify",
    "open_dealer",
    "profile",
]


def test_harness_declares_exactly_its_public_api() -> None:
    assert harness.__all__ == DECLARED


@pytest.mark.parametrize("name", DECLARED)
def test_every_public_name_resolves_and_is_documented(name: str) -> None:
    value = getattr(harness, name)
    assert value is not None and name in dir(harness)
    assert getattr(value, "__name__", name) == name  # the thing itself, not a module of the same name
    assert inspect.getdoc(value), f"harness.{name} has no docstring"


@pytest.mark.parametrize("name", reference.__all__)
def test_every_name_reference_declares_resolves(name: str) -> None:
    assert getattr(reference, name) is not None


@pytest.mark.parametrize("name", ["engine_run", "no_such_name", "process_"])
def test_an_undeclared_name_is_an_attribute_error(name: str) -> None:
    with pytest.raises(AttributeError, match=name):
        getattr(harness, name)


def test_the_package_documents_that_everything_else_is_internal() -> None:
    assert "internal" in (harness.__doc__ or "")


def _run(code: str, *args: str, stdin: bytes = b"") -> dict[str, object]:
    """Run `code` in a fresh interpreter with this checkout's harness; what it prints last, as JSON."""
    out = subprocess.run(
        [PY, "-c", textwrap.dedent(code), *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert out.returncode == 0, out.stderr.decode()
    result: dict[str, object] = json.loads(out.stdout.decode().splitlines()[-1])
    return result


_LOADED = """
import json, sys
{statement}
print(json.dumps({{"modules": sorted(sys.modules)}}))
"""
_CLI = "from harness.cli import main\ntry:\n    main({argv!r})\nexcept SystemExit:\n    pass"
# The py: runner's start and its reading of a board (each py: run starts one per worker).
_PY_RUNNER = (
    "import reference, harness.adapters.py_runner as r\n"
    "cards = list(reference.deal(1).names)\n"
    "assert r.canonical_line_of([cards[i : i + 8] for i in range(0, 52, 8)]) == reference.deal(1).line.encode()"
)
HEAVY = ("numpy", "harness.engine", "harness.adapters", "harness.process.child", "harness.compare")


@pytest.mark.parametrize(
    ("statement", "unwanted"),
    [
        ("import harness.errors", HEAVY),
        ("import harness", HEAVY),
        ("import reference", ("numpy", "harness")),
        ("import harness.pytest_plugin", (*HEAVY, "harness.conformance", "harness.request")),
        ("from harness.cli import build_parser; build_parser()", (*HEAVY, "harness.request")),
        (_CLI.format(argv=["--version"]), (*HEAVY, "harness.request")),
        (_CLI.format(argv=["--help"]), (*HEAVY, "harness.request")),
        (_CLI.format(argv=["deal", "1"]), HEAVY),
        (_CLI.format(argv=["identify", "board.txt"]), HEAVY[1:]),  # identify's own work needs NumPy
        (_PY_RUNNER, (*HEAVY[:2], *HEAVY[3:], "harness.adapters.registry", "harness.cards")),
    ],
    ids=["errors", "harness", "reference", "plugin", "parser", "--version", "--help", "deal", "identify", "py-runner"],
)
def test_a_light_entry_point_imports_nothing_heavy(statement: str, unwanted: tuple[str, ...], tmp_path: Path) -> None:
    board = subprocess.run([PY, "-m", "harness", "deal", "1"], capture_output=True, check=True, cwd=ROOT).stdout
    (tmp_path / "board.txt").write_bytes(board)
    code = _LOADED.format(statement=statement.replace("board.txt", str(tmp_path / "board.txt")))
    loaded = set(_run(code)["modules"])  # type: ignore[call-overload]
    assert not [m for m in unwanted if m in loaded]


def test_a_pytest_run_that_does_not_use_the_plugin_loads_neither_numpy_nor_the_engine(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makepyfile(
        """
        import sys

        def test_light():
            assert "harness.pytest_plugin" in sys.modules  # the plugin is loaded ...
            heavy = ["numpy", "harness.engine", "harness.conformance", "harness.adapters"]
            assert [m for m in heavy if m in sys.modules] == []  # ... and nothing heavy
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:hypothesispytest")
    result.assert_outcomes(passed=1)


def test_the_package_imports_nothing_of_ours_when_it_loads() -> None:
    """What broke the cycle harness.adapters.node → harness.node.bridge → harness → harness.adapters → …:
    `harness/__init__.py` names its API lazily, and imports its modules only for the type checker (and
    the loader of lazy names, `harness.lazy`, which imports nothing else of ours)."""
    tree = ast.parse((ROOT / "harness" / "__init__.py").read_text())
    eager = [
        node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    assert [m for m in eager if m and m.split(".")[0] in ("harness", "reference") and m != "harness.lazy"] == []


def _module_names() -> list[str]:
    names = []
    for pkg in ("harness", "reference"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            if name != "harness.__main__":  # runs the command line
                names.append(name)
    return names


_EACH_ALONE = """
import json, os, sys, traceback
import numpy  # not ours: imported once here, so that each child spends its time on our modules
failed = {}
for name in sys.argv[1:]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # a child of an interpreter that has imported nothing of ours: the module alone
        os.close(read)
        try:
            __import__(name)
            message = b""
        except BaseException:
            message = traceback.format_exc().encode()
        os.write(write, message)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        message = f.read()
    os.waitpid(pid, 0)
    if message:
        failed[name] = message.decode()
print(json.dumps(failed))
"""


@functools.cache
def _alone_failures() -> dict[str, object]:
    return _run(_EACH_ALONE, *_module_names())


@pytest.mark.parametrize("module", _module_names())
def test_every_module_imports_alone_in_a_fresh_interpreter(module: str) -> None:
    assert module not in _alone_failures(), _alone_failures()[module]


def test_the_version_said_is_the_installed_one() -> None:
    """pyproject.toml reads it from harness.version, which no longer asks the installed metadata for it."""
    from importlib import metadata

    from harness.version import harness_version

    assert harness_version() == metadata.version("freecell-harness")
