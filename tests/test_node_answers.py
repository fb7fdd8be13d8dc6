"""How a `node:` dealer's answers are read and checked, whatever the dealer does to its own context.

The check of a board runs inside the dealer's vm context: every built-in it relies on is taken
before the dealer's code loads, and nothing of the harness is reachable from the dealer.  Each
attack below deals right except at deal 3, where it returns something that is not the right board
and tampers with what a checker might use so that it would read as one (or hides its failure).
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

import reference
from harness.adapters import DealerOptions, open_dealer
from harness.cli import main

GOOD = (
    (Path(__file__).with_name("js") / "good.js")
    .read_text(encoding="utf-8")
    .replace("function dealFreeCell(n)", "function correct(n)")
)

# Shared by the forgeries: made-up tokens for deal 3's cards, and the real card each stands for.
TOKENS = """
const realOf = new Map();
function forged(n) {
  return correct(n).map((row, r) => row.map((card, j) => {
    const token = String.fromCharCode(0x3b1 + r) + String.fromCharCode(0x3b1 + j);  // 'αα', 'αβ' …
    realOf.set(token, card);
    return token;
  }));
}
const flat = (rows) => [].concat(...rows);
"""

# Each: JavaScript run at deal 3 that ends with `return` of what deal 3 answers.
FORGERIES = {
    # String.prototype.charCodeAt answers for the real card of a made-up token.
    "char-code-at": """
        const charCodeAt = String.prototype.charCodeAt;
        String.prototype.charCodeAt = function (i) {
          const real = realOf.get(String(this));
          return charCodeAt.call(real === undefined ? this : real, i);
        };
        return forged(n);""",
    # ... and through Function.prototype.call, which a call-bound capture would go through.
    "function-call": """
        const call = Function.prototype.call;
        const charCodeAt = String.prototype.charCodeAt;
        Function.prototype.call = function (self, ...args) {
          if (this === charCodeAt && realOf.has(self)) self = realOf.get(self);
          return Reflect.apply(this, self, args);
        };
        return forged(n);""",
    # String.prototype.slice answers the real board for a text past the reader's cut.
    "string-slice-long-text": """
        const text = correct(n).map((row) => row.join(' ')).join('\\n');
        const slice = String.prototype.slice;
        String.prototype.slice = function (a, b) { return this.length > 1e5 ? text : slice.call(this, a, b); };
        return 'not a board '.repeat(20000);""",
    # Array.prototype.push drops the failure of the deal that throws.
    "array-push": """
        const push = Array.prototype.push;
        Array.prototype.push = function (...items) {
          if (items.length === 1 && items[0] && items[0].kind) return this.length;
          return push.apply(this, items);
        };
        throw new Error('deal 3 fails');""",
    # A setter on Array.prototype[0] swallows the first failure written into a fresh array.
    "array-index-setter": """
        Object.defineProperty(Array.prototype, '0', { set() {}, get() { return undefined; }, configurable: true });
        throw new Error('deal 3 fails');""",
    # Object.keys hides the failures of the step from whoever serializes it.
    "object-keys": """
        const keys = Object.keys;
        Object.keys = (o) => keys(o).filter((k) => k !== 'failures' && k !== 'raw');
        return 'not a board';""",
    # JSON.stringify / JSON.parse rewrite what crosses to the driver.
    "json-stringify": """
        const stringify = JSON.stringify;
        JSON.stringify = (v, ...rest) => stringify(v, ...rest).replace(/"failures":\\[[^\\]]*\\]/, '"failures":[]');
        return 'not a board';""",
    "json-parse": """
        const parse = JSON.parse;
        JSON.parse = (t) => { const v = parse(t); if (v && v.failures) v.failures = []; return v; };
        return 'not a board';""",
    # Number.isFinite / Number.isInteger / Array.isArray / Object.getPrototypeOf lie about a fake.
    "array-is-array": """
        const isArray = Array.isArray;
        const rows = forged(n);
        Array.isArray = (v) => isArray(v) || (v && v.fake === true);
        const fake = { fake: true, length: 7 };
        rows.forEach((row, r) => { fake[r] = row; });
        return fake;""",
    # Symbol.iterator on strings yields the real cards for a made-up token text.
    "symbol-iterator": """
        const cards = flat(correct(n));
        String.prototype[Symbol.iterator] = function* () { yield* cards.join(' '); };
        return flat(forged(n)).join(' ');""",
    # An oversized answer: the right board, then a 53rd card past the reader's 65,536 characters.
    "oversized-text": """
        const text = correct(n).map((row) => row.join(' ')).join('\\n');
        return text + ' '.repeat(1 << 20) + 'AS';""",
    # Nested 1,000,000 deep, as an array and as board text (JSON-like, read by the lenient reader).
    "nested-array": """
        let v = [];
        for (let k = 0; k < 1000000; k++) v = [v];
        return v;""",
    "nested-text": """
        return '['.repeat(30000) + ']'.repeat(30000);""",
    # The harness's own entry points, if any are reachable, are called to forget deal 3.
    "harness-global": """
        const h = globalThis.__freecellHarness;
        if (h && h.collect) { h.collect(); h.begin('lines', 4, 1, ''); }
        return 'not a board';""",
}


def forger(tmp_path: Path, attack: str) -> Path:
    path = tmp_path / f"{attack}.js"
    body = FORGERIES[attack]
    path.write_text(
        f"{TOKENS}\nfunction dealFreeCell(n) {{\n  if (n === 3) {{{body}\n  }}\n  return correct(n);\n}}\n{GOOD}",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("attack", sorted(FORGERIES))
def test_a_forged_answer_never_conforms(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], attack: str
) -> None:
    report = tmp_path / "report.json"
    status = main(
        ["verify", f"node:{forger(tmp_path, attack)}", "--range", "1-6", "--jobs", "1", "--report", str(report)]
    )
    out = capsys.readouterr()
    assert status == 1, (status, out.out[-300:], out.err[-300:])
    failure = json.loads(report.read_text())["first_failure"]
    assert failure["deal"] == 3 and failure["kind"] in ("invalid-output", "error"), failure


# Each: JavaScript run at deal 3, before it returns the right board; then the first failure the run
# must come to with --timeout 1 (None: it conforms, every board being right).
LEFT_RUNNING = {
    # Callbacks the host would run between deals, outside any deal's time: a dealer gets none.
    "finalization-registry-loop": (
        "const registry = new FinalizationRegistry(() => { for (;;) {} });"
        " for (let k = 0; k < 10000; k++) registry.register({ k }, k);"
        " for (let k = 0; k < 200; k++) new Array(100000).fill(k);",
        None,
    ),
    "atomics-wait-async": (
        "Atomics.waitAsync(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10).value.then(() => { for (;;) {} });",
        (3, "error"),
    ),
    "atomics-wait": ("Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);", (3, "timeout")),
    # A microtask chain left by a synchronous dealer never runs: nothing drains it.
    "microtask-chain": ("const spin = () => Promise.resolve().then(spin); spin();", None),
    # The driver's own entry points.
    "harness-begin": ("__freecellHarness.begin('lines', 1, 1e9, '');", (3, "error")),
    "harness-step": ("__freecellHarness.step(1e9, 1e9, 1e9);", (3, "error")),
    "timers": ("setInterval(() => { for (;;) {} }, 1);", (3, "error")),
}


@pytest.mark.parametrize("case", sorted(LEFT_RUNNING))
def test_what_a_dealer_leaves_running_is_blamed_on_its_deal_or_never_runs(
    node: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    code, first = LEFT_RUNNING[case]
    path = tmp_path / f"{case}.js"
    path.write_text(f"function dealFreeCell(n) {{\n  if (n === 3) {{ {code} }}\n  return correct(n);\n}}\n{GOOD}")
    report = tmp_path / "report.json"
    status = main(
        ["verify", f"node:{path}", "--range", "1-6", "--jobs", "1", "--timeout", "1", "--report", str(report)]
    )
    out = capsys.readouterr()
    failure = json.loads(report.read_text())["first_failure"]
    if first is None:
        assert (status, failure) == (0, None), (out.out, failure)
    else:
        assert status == 1 and (failure["deal"], failure["kind"]) == first, failure
    assert "non-deterministic" not in out.out + out.err


def async_dealer(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "async.js"
    path.write_text(f"async function dealFreeCell(n) {{\n  if (n === 3) {{ {body} }}\n  return correct(n);\n}}\n{GOOD}")
    return path


@pytest.mark.parametrize(
    "body",
    [
        "await null; for (;;) {}",
        "await null; const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});",
    ],
    ids=["loop", "chain"],
)
def test_an_async_continuation_that_never_ends_is_a_timeout_at_its_deal(node: str, tmp_path: Path, body: str) -> None:
    report = tmp_path / "report.json"
    impl = f"node:{async_dealer(tmp_path, body)}"
    # The hang waits out --timeout each time deal 3 is dealt (the run, then pinning it); a right deal
    # takes a millisecond, and starting Node is not on that clock.
    status = main(["verify", impl, "--range", "1-6", "--jobs", "1", "--timeout", "0.5", "--report", str(report)])
    failure = json.loads(report.read_text())["first_failure"]
    assert status == 1 and (failure["deal"], failure["kind"]) == (3, "timeout"), failure


def test_a_driver_that_stops_answering_is_no_reason_to_call_a_right_dealer_non_deterministic(node: str) -> None:
    """A process that hangs outside any deal (here: stopped from outside, before it reads the block's
    request: no clock decides where the stop lands) is killed and the block is dealt again, where a
    death is pinned to its deal or to none; the digest is then the block's, not None (which the
    comparer would take for boards that changed between two passes)."""
    deals = range(1, 100_001)
    with open_dealer(f"node:{Path(__file__).with_name('js') / 'good.js'}", DealerOptions(timeout=0.5)) as dealer:
        proc = dealer.bridge._proc  # type: ignore[attr-defined]
        assert proc is not None
        os.kill(proc.child.pid, signal.SIGSTOP)
        digest = dealer.block_digest(deals)
        assert dealer.bridge.restarts >= 1  # type: ignore[attr-defined]
    assert digest == reference.block_digest(deals)
