"""How a `node:` dealer's answers are read and checked, whatever the dealer does to its own context.

The check of a board runs inside the dealer's vm context: every built-in it relies on is taken
before the dealer's code loads, and nothing of the harness is reachable from the dealer.  Each
attack below deals right except at deal 3, where it returns something that is not the right board
and tampers with what a checker might use so that it would read as one (or hides its failure).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
        return { fake: true, length: 7, 0: rows[0], 1: rows[1], 2: rows[2], 3: rows[3], 4: rows[4], 5: rows[5], 6: rows[6] };""",
    # Symbol.iterator on strings yields the real cards for a made-up token text.
    "symbol-iterator": """
        const cards = flat(correct(n));
        String.prototype[Symbol.iterator] = function* () { yield* cards.join(' '); };
        return flat(forged(n)).join(' ');""",
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
    status = main(["verify", f"node:{forger(tmp_path, attack)}", "--range", "1-6", "--jobs", "1", "--report", str(report)])
    out = capsys.readouterr()
    assert status == 1, (status, out.out[-300:], out.err[-300:])
    failure = json.loads(report.read_text())["first_failure"]
    assert failure["deal"] == 3 and failure["kind"] in ("invalid-output", "error"), failure
