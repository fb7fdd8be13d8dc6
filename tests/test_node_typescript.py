"""`node:deck.ts#NAME` runs TypeScript as games write it (tests/ts/): classes, enums, const enums,
`import type`, interfaces, tsconfig `paths` aliases, NodeNext `.js` specifiers, `.mts`/`.cts`,
through TypeScript's own transpiler; what cannot be loaded is exit 2 in one line."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

import reference
from harness.adapters import DealerOptions, open_dealer
from harness.cli import main
from harness.failures import Failure
from harness.node import typescript
from harness.node.typescript import TYPESCRIPT_ENV, TsConfig, find_typescript, read_tsconfig, realign

TS = Path(__file__).with_name("ts")


def impl(path: str) -> str:
    return f"node:{os.path.relpath(TS / path)}"


@pytest.mark.parametrize(
    "name",
    [
        "classic/src/deal.ts#dealCodes",  # paths aliases, enums, classes, parameter properties, #private, import type
        "esm/deck.mts#default",  # .mts, './rng.mjs' meaning rng.mts, const enum, generator, a .d.mts of types only
        "commonjs/deck.cts",  # .cts: import = require, export =, namespace; one line of text
        "legacy/deal.ts",  # .ts with import = require, export =, a decorator, a backslash-continued string
        "decorators/deal.ts",  # TypeScript 5's decorators: the compiler's helpers first, `export { X }` after X
        "static/deal.ts#Deal.of",  # export = of a class with a namespace merged in, a static method
    ],
)
def test_typescript_dealers_conform(compiler: Path, name: str) -> None:
    deals = [1, 2, 617, 11982, 2**31 - 1]
    with open_dealer(impl(name), DealerOptions(timeout=10)) as dealer:
        assert dealer.lines(deals) == [reference.canonical_lines([n]) for n in deals]
    assert main(["verify", impl(name), "--range", "1-2000", "--jobs", "1"]) == 0


def test_a_wrong_typescript_dealer_diverges(compiler: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", impl("wrong/deal.ts"), "--range", "1-50", "--jobs", "1"]) == 1
    assert "DIVERGES" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("name", "deal", "error", "line"),
    [
        ("lines/deal.ts", 3, "RangeError: deal 3 is not dealt here", 21),
        ("decorators/deal.ts", 0, "RangeError: deal: no deal 0", 8),  # below 33 lines of the compiler's helpers
    ],
)
def test_an_error_names_the_line_of_the_typescript(compiler: Path, name: str, deal: int, error: str, line: int) -> None:
    with open_dealer(impl(name), DealerOptions(timeout=10)) as dealer:
        [answer] = dealer.lines([deal])
    assert isinstance(answer, Failure) and answer.kind == "error"
    assert error in answer.message
    assert f"{name}:{line})" in answer.message, answer.message


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_typescript_that_does_not_parse_is_one_line_exit_2(
    compiler: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    assert main(["verify", impl("broken/deal.ts"), "--range", "1-5", "--jobs", jobs]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "broken/deal.ts:7" in err and "TypeScript: Type expected" in err, err


def test_a_runtime_import_of_a_file_that_is_not_there_is_exit_2(
    compiler: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An import of types only may name a file with no JavaScript; one that is used may not."""
    (tmp_path / "deal.ts").write_text(
        "import type { Board } from './types';\nimport { rows } from './missing';\n"
        "export const dealFreeCell = (n: number): Board => rows(n);\n",
        encoding="utf-8",
    )
    assert main(["verify", f"node:{tmp_path / 'deal.ts'}", "--range", "1-5", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert "deal.ts:2: cannot find module './missing'" in err, err


def test_a_missing_compiler_says_the_command_to_run(
    node: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(TYPESCRIPT_ENV, str(tmp_path / "nothing-here"))
    typescript._transpile.cache_clear()
    assert main(["verify", impl("wrong/deal.ts"), "--range", "1-5", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "`freecell-harness setup typescript`" in err and "nothing-here" in err, err


STAND_IN_COMPILER = """
exports.version = '5.9.3';
exports.ScriptTarget = { ES2022: 9 };
exports.ModuleKind = { CommonJS: 1, ESNext: 99 };
exports.DiagnosticCategory = { Error: 1 };
exports.flattenDiagnosticMessageText = (m) => String(m);
exports.transpileModule = (text) => ({ outputText: text.replace(': boolean', ''), sourceMapText: '', diagnostics: [] });
"""


# (--prefix given, relative to tmp_path or None; the prefix npm installs into; what the harness must be told)
SETUP_PLACES = {
    "the cache": (None, "cache/freecell-harness/typescript", None),
    "--prefix elsewhere": ("tools/ts", "tools/ts", "set FREECELL_TYPESCRIPT={}"),
    "--prefix the cache": ("cache/freecell-harness/typescript", "cache/freecell-harness/typescript", None),
}


@pytest.mark.parametrize(("given", "installed", "says"), SETUP_PLACES.values(), ids=SETUP_PLACES.keys())
def test_setup_typescript_runs_npm_install_and_says_how_the_harness_finds_it(
    node: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    given: str | None,
    installed: str,
    says: str | None,
) -> None:
    """A stand-in npm records its arguments and lays out a package as npm would.  Installed with
    --prefix DIR where the harness does not look, it once said nothing of FREECELL_TYPESCRIPT."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text(
        "#!/bin/sh\n"
        f'echo "$@" > {tmp_path}/npm-args\n'
        'prefix="$3"\nmkdir -p "$prefix/node_modules/typescript/lib"\n'
        'cp "$(dirname "$0")/typescript.js" "$prefix/node_modules/typescript/lib/typescript.js"\n'
        'echo \'{"name": "typescript", "version": "5.9.3"}\' > "$prefix/node_modules/typescript/package.json"\n',
        encoding="utf-8",
    )
    npm.chmod(npm.stat().st_mode | stat.S_IEXEC)
    (bin_dir / "typescript.js").write_text(STAND_IN_COMPILER, encoding="utf-8")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv(TYPESCRIPT_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    prefix = tmp_path / installed
    assert main(["setup", "typescript", *(["--prefix", str(tmp_path / given)] if given else [])]) == 0
    args = (tmp_path / "npm-args").read_text(encoding="utf-8").split()
    assert args[:3] == ["install", "--prefix", str(prefix)] and f"typescript@{typescript.TYPESCRIPT_VERSION}" in args
    out = capsys.readouterr().out
    assert str(prefix / "node_modules" / "typescript") in out
    if says is None:
        assert TYPESCRIPT_ENV not in out
        assert find_typescript("x") == prefix / "node_modules" / "typescript"
    else:
        assert says.format(prefix) in out
        monkeypatch.setenv(TYPESCRIPT_ENV, str(prefix))  # as it says
        assert find_typescript("x") == prefix / "node_modules" / "typescript"


@pytest.mark.parametrize(
    ("config", "specifier", "expected"),
    [
        ({"compilerOptions": {"paths": {"@c/*": ["src/c/*"]}}}, "@c/Card", ["src/c/Card"]),
        (
            {"compilerOptions": {"baseUrl": "src", "paths": {"@c/*": ["c/*", "d/*"]}}},
            "@c/Card",
            ["src/c/Card", "src/d/Card"],
        ),
        (
            {"compilerOptions": {"paths": {"@models": ["src/m/index.ts"], "@*": ["x/*"]}}},
            "@models",
            ["src/m/index.ts", "x/models"],
        ),
        ({"compilerOptions": {"baseUrl": "."}}, "engine/Deck", ["engine/Deck"]),
        ({"compilerOptions": {"paths": {"@c/*": ["src/c/*"]}}}, "lodash", []),
    ],
)
def test_tsconfig_paths(tmp_path: Path, config: dict[str, object], specifier: str, expected: list[str]) -> None:
    path = tmp_path / "tsconfig.json"
    path.write_text("// a comment\n" + json.dumps(config).replace("]", ", ]"), encoding="utf-8")
    got = read_tsconfig(path, lambda p: True).aliases(specifier)
    assert [os.path.relpath(p, tmp_path) for p in got] == expected


def test_tsconfig_extends_and_class_field_semantics(tmp_path: Path) -> None:
    (tmp_path / "base.json").write_text('{"compilerOptions": {"target": "ES2022", "experimentalDecorators": true}}')
    (tmp_path / "tsconfig.json").write_text('{"extends": "./base.json", "compilerOptions": {}}')
    config = read_tsconfig(tmp_path / "tsconfig.json", lambda p: True)
    assert dict(config.emit_options()) == {"experimentalDecorators": True, "useDefineForClassFields": True}
    assert dict(TsConfig().emit_options()) == {"useDefineForClassFields": False}  # TypeScript's default target


@pytest.mark.parametrize(
    ("code", "mappings", "expected"),
    [
        # generated lines from source lines 2, none, 6 (AAEA: +2; AAIA: +4): blank lines put back
        ("a();\nb();\nc();\n//# sourceMappingURL=x.js.map", "AAEA;;AAIA", ["", "", "a();", "b();", "", "", "c();", ""]),
        # a statement the emitter split over two lines of one source line: joined
        ("if (x)\n    throw e;", "AAAA;IAAA", ["if (x) throw e;"]),
        # unless the line ends inside a template literal: its line break is part of the text
        ("f(`a\nb`);", "AAAA;AAAA", ["f(`a", "b`);"]),
        ("f(`a${g({ k: 1 })}\nb`);", "AAAA;AAAA", ["f(`a${g({ k: 1 })}", "b`);"]),
        # or inside a string continued with a backslash
        ("const s = 'a\\\nb';", "AAAA;AAAA", ["const s = 'a\\", "b';"]),
        # the compiler's helpers, mapped to no source line, make one line before the source's first
        ("var h = 1;\nvar g = 2;\na();\nb();", ";;AAEA;AACA", ["var h = 1; var g = 2;", "", "a();", "b();"]),
        # an import or export is never joined to the line before: reading ES modules needs it first on its line
        ("h();\nimport { a } from './a';\nb();", ";AAAA;AACA", ["h();", "import { a } from './a'; b();"]),
        ("c();\nexport { c };\nexport { d };", "AAAA;AAAA;AAAA", ["c();", "export { c };", "export { d };"]),
    ],
)
def test_realign_puts_statements_back_on_their_source_lines(code: str, mappings: str, expected: list[str]) -> None:
    assert realign(code, json.dumps({"mappings": mappings})).split("\n") == expected


pytest_plugins = ["pytester"]
CONFORMANCE_TEST = (Path(__file__).parent / "conformance" / "test_conformance.py").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "outcome"),
    [("classic/src/deal.ts#dealCodes", {"passed": 2}), ("wrong/deal.ts", {"failed": 2})],
)
def test_typescript_dealers_through_the_pytest_plugin(
    compiler: Path, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, name: str, outcome: dict[str, int]
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[1]))  # this checkout's harness
    monkeypatch.setenv(TYPESCRIPT_ENV, str(compiler))  # pytester gives the inner run a HOME of its own
    pytester.makepyfile(test_conformance=CONFORMANCE_TEST)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--fc-impl", f"node:{TS / name}", "--fc-range", "1-2000", "--fc-block-size", "1000"
    )
    result.assert_outcomes(**outcome)


@pytest.mark.parametrize("text", ["{ not json", "{" + " " * (2 << 20) + "}"], ids=["malformed", "huge"])
def test_a_bad_tsconfig_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    (tmp_path / "package.json").write_text("{}", encoding="utf-8")
    (tmp_path / "tsconfig.json").write_text(text, encoding="utf-8")
    (tmp_path / "deal.ts").write_text("export const dealFreeCell = (n: number) => n;\n", encoding="utf-8")
    assert main(["verify", f"node:{tmp_path / 'deal.ts'}", "--range", "1-3", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tsconfig.json" in err and "Traceback" not in err, err
