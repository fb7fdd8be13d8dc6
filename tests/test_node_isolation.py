"""Hostile JavaScript: the known ways out of a vm context fail as an `error` at their deal (in a
module, in a challenge's solution, in a hint), and nothing is written or spawned; the driver runs
under Node's permission model, which denies writes, child processes and workers even to code
that reached the host."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

import reference
from harness.adapters import DealerOptions, open_dealer
from harness.cli import main
from harness.failures import Failure
from harness.node.bridge import DRIVER, driver_command, driver_env

GOOD = (
    (Path(__file__).with_name("js") / "good.js")
    .read_text(encoding="utf-8")
    .replace("function dealFreeCell(n)", "function correct(n)")
)

# Each reaches for Node's `process` (or a module) from inside the context; `use(host)` then
# tries to write a file and to start a program.
ESCAPES = {
    "this-constructor": 'const host = this.constructor.constructor("return process")();',
    "console-constructor": 'const host = console.log.constructor("return process")();',
    "assert-constructor": 'const host = assert.constructor("return process")();',
    "prepare-stack-trace": (
        "Error.prepareStackTrace = (e, frames) => frames;"
        " const frames = new Error().stack;"
        ' const host = frames.constructor.constructor("return process")();'
    ),
    "dynamic-import": 'const fs = await import("fs"); const host = { mainModule: { require: () => fs } };',
    "require-child-process": 'const host = { mainModule: { require } }; require("child_process");',
    "function-this": 'const host = Function("return this")().process;',
    "built-in-module-constructor": 'const host = require("util").inspect.constructor("return process")();',
}


def payload(escape: str, marker: Path) -> str:
    """JavaScript statements: the escape, then a write and a spawn through what it reached."""
    return (
        f"{ESCAPES[escape]}\n"
        f"host.mainModule.require('fs').writeFileSync({json.dumps(str(marker))}, 'escaped');\n"
        f"host.mainModule.require('child_process').execSync({json.dumps(f'touch {marker}.spawned')});\n"
    )


def dealer_source(escape: str, marker: Path, *, module: bool) -> str:
    head = "async function dealFreeCell(n) {" if escape == "dynamic-import" else "function dealFreeCell(n) {"
    body = f"{head}\n  if (n === 5) {{\n{payload(escape, marker)}  }}\n  return correct(n);\n}}\n"
    if module:
        body = "'use strict';\nconst assert = require('assert');\n" + body + "module.exports = { dealFreeCell };\n"
    return body + GOOD


def nothing_escaped(marker: Path) -> None:
    leftovers = sorted(p.name for p in marker.parent.iterdir() if p.name.startswith(marker.name))
    assert leftovers == [], f"written or spawned: {leftovers}"


def document(solution: str, hint: str) -> str:
    return "\n".join(
        [
            "# --description--",
            "",
            "Deal the cards.",
            "",
            "# --hints--",
            "",
            "`dealFreeCell` deals game 1.",
            "",
            "```js",
            hint,
            "```",
            "",
            "# --seed--",
            "",
            "## --seed-contents--",
            "",
            "```js",
            "function dealFreeCell(n) {}",
            "```",
            "",
            "# --solutions--",
            "",
            "```js",
            solution,
            "```",
            "",
        ]
    )


@pytest.mark.parametrize("escape", sorted(ESCAPES))
@pytest.mark.parametrize("where", ["module", "solution"])
def test_an_escape_in_a_dealer_is_an_error_at_its_deal(node: str, tmp_path: Path, escape: str, where: str) -> None:
    marker = tmp_path / "escaped"
    if where == "module":
        path = tmp_path / "dealer.js"
        path.write_text(dealer_source(escape, marker, module=True), encoding="utf-8")
    else:
        path = tmp_path / "challenge.md"
        solution = dealer_source(escape, marker, module=False)
        path.write_text(document(solution, "assert(typeof dealFreeCell === 'function');"), encoding="utf-8")
    with open_dealer(f"node:{path}", DealerOptions(timeout=5)) as dealer:
        answers = dealer.lines([4, 5, 6])
        assert dealer.block_digest(range(1, 11)) is None
    assert answers[0] == reference.canonical_lines([4]) and answers[2] == reference.canonical_lines([6])
    failure = answers[1]
    assert isinstance(failure, Failure) and (failure.deal, failure.kind) == (5, "error"), failure
    # stopped inside the context, not only by the permission model behind it
    assert not any(word in failure.message for word in ("restricted", "ACCESS_DENIED")), failure
    nothing_escaped(marker)


@pytest.mark.parametrize("escape", sorted(ESCAPES))
def test_an_escape_in_a_hint_fails_the_hint(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], escape: str
) -> None:
    marker = tmp_path / "escaped"
    hint = payload(escape, marker) + "assert.deepEqual(dealFreeCell(1).length, 7);"
    path = tmp_path / "challenge.md"
    path.write_text(document(GOOD.replace("function correct(n)", "function dealFreeCell(n)"), hint), encoding="utf-8")
    assert main(["challenge", str(path), "--json", "--range", "1-20"]) == 0
    [report] = json.loads(capsys.readouterr().out)
    [detail] = report["hints"]["details"]
    # failed, or broken when what it reaches for (`process`, `require`) exists nowhere in a hint
    assert detail["status"] in ("failed", "broken"), detail
    assert "Error" in detail["reason"] or "import()" in detail["reason"]
    assert not any(word in detail["reason"] for word in ("restricted", "ACCESS_DENIED")), detail
    assert report["conformant"] is True
    nothing_escaped(marker)


@pytest.mark.parametrize(
    ("script", "denied"),
    [
        ("require('fs').writeFileSync(process.argv[1] + '/written', 'x')", "ERR_ACCESS_DENIED"),
        ("require('child_process').execSync('true')", "ERR_ACCESS_DENIED"),
        ("new (require('worker_threads').Worker)('1', { eval: true })", "ERR_ACCESS_DENIED"),
        ("require('fs').readFileSync('/etc/hostname')", "ERR_ACCESS_DENIED"),
    ],
    ids=["write", "spawn", "worker", "read-elsewhere"],
)
@pytest.mark.parametrize("node_options", [None, "--allow-child-process --allow-fs-write=* --allow-worker"])
def test_the_driver_runs_under_the_permission_model(
    node: str, tmp_path: Path, script: str, denied: str, node_options: str | None
) -> None:
    """Even code that reached the host's `process` cannot write, spawn, start workers or read
    outside the driver's directory: the flags and environment the driver is started with say so,
    whatever $NODE_OPTIONS asks for."""
    command = driver_command(node)
    assert command[-1] == str(DRIVER)
    flags = command[1:-1]
    environ = dict(os.environ, NODE_OPTIONS=node_options) if node_options else dict(os.environ)
    probe = subprocess.run(
        [
            node,
            *flags,
            "-e",
            f"try {{ {script}; console.log('ALLOWED') }} catch (e) {{ console.log(e.code) }}",
            str(tmp_path),
        ],
        env=driver_env(environ),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert probe.stdout.strip() == denied, (probe.stdout, probe.stderr)
    assert not (tmp_path / "written").exists()


def test_a_stack_trace_trap_never_sees_the_hosts_frames(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The driver reads the stack of an error thrown out of the context (a solution that throws
    while hints run): a `prepareStackTrace` installed by the solution would then receive arrays
    and call sites of the host's realm.  It cannot be installed."""
    trap = (
        "try { Error.prepareStackTrace = (e, frames) => {"
        " e.message = 'REACHED ' + typeof frames.constructor.constructor('return process')(); return 'trapped'; };"
        " } catch (err) { }\n"
        "throw new Error('the solution throws');\n"
    )
    path = tmp_path / "challenge.md"
    path.write_text(document(trap + GOOD, "assert(true);"), encoding="utf-8")
    main(["challenge", str(path), "--json", "--range", "1-5"])
    [report] = json.loads(capsys.readouterr().out)
    assert report["solution"] == "runtime-error"
    assert "the solution throws" in report["solution_error"] and "REACHED" not in report["solution_error"]


# A dealer that deals right but, from deal 3000 on, has replaced a built-in its context shares with
# the harness's own code there: whatever the harness calls without a timeout must not reach it.
TAMPERINGS = {
    "array-shift": "Array.prototype.shift = function () { for (;;) {} };",
    "array-join": "Array.prototype.join = function () { for (;;) {} };",
    "string-slice": "String.prototype.slice = function () { for (;;) {} };",
    "reflect-apply": "Reflect.apply = function () { for (;;) {} };",
    "string-fromcharcode": "String.fromCharCode = function () { return 'AS '.repeat(52); };",
    "array-tojson": "Array.prototype.toJSON = function () { return 'an array'; };",  # as Prototype.js did
    "object-tojson": "Object.prototype.toJSON = function () { return {}; };",
}


@pytest.mark.parametrize("mode", ["digest", "lines"])
@pytest.mark.parametrize("tampering", sorted(TAMPERINGS))
def test_a_dealer_that_replaces_built_ins_is_still_judged_by_its_boards(
    node: str, tmp_path: Path, tampering: str, mode: str
) -> None:
    """20,000 deals are many steps of several pieces each (a piece is 65,536 characters of lines)."""
    path = tmp_path / "tamperer.js"
    path.write_text(
        GOOD + "\nfunction dealFreeCell(n) {\n"
        f"  if (n === 3000) {{ {TAMPERINGS[tampering]} }}\n"
        "  return correct(n);\n}\n",
        encoding="utf-8",
    )
    deals = range(1, 20_001)
    with open_dealer(f"node:{path}", DealerOptions(timeout=5)) as dealer:
        if mode == "digest":
            assert dealer.block_digest(deals) == reference.block_digest(deals)
        else:
            answers = dealer.lines(deals)
            assert [a for a in answers if not isinstance(a, bytes)] == []
            assert b"".join(a for a in answers if isinstance(a, bytes)) == reference.canonical_lines(deals)


@pytest.mark.parametrize("tampering", ["array-tojson", "object-tojson", "array-join"])
def test_a_dealer_that_replaces_built_ins_is_blamed_at_its_own_failure(
    node: str, tmp_path: Path, tampering: str
) -> None:
    path = tmp_path / "tamperer.js"
    path.write_text(
        GOOD + "\nfunction dealFreeCell(n) {\n"
        f"  if (n === 3000) {{ {TAMPERINGS[tampering]} }}\n"
        "  if (n === 4000) throw new Error('no deal 4000');\n"
        "  return correct(n);\n}\n",
        encoding="utf-8",
    )
    with open_dealer(f"node:{path}", DealerOptions(timeout=5)) as dealer:
        answers = dealer.lines(range(2990, 4011))  # tampered at 3000, failing at 4000
    failures = [a for a in answers if isinstance(a, Failure)]
    assert [(f.deal, f.kind) for f in failures] == [(4000, "error")] and "no deal 4000" in failures[0].message
