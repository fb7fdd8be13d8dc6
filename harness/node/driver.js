'use strict';
/*
 * freecell-harness Node driver: runs JavaScript FreeCell dealers for the Python harness.
 * Node's own modules only.  One long-lived process; the Python side is harness/node/bridge.py,
 * and harness/node/protocol.py holds the messages below as typed values (keep the two in step).
 *
 * ISOLATION.  The harness starts this file under Node's permission model (no child processes,
 * no worker threads, no file writes, reads only of this directory).  Dealer code runs in vm
 * contexts that receive nothing from this realm: their `console`, `assert`, module loader,
 * dealing loop and answer reader are evaluated inside them (answers.js, prelude.js, assert.js)
 * before any dealer code, taking every built-in they use then; the context's global has no host
 * prototype, `Error.prepareStackTrace` is pinned, `import()` is refused, and nothing there calls
 * back between requests (no timers, FinalizationRegistry never calls back, no Atomics.waitAsync).
 * The harness's entry points are reachable from no global of the context: the driver calls them
 * from a context of its own (CALLER), through primitives only (numbers in, JSON text out), and
 * every call that may run dealer code is bounded by a timeout.
 *
 * WIRE PROTOCOL (version 3; version 2 sent every board the driver did not read as `raw` data and
 * had no `cards`/`suits`; version 1 had no `modules`, handed Node's `assert` to hints and did
 * not send `raw` boards).  Both directions are JSON Lines: one JSON object per line, UTF-8.
 * Python writes requests to stdin and reads the answers from stdout; stdout carries nothing else.
 * stderr is free text for humans.  Every request carries an `id` that every message answering it
 * repeats; a request is answered by zero or more `part` messages and exactly one message with
 * `"end": true`.  Requests are served one at a time.
 *
 * On start the driver writes {"hello": "freecell-harness-driver", "protocol": 3, "node": "v20.…"}.
 *
 * {"op": "load", "id", "modules": [{"id", "filename", "source", "line", "requires": {spec: id}}],
 *  "entry": id, "name": "dealFreeCell", "explicit": false, "cards": null | "rank-major" |
 *  "suit-major", "suits": null | "CDHS" (a permutation), "timeout_ms"}
 *   Compiles every module (CommonJS-shaped: `exports`, `require`, `module` in scope; the Python
 *   side turns ES modules into that shape line for line) in a fresh context, runs the entry's top
 *   level, and finds the dealer: the export `name`, else a top-level function `name`, else the
 *   global `name`; unless `explicit`, also a module that exports one function or a default one.
 *   A class is called with `new`.  `dealer` is how messages name a call ("Deck", "new Game").
 *   -> {"id", "end": true, "ok": true, "dealer": "dealFreeCell"}
 *   -> {"id", "end": true, "ok": false, "status": "syntax-error" | "runtime-error" | "missing",
 *       "message": "SyntaxError: Unexpected token '%' (doc.txt:115)", "file": name | null,
 *       "line": 115 | null}
 *
 * {"op": "deal", "id", "mode": "lines" | "digest", "start", "stop"} (deals start … stop inclusive)
 *   or the same with "deals": [n, …] instead of start/stop; optional "timeout_ms" (default 10000:
 *   what one deal may take) and "chunk_ms" (how long to work between two messages; 0 = one
 *   message per deal; default min(timeout/2, 500)).  Each deal is `dealer(n)`, awaited when it
 *   returns a Promise.  Every board shape is read here (answers.js) to its canonical line; only
 *   board text that the fast reading there does not take goes back as `raw` text (at most 65,536
 *   characters: a longer text is invalid-output, never cut) for the harness's lenient reader.
 *   A deal fails with kind "error" (it threw, or its Promise rejected or never settled, or
 *   reading its answer threw), "invalid-output" (not a board: the message says what was read and
 *   what was expected) or "timeout" (longer than timeout_ms; the context is then rebuilt and the
 *   block goes on).  Kind "refused" is not the deal's failure but the request's: the answer is in
 *   an encoding only --cards/--suits can state (bare-number suits or cards).
 *   mode "lines":  -> {"id", "part": true, "from": i, "lines": [line | null, …],
 *                      "raw": [{"index", "value": board text}, …],
 *                      "failures": [{"index", "deal", "kind", "message", "actual"?}, …]}   (repeated)
 *                  -> {"id", "end": true, "count": N}
 *     `from` is the index in the block of lines[0]; a line is the canonical line (LF included),
 *     null where the deal failed or its board is in `raw`.  Parts are consecutive.  A failure's
 *     `actual`, only of an "invalid-output" whose answer is laid out as a board but has a card
 *     repeated: its 52 card names in dealing order ("JD 2D … KS …"), the board as it was given.
 *   mode "digest": -> {"id", "part": true, "from": i, "done": j}   (heartbeats)
 *                  -> {"id", "end": true, "count": N, "digest": "<sha256 hex>" | null,
 *                      "failure": {"index", "deal", "kind", "message"} | null}
 *     The digest is SHA-256 of the block's canonical lines; it is null when a deal failed (the
 *     first one is `failure`) or returned board text only the lenient reader can read.
 *
 * {"op": "hints", "id", "file", "solution": {"code", "line"} | null,
 *  "hooks": {"before_all", "before_each", "before_user", "after_user", "after_each",
 *            "after_all": {"code", "line"} | null}, "hints": [{"code", "line"}, …],
 *  "defined_names": [name, …], "timeout_ms"}
 *   Runs a challenge's tests as freeCodeCamp does: per hint, in a fresh context with a chai-style
 *   `assert`: before-all, before-each, before-user-code, the solution, after-user-code, then the
 *   hint's code as the body of an async function (awaited), then after-each.  When the solution
 *   throws, the hint runs alone, as freeCodeCamp does.
 *   -> {"id", "end": true, "solution": {"status": "ok" | "syntax-error" | "runtime-error" |
 *       "missing", "error": text | null}, "after_test_error": text | null,
 *       "hints": [{"status": "passed" | "failed" | "broken", "reason": text | null}, …]}
 *   A hint is "broken" when its own code cannot compile or it fails on a name that nothing in
 *   the document defines (`defined_names`); "failed" when the solution does not satisfy it.
 *
 * A request the driver cannot serve (unknown op, malformed, `deal` before a successful `load`):
 *   {"id": id | null, "end": true, "error": "…"}.  It is a refusal, not a crash.
 */

const vm = require('vm');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const PROTOCOL = 3;
const DEFAULT_TIMEOUT_MS = 10000;
const MAX_CHUNK_MS = 500;
const MAX_STEP_CHARS = 1 << 16; // lines a step gathers in one piece (a string, no JSON)
const MAX_STEP_PIECES = 16; // pieces a step gathers before handing them over
const [ANSWERS, PRELUDE, ASSERT, BUILTINS] = ['answers.js', 'prelude.js', 'assert.js', 'builtins.js'].map((name) => {
  const file = path.join(__dirname, name);
  return new vm.Script(fs.readFileSync(file, 'utf8'), { filename: `freecell-harness/${name}` });
});

// ---------------------------------------------------------------- output

function send(message) {
  const data = Buffer.from(JSON.stringify(message) + '\n', 'utf8');
  let off = 0;
  while (off < data.length) {
    try {
      off += fs.writeSync(1, data, off);
    } catch (err) {
      if (err.code !== 'EAGAIN') throw err;
    }
  }
}

// ---------------------------------------------------------------- contexts

// Each context's harness entry points (prelude.js): reachable from no global inside it.
const HARNESS = new WeakMap();

function newContext() {
  // A null-prototype sandbox: the context's global then inherits nothing from this realm.
  const ctx = vm.createContext(Object.create(null), { microtaskMode: 'afterEvaluate' });
  const global = vm.runInContext('globalThis', ctx);
  const harness = PRELUDE.runInContext(ctx)(global, ANSWERS.runInContext(ctx));
  ASSERT.runInContext(ctx)(global, harness);
  BUILTINS.runInContext(ctx)(global, harness);
  HARNESS.set(ctx, harness);
  return ctx;
}

// The driver calls a context's harness from a context of its own, which no dealer can see: a
// call made by a script evaluated there is bounded by that evaluation's timeout.
const CALLER = vm.createContext(Object.create(null));
const CALL = new vm.Script('f(a, b, c, d)');
// Runs the microtasks a dealer's context holds (a Promise's continuations), within a timeout.
const DRAIN = new vm.Script('undefined');

function denyImport(ctx) {
  return () => {
    throw vm.runInContext('new Error("import() is not available to a dealer (it runs isolated)")', ctx);
  };
}

function compile(code, filename, lineOffset, ctx) {
  return new vm.Script(code, { filename, lineOffset, importModuleDynamically: denyImport(ctx) });
}

// Call one of the context's harness functions (`timeoutMs` 0: no timeout, for those that touch
// nothing of the dealer's); its answer is a primitive.
function call(ctx, name, args, timeoutMs) {
  CALLER.f = HARNESS.get(ctx)[name];
  [CALLER.a, CALLER.b, CALLER.c, CALLER.d] = args;
  try {
    return CALL.runInContext(CALLER, timeoutMs ? { timeout: timeoutMs } : {});
  } finally {
    CALLER.f = CALLER.a = CALLER.b = CALLER.c = CALLER.d = undefined;
  }
}

// Ask the context something; the answer is always JSON text made inside it.
function ask(ctx, name, args, timeoutMs) {
  const answer = call(ctx, name, args, timeoutMs);
  return typeof answer === 'string' ? JSON.parse(answer) : answer;
}

function drain(ctx, timeoutMs) {
  DRAIN.runInContext(ctx, { timeout: timeoutMs });
}

// The lines of the last step, as the `pieces` strings its collect() announced.
function takeTexts(ctx, pieces) {
  const texts = [];
  for (let k = 0; k < pieces; k++) texts.push(call(ctx, 'text', [], 0));
  return texts;
}

function isTimeout(err) {
  return err !== null && typeof err === 'object' && err.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

function hostErrorLine(err, filename) {
  const stack = String((err && err.stack) || '');
  const escaped = filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`(?:^|\\(|at )${escaped}:(\\d+)`, 'm').exec(stack);
  return m ? Number(m[1]) : null;
}

// An error thrown out of a context: read defensively (it may be anything the dealer threw).
function describeHostError(err, filename) {
  if (err === null || (typeof err !== 'object' && typeof err !== 'function')) {
    return { text: `threw ${typeof err === 'string' ? JSON.stringify(err.slice(0, 40)) : String(err)}`, line: null };
  }
  try {
    const line = hostErrorLine(err, filename);
    const text = `${err.name || 'Error'}: ${err.message}`;
    return { text: line === null ? text : `${text} (${filename}:${line})`, line };
  } catch (_) {
    return { text: 'threw an unreadable exception', line: null };
  }
}

// Names of the context's globals: a module's wrapper takes them as parameters, because in a vm
// context every global lookup goes through an interceptor (2.5× slower for the original
// solution, which reads `Math` 52 times a deal).
const SHADOWABLE = /^[A-Za-z_$][\w$]*$/;
const NOT_SHADOWED = new Set(['globalThis', 'eval', 'arguments', 'undefined', 'NaN', 'Infinity']);
const MODULE_PARAMS = ['exports', 'require', 'module', '__filename', '__dirname', '__fcRequire']; // the last: require for converted imports, whatever the module calls `require`

function defineModule(ctx, mod, globals, tail) {
  const attempt = (params, args) => {
    const head = `(function (${MODULE_PARAMS.join(', ')}) { return (function (${params.join(', ')}) {`;
    const end = `\n;${tail}\n})(${args.join(', ')}); })`;
    return compile(`${head}\n${mod.source}${end}`, mod.filename, (mod.line || 1) - 2, ctx);
  };
  let script;
  try {
    script = attempt(globals, globals);
  } catch (_) {
    // A top-level declaration may clash with a shadowed name: no shadowing then.
    script = attempt([], []);
  }
  call(ctx, 'define', [mod.id, mod.filename, JSON.stringify(mod.requires || {}), script.runInContext(ctx)], 0);
}

// ---------------------------------------------------------------- loading a dealer

let loaded = null; // { request, ctx }

function loadDealer(req, timeoutMs) {
  const ctx = newContext();
  const globals = vm
    .runInContext('Object.getOwnPropertyNames(globalThis).join(",")', ctx)
    .split(',')
    .filter((n) => SHADOWABLE.test(n) && !NOT_SHADOWED.has(n));
  const name = String(req.name || 'dealFreeCell');
  // `Game.deal`: the module's binding `Game` (a function or an object), then its property `deal`
  const head = name.split('.')[0];
  if (!name.split('.').every((part) => SHADOWABLE.test(part))) {
    return { status: 'missing', message: `${JSON.stringify(name)} is not a JavaScript name`, file: null, line: null };
  }
  const wanted = head === name ? `typeof ${head} === 'function'` : `typeof ${head} === 'function' || (typeof ${head} === 'object' && ${head} !== null)`;
  const tail = head === 'default' ? 'return undefined;' : `return ${wanted} ? ${head} : undefined;`;
  for (const mod of req.modules) {
    try {
      defineModule(ctx, mod, globals, mod.id === req.entry ? tail : 'return undefined;');
    } catch (err) {
      if (isTimeout(err)) throw err;
      const d = describeHostError(err, mod.filename);
      const status = err && err.name === 'SyntaxError' ? 'syntax-error' : 'runtime-error';
      return { status, message: d.text, file: mod.filename, line: d.line };
    }
  }
  let result;
  call(ctx, 'configure', [req.cards || null, req.suits || null], 0);
  try {
    result = ask(ctx, 'load', [req.entry, name, !!req.explicit], timeoutMs);
    drain(ctx, timeoutMs);
  } catch (err) {
    if (!isTimeout(err)) throw err;
    result = { status: 'runtime-error', message: `the top-level code ran longer than ${timeoutMs} ms`, file: null, line: null };
  }
  ask(ctx, 'takeLog', [], 0);
  if (result.status === 'ok') return { status: 'ok', ctx, dealer: String(result.dealer || name) };
  return result;
}

function serveLoad(req) {
  const timeoutMs = req.timeout_ms > 0 ? req.timeout_ms : DEFAULT_TIMEOUT_MS;
  if (!Array.isArray(req.modules) || !req.modules.length || typeof req.entry !== 'string') {
    send({ id: req.id, end: true, error: 'a load request needs modules and an entry' });
    return;
  }
  loaded = null;
  const result = loadDealer(req, timeoutMs);
  if (result.status === 'ok') {
    loaded = { request: req, ctx: result.ctx, dealer: result.dealer };
    send({ id: req.id, end: true, ok: true, dealer: result.dealer });
  } else {
    send({ id: req.id, end: true, ok: false, status: result.status, message: result.message, file: result.file, line: result.line });
  }
}

// ---------------------------------------------------------------- dealing

function serveDeal(req) {
  const id = req.id;
  if (loaded === null) {
    send({ id, end: true, error: 'no dealer loaded' });
    return;
  }
  const list = Array.isArray(req.deals) ? req.deals.map(Number) : null;
  const start = list ? 0 : Number(req.start);
  const count = list ? list.length : Number(req.stop) - start + 1;
  if (!(count >= 0) || (list === null && !Number.isSafeInteger(start)) || (list && !list.every(Number.isSafeInteger))) {
    send({ id, end: true, error: 'a deal request needs whole deal numbers' });
    return;
  }
  const timeoutMs = req.timeout_ms > 0 ? req.timeout_ms : DEFAULT_TIMEOUT_MS;
  const chunkMs = req.chunk_ms >= 0 ? req.chunk_ms : Math.min(timeoutMs / 2, MAX_CHUNK_MS);
  const budget = Math.min(chunkMs, timeoutMs / 2);
  const digest = req.mode === 'digest';
  const hash = digest ? crypto.createHash('sha256') : null;
  const dealAt = (i) => (list ? list[i] : start + i);
  let failure = null;
  let unreadable = false;

  let pos = 0;
  const beginAt = (ctx, from) => {
    const rest = list ? JSON.stringify(list.slice(from)) : '';
    ask(ctx, 'begin', [digest ? 'digest' : 'lines', list ? 0 : start + from, count - from, rest], 0);
  };
  beginAt(loaded.ctx, 0);
  // Each piece hashed as the step makes it (the digest is sent only when no deal failed).
  if (digest) {
    call(loaded.ctx, 'sinkPieces', [(piece) => void hash.update(piece)], 0);
  }
  let offset = 0; // index in the block of the context's current begin()
  // Gathered since the last part message: lines (lines mode), raw boards, failures.
  let lines = [];
  let raw = [];
  let failures = [];
  let partFrom = 0;
  let partStarted = Date.now();
  const flush = (force) => {
    if (!force && Date.now() - partStarted < chunkMs) return;
    if (digest) {
      if (pos < count && failure === null && !unreadable) send({ id, part: true, from: partFrom, done: pos });
    } else if (pos > partFrom) {
      send({ id, part: true, from: partFrom, lines, raw, failures });
    }
    lines = [];
    raw = [];
    failures = [];
    partFrom = pos;
    partStarted = Date.now();
  };
  // Take what a step produced: its lines in pieces (`extra`: a failure found outside the context).
  const take = (out, texts, extra) => {
    const done = offset + out.done;
    const found = out.failures.map((f) => ({ index: offset + f.index, deal: dealAt(offset + f.index), kind: f.kind, message: f.message, actual: f.actual }));
    if (extra) found.push(extra);
    if (digest) {
      if (found.length) failure = found.sort((x, y) => x.index - y.index)[0];
      else if (out.raw.length) unreadable = true;
      else for (const text of texts) hash.update(text);
    } else {
      const got = texts.join('').split('\n');
      got.pop(); // after the last LF
      for (const line of got) lines.push(line === '' ? null : line + '\n');
      while (lines.length < done - partFrom) lines.push(null); // a deal lost to a timeout
      for (const [i, value] of out.raw) raw.push({ index: offset + i, value });
      for (const f of found) failures.push(f);
    }
    pos = done;
  };
  const stepTimeout = Math.ceil(timeoutMs * 1.5);
  while (pos < count && failure === null && !unreadable) {
    let out;
    let texts;
    try {
      const settling = call(loaded.ctx, 'step', [budget, MAX_STEP_CHARS, MAX_STEP_PIECES], stepTimeout);
      // A timeout costs a watchdog thread per call: the continuations of a dealer's Promise run,
      // and collect() reads what it settled to (dealer data), only after an async deal; otherwise
      // collect() handles only our own values, and the dealer's context runs nothing at all.
      if (settling !== false) drain(loaded.ctx, stepTimeout);
      out = ask(loaded.ctx, 'collect', [], settling === false ? 0 : stepTimeout);
      texts = takeTexts(loaded.ctx, out.pieces);
    } catch (err) {
      if (!isTimeout(err)) throw err;
      const at = offset + Number(call(loaded.ctx, 'position', [], 0));
      const named = `${loaded.dealer}(${dealAt(at)})`;
      const lost = { index: at, deal: dealAt(at), kind: 'timeout', message: `${named} ran longer than ${timeoutMs / 1000} s` };
      let before = null;
      try {
        before = ask(loaded.ctx, 'collect', [], timeoutMs);
        before.texts = takeTexts(loaded.ctx, before.pieces);
      } catch (_) {
        before = null;
      }
      // The dealer's state may be half-updated: start it afresh after the deal that hung.
      const again = loadDealer(loaded.request, timeoutMs);
      if (again.status !== 'ok') throw new Error(`the dealer no longer loads: ${again.message}`);
      loaded.ctx = again.ctx;
      loaded.dealer = again.dealer;
      if (before !== null && offset + before.done === at + 1) {
        take(before, before.texts, lost);
      } else {
        for (let i = pos; i <= at; i++) {
          const f = i === at ? lost : { index: i, deal: dealAt(i), kind: 'timeout', message: `lost when ${named} ran longer than ${timeoutMs / 1000} s` };
          if (digest) failure = failure || f;
          else {
            lines.push(null);
            failures.push(f);
          }
        }
        pos = at + 1;
      }
      offset = pos;
      if (pos < count && failure === null) beginAt(loaded.ctx, pos);
      flush(true);
      continue;
    }
    take(out, texts, null);
    flush(pos >= count);
  }
  if (!digest) flush(true);
  ask(loaded.ctx, 'takeLog', [], 0);
  if (digest) {
    const ok = failure === null && !unreadable;
    send({ id, end: true, count, digest: ok ? hash.digest('hex') : null, failure });
  } else {
    send({ id, end: true, count });
  }
}

// ---------------------------------------------------------------- hints

const HOOK_NAMES = ['before_all', 'before_each', 'before_user', 'after_user', 'after_each', 'after_all'];

function serveHints(req) {
  const timeoutMs = req.timeout_ms > 0 ? req.timeout_ms : DEFAULT_TIMEOUT_MS;
  const file = String(req.file || 'challenge');
  const defined = new Set(Array.isArray(req.defined_names) ? req.defined_names.map(String) : []);
  const hooks = {};
  for (const name of HOOK_NAMES) {
    const hook = req.hooks && req.hooks[name];
    hooks[name] = hook && typeof hook.code === 'string' ? { code: hook.code, line: hook.line || 1 } : null;
  }
  const solution = req.solution && typeof req.solution.code === 'string' ? { code: req.solution.code, line: req.solution.line || 1 } : null;
  const probe = newContext();
  const syntaxOf = (code, line) => {
    try {
      compile(code, file, line - 1, probe);
      return null;
    } catch (err) {
      return describeHostError(err, file).text;
    }
  };
  let solutionState;
  if (solution === null) solutionState = { status: 'missing', error: 'the document has no solution' };
  else {
    const syntax = syntaxOf(solution.code, solution.line);
    solutionState = syntax === null ? { status: 'ok', error: null } : { status: 'syntax-error', error: syntax };
  }
  let afterTestError = hooks.after_user ? syntaxOf(hooks.after_user.code, hooks.after_user.line) : null;

  const run = (ctx, part) => compile(part.code, file, part.line - 1, ctx).runInContext(ctx, { timeout: timeoutMs });
  const failureText = (err) => (isTimeout(err) ? `ran longer than ${timeoutMs} ms` : describeHostError(err, file).text);
  const testScript = (ctx, hint) => compile(`(async () => {\n${hint.code}\n})()`, file, hint.line - 2, ctx);
  const runTest = (ctx, hint) => {
    let result;
    try {
      call(ctx, 'trackHint', [testScript(ctx, hint).runInContext(ctx, { timeout: timeoutMs })], 0);
      drain(ctx, timeoutMs);
      result = ask(ctx, 'hintResult', [], timeoutMs);
    } catch (err) {
      if (isTimeout(err)) return { status: 'failed', reason: `timed out after ${timeoutMs} ms` };
      throw err;
    }
    if (result.state === 'passed') return { status: 'passed', reason: null };
    if (result.state === 'pending') return { status: 'failed', reason: 'the hint awaits something that never settles (the context has no timers, I/O or import())' };
    const e = result.error;
    const inHint = e.where !== null && e.where.line >= hint.line && e.where.line <= hint.line + hint.code.split('\n').length;
    if (e.undefinedName !== null && inHint && !defined.has(e.undefinedName)) {
      return { status: 'broken', reason: `the hint uses a name that nothing in the document defines: ${e.text}` };
    }
    if (e.assertion) return { status: 'failed', reason: `assertion failed: ${e.text.replace(/^AssertionError: /, '')}` };
    return { status: 'failed', reason: e.text };
  };

  const results = [];
  let lastCtx = null;
  for (const hint of Array.isArray(req.hints) ? req.hints : []) {
    const h = { code: String(hint.code || ''), line: hint.line || 1 };
    let own = null;
    try {
      testScript(probe, h);
    } catch (err) {
      own = describeHostError(err, file).text;
    }
    if (own !== null) {
      results.push({ status: 'broken', reason: `the hint does not compile: ${own}` });
      continue;
    }
    if (solutionState.status === 'syntax-error' || solutionState.status === 'missing') {
      results.push({ status: 'failed', reason: `not run: ${solutionState.error}` });
      continue;
    }
    const ctx = newContext();
    ask(ctx, 'addFile', [file], 0);
    vm.runInContext(`globalThis.code = globalThis.editableContents = ${JSON.stringify(solution.code)}`, ctx);
    let setupError = null;
    for (const name of ['before_all', 'before_each', 'before_user']) {
      if (hooks[name] === null || setupError !== null) continue;
      try {
        run(ctx, hooks[name]);
      } catch (err) {
        setupError = `the ${name.replace('_', '-')} code fails: ${failureText(err)}`;
      }
    }
    let solutionError = null;
    if (setupError === null) {
      try {
        run(ctx, solution);
      } catch (err) {
        solutionError = failureText(err);
        if (solutionState.status === 'ok') solutionState = { status: 'runtime-error', error: solutionError };
      }
    }
    if (setupError === null && solutionError === null && hooks.after_user !== null && afterTestError === null) {
      try {
        run(ctx, hooks.after_user);
      } catch (err) {
        afterTestError = failureText(err);
      }
    }
    let result;
    if (setupError !== null) {
      result = { status: 'failed', reason: setupError };
    } else if (solutionError !== null) {
      // freeCodeCamp then evaluates the hint on its own.
      const alone = newContext();
      ask(alone, 'addFile', [file], 0);
      result = runTest(alone, h);
      if (result.status === 'failed') result = { status: 'failed', reason: `the solution fails: ${solutionError}` };
    } else {
      result = runTest(ctx, h);
    }
    if (hooks.after_each !== null && setupError === null) {
      try {
        run(ctx, hooks.after_each);
      } catch (_) {
        // freeCodeCamp reports a failing after-each hook nowhere either
      }
    }
    results.push(result);
    lastCtx = ctx;
  }
  if (hooks.after_all !== null && lastCtx !== null) {
    try {
      run(lastCtx, hooks.after_all);
    } catch (_) {
      // as with after-each: nothing of the verdict depends on it
    }
  }
  send({ id: req.id, end: true, solution: solutionState, after_test_error: afterTestError, hints: results });
}

// ---------------------------------------------------------------- requests

function serve(req) {
  try {
    dispatch(req);
  } catch (err) {
    // A bug of ours, or a dealer that broke the context's contract: refuse, stay alive.
    let why = 'unknown';
    try {
      why = err instanceof Error ? `${err.name}: ${err.message}` : typeof err;
    } catch (_) {
      // keep 'unknown'
    }
    send({ id: req.id === undefined ? null : req.id, end: true, error: `the driver failed: ${why}` });
  }
}

function dispatch(req) {
  switch (req.op) {
    case 'load':
      serveLoad(req);
      return;
    case 'deal':
      serveDeal(req);
      return;
    case 'hints':
      serveHints(req);
      return;
    default:
      send({ id: req.id === undefined ? null : req.id, end: true, error: `unknown op ${JSON.stringify(req.op)}` });
  }
}

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let nl;
  while ((nl = pending.indexOf('\n')) >= 0) {
    const text = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    if (!text.trim()) continue;
    let req;
    try {
      req = JSON.parse(text);
    } catch (err) {
      send({ id: null, end: true, error: `malformed request: ${err.message}` });
      continue;
    }
    if (req === null || typeof req !== 'object' || Array.isArray(req)) {
      send({ id: null, end: true, error: 'a request must be a JSON object' });
      continue;
    }
    serve(req);
  }
});
process.stdin.on('end', () => process.exit(0));

send({ hello: 'freecell-harness-driver', protocol: PROTOCOL, node: process.version });
