'use strict';
/*
 * freecell-harness Node driver: runs a JavaScript FreeCell dealer for the Python harness.
 * Node's own modules only.  One long-lived process; the Python side is harness/node/bridge.py.
 *
 * WIRE PROTOCOL (version 1).  Both directions are JSON Lines: one JSON object per line, UTF-8.
 * Python writes requests to stdin and reads the answers from stdout; stdout carries nothing else
 * (the solution's `console` is silenced).  stderr is free text for humans.  Every request carries
 * an `id` that every message answering it repeats; a request is answered by zero or more `part`
 * messages and exactly one message with `"end": true`.  Requests are served one at a time.
 *
 * On start the driver writes {"hello": "freecell-harness-driver", "protocol": 1, "node": "v20.…"}.
 *
 * {"op": "load", "id", "source", "filename", "line"}
 *   Compiles `source` (whose first line is line `line` of `filename`) in a fresh vm context, runs
 *   its top level and finds its function `dealFreeCell`.  The driver keeps it for `deal`.
 *   -> {"id", "end": true, "ok": true}
 *   -> {"id", "end": true, "ok": false, "status": "syntax-error" | "runtime-error" | "missing",
 *       "message": "SyntaxError: Unexpected token '%' (doc.txt:115)", "line": 115 | null}
 *
 * {"op": "deal", "id", "mode": "lines" | "digest", "start", "stop"} (deals start … stop inclusive)
 *   or the same with "deals": [n, …] instead of start/stop; optional "timeout_ms" (default 10000:
 *   what one deal may take) and "chunk_ms" (how long to work between two messages; 0 = one
 *   message per deal; default min(timeout/2, 500)).
 *   Each deal n is `dealFreeCell(n)`; it must return 7 arrays (rows) of 8,8,8,8,8,8,4 distinct
 *   card strings "AC" … "KS" (rank A23456789TJQK, then suit CDHS).  A deal fails with kind
 *   "error" (it threw), "invalid-output" (anything else returned; the message says what is
 *   wrong) or "timeout" (it ran longer than timeout_ms; the context is then rebuilt and the
 *   block goes on).  A deal never takes more than 1.5 × timeout_ms to be declared a timeout.
 *   mode "lines":  -> {"id", "part": true, "from": i, "lines": [line | null, …],
 *                      "failures": [{"index", "deal", "kind", "message"}, …]}   (repeated)
 *                  -> {"id", "end": true, "count": N}
 *     `from` is the index in the block of lines[0]; a line is the canonical line (LF included),
 *     null where the deal failed (its failure is in `failures`).  Parts are consecutive.
 *   mode "digest": -> {"id", "part": true, "from": i, "done": j}   (heartbeats)
 *                  -> {"id", "end": true, "count": N, "digest": "<sha256 hex>" | null,
 *                      "failure": {"index", "deal", "kind", "message"} | null}
 *     The digest is SHA-256 of the block's canonical lines; the first failure stops the block.
 *   Without a loaded solution: {"id", "end": true, "error": "no solution loaded"}.
 *
 * {"op": "hints", "id", "solution", "solution_filename", "solution_line", "after_test",
 *  "after_test_line", "hints": [{"code", "line"}, …], "seed_names": [name, …], "timeout_ms"}
 *   Runs a challenge's tests as freeCodeCamp does: for each hint, in a fresh context with
 *   `assert` (Node's) and a silent `console`: the solution, then the after-test code, then the
 *   hint's code.
 *   -> {"id", "end": true, "solution": {"status": "ok" | "syntax-error" | "runtime-error" |
 *       "missing", "error": text | null}, "after_test_error": text | null,
 *       "hints": [{"status": "passed" | "failed" | "broken", "reason": text | null}, …]}
 *   A hint is "broken" when its own code cannot run (it does not compile, or names something
 *   that neither the after-test code nor the challenge's seed code (`seed_names`) defines),
 *   "failed" when the solution does not satisfy it (assertion, exception, timeout).
 *
 * Unknown or malformed requests: {"id": id | null, "end": true, "error": "…"}.
 */

const vm = require('vm');
const crypto = require('crypto');
const fs = require('fs');
const nodeAssert = require('assert');

const PROTOCOL = 1;
const DEFAULT_TIMEOUT_MS = 10000;
const MAX_CHUNK_MS = 500;
const RUN_NAME = '__freecellHarnessRun';

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

const silentConsole = {};
for (const name of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table', 'group', 'groupEnd']) {
  silentConsole[name] = () => {};
}

// ---------------------------------------------------------------- errors

function describeValue(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 20 ? v.slice(0, 20) + '…' : v)}`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'undefined') return 'undefined';
  return `${typeof v} ${String(v)}`;
}

// "Name: message (file:line)", the location being the innermost frame in `filename`.
function describeError(err, filename) {
  if (err === null || (typeof err !== 'object' && typeof err !== 'function')) return `threw ${describeValue(err)}`;
  let text;
  try {
    text = `${err.name || 'Error'}: ${err.message}`;
  } catch (_) {
    text = 'an exception';
  }
  const line = errorLine(err, filename);
  return line === null ? text : `${text} (${filename}:${line})`;
}

function errorLine(err, filename) {
  let stack = '';
  try {
    stack = String(err.stack || '');
  } catch (_) {
    return null;
  }
  if (!filename) return null;
  const escaped = filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A SyntaxError's stack starts "file:LINE"; a runtime error's frames read "(file:LINE:COL)".
  const m = new RegExp(`(?:^|\\(|at )${escaped}:(\\d+)`, 'm').exec(stack);
  return m ? Number(m[1]) : null;
}

function isTimeout(err) {
  return err !== null && typeof err === 'object' && err.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

// ---------------------------------------------------------------- boards

const RANKS = 'A23456789TJQK';
const SUITS = 'CDHS';
const RANK_OF = new Int8Array(65536).fill(-1);
const SUIT_OF = new Int8Array(65536).fill(-1);
for (let i = 0; i < 13; i++) RANK_OF[RANKS.charCodeAt(i)] = i;
for (let i = 0; i < 4; i++) SUIT_OF[SUITS.charCodeAt(i)] = i;
const ROW_LENGTHS = [8, 8, 8, 8, 8, 8, 4];
const seen = new Int32Array(52);
let generation = 0;

// The canonical line of a valid board, or null (then `whyInvalid` says what is wrong).
function canonicalLine(board) {
  if (!Array.isArray(board) || board.length !== 7) return null;
  if (++generation === 0x7fffffff) {
    seen.fill(0);
    generation = 1;
  }
  let line = '';
  for (let r = 0; r < 7; r++) {
    const row = board[r];
    const width = r === 6 ? 4 : 8;
    if (!Array.isArray(row) || row.length !== width) return null;
    for (let j = 0; j < width; j++) {
      const card = row[j];
      if (typeof card !== 'string' || card.length !== 2) return null;
      const rank = RANK_OF[card.charCodeAt(0)];
      const suit = SUIT_OF[card.charCodeAt(1)];
      if (rank < 0 || suit < 0) return null;
      const k = rank * 4 + suit;
      if (seen[k] === generation) return null;
      seen[k] = generation;
      line += card;
      line += r === 6 && j === 3 ? '\n' : ' ';
    }
  }
  return line;
}

function whyInvalid(board) {
  const fn = 'dealFreeCell';
  if (!Array.isArray(board)) return `${fn} returned ${describeValue(board)}, not an array of 7 rows`;
  const lengths = board.map((row) => (Array.isArray(row) ? row.length : -1));
  if (board.length === 8 && lengths.join() === '7,7,7,7,6,6,6,6') {
    return `${fn} returned 8 columns (of 7,7,7,7,6,6,6,6 cards) instead of 7 rows (of 8,8,8,8,8,8,4)`;
  }
  if (board.length === 52 && board.every((c) => typeof c === 'string')) {
    return `${fn} returned a flat array of 52 cards instead of 7 rows (of 8,8,8,8,8,8,4)`;
  }
  if (board.length !== 7) {
    const shape = lengths.every((n) => n >= 0) ? ` of ${lengths.join(',')} cards` : '';
    return `${fn} returned ${board.length} rows${shape}, not 7 rows of 8,8,8,8,8,8,4`;
  }
  const where = new Map();
  for (let r = 0; r < 7; r++) {
    const row = board[r];
    if (!Array.isArray(row)) return `row ${r + 1} is ${describeValue(row)}, not an array of cards`;
    if (row.length !== ROW_LENGTHS[r]) {
      return `row ${r + 1} has ${row.length} cards, expected ${ROW_LENGTHS[r]} (rows of 8,8,8,8,8,8,4)`;
    }
    for (let j = 0; j < row.length; j++) {
      const card = row[j];
      const at = `row ${r + 1} card ${j + 1}`;
      if (typeof card !== 'string') return `${at} is ${describeValue(card)}, not a string like "JD"`;
      const ok = card.length === 2 && RANK_OF[card.charCodeAt(0)] >= 0 && SUIT_OF[card.charCodeAt(1)] >= 0;
      if (!ok) return `${at} ${JSON.stringify(card)} is not a card (rank A23456789TJQK then suit CDHS, e.g. "TD")`;
      if (where.has(card)) return `${JSON.stringify(card)} is dealt twice (${where.get(card)} and ${at})`;
      where.set(card, at);
    }
  }
  return 'not a valid board';
}

// ---------------------------------------------------------------- solutions

// Names of the context's globals: the dealing wrapper passes them in as parameters, because in a
// vm context every global lookup goes through an interceptor (2.5× slower for the original
// solution, which reads `Math` 52 times a deal).
const SHADOWABLE = /^[A-Za-z_$][\w$]*$/;
const NOT_SHADOWED = new Set(['globalThis', 'eval', 'arguments', RUN_NAME]);

function newContext(extra) {
  const sandbox = { console: silentConsole };
  if (extra) Object.assign(sandbox, extra);
  return vm.createContext(sandbox);
}

// A loaded solution: { status: 'ok', fn, ctx } or { status, message, line }.
function loadSolution(source, filename, line, timeoutMs) {
  const ctx = newContext();
  const names = vm
    .runInContext('Object.getOwnPropertyNames(globalThis)', ctx)
    .filter((n) => SHADOWABLE.test(n) && !NOT_SHADOWED.has(n));
  const head = `(function (${names.join(', ')}) {`;
  const tail = `\n;return typeof dealFreeCell === 'function' ? dealFreeCell : globalThis.dealFreeCell;\n})(${names.join(', ')})`;
  let script = null;
  try {
    script = new vm.Script(`${head}\n${source}${tail}`, { filename, lineOffset: line - 2 });
  } catch (_) {
    script = null; // a top-level declaration may clash with a shadowed name: plain script below
  }
  let fn;
  try {
    if (script !== null) {
      fn = script.runInContext(ctx, { timeout: timeoutMs });
    } else {
      const plain = new vm.Script(source, { filename, lineOffset: line - 1 });
      plain.runInContext(ctx, { timeout: timeoutMs });
      fn = vm.runInContext(
        "typeof dealFreeCell === 'function' ? dealFreeCell : globalThis.dealFreeCell",
        ctx,
      );
    }
  } catch (err) {
    const syntax = err !== null && typeof err === 'object' && err.name === 'SyntaxError' && script === null;
    const message = isTimeout(err)
      ? `the solution's top-level code ran longer than ${timeoutMs} ms`
      : describeError(err, filename);
    return { status: syntax ? 'syntax-error' : 'runtime-error', message, line: errorLine(err, filename) };
  }
  if (typeof fn !== 'function') {
    return { status: 'missing', message: 'the solution defines no function dealFreeCell', line: null };
  }
  return { status: 'ok', fn, ctx };
}

// ---------------------------------------------------------------- dealing

let loaded = null; // { source, filename, line, solution }

function rebuild(timeoutMs) {
  loaded.solution = loadSolution(loaded.source, loaded.filename, loaded.line, timeoutMs);
  if (loaded.solution.status !== 'ok') throw new Error(`the solution no longer loads: ${loaded.solution.message}`);
}

function deal(req) {
  const id = req.id;
  if (loaded === null || loaded.solution.status !== 'ok') {
    send({ id, end: true, error: 'no solution loaded' });
    return;
  }
  const timeoutMs = req.timeout_ms > 0 ? req.timeout_ms : DEFAULT_TIMEOUT_MS;
  const chunkMs = req.chunk_ms >= 0 ? req.chunk_ms : Math.min(timeoutMs / 2, MAX_CHUNK_MS);
  const budget = Math.min(chunkMs, timeoutMs / 2);
  const list = Array.isArray(req.deals) ? req.deals : null;
  const start = list ? 0 : req.start;
  const count = list ? list.length : req.stop - req.start + 1;
  const digest = req.mode === 'digest';
  const hash = digest ? crypto.createHash('sha256') : null;
  const filename = loaded.filename;

  // The state the resumable loop shares with this function; `i` is the deal being dealt.
  const state = { i: 0, lines: [], failures: [], acc: '', stopped: false };
  const fail = (i, kind, message) => {
    state.failures.push({ index: i, deal: list ? list[i] : start + i, kind, message });
    if (digest) state.stopped = true;
  };
  const runChunk = () => {
    const fn = loaded.solution.fn;
    const t0 = Date.now();
    while (state.i < count && !state.stopped) {
      const i = state.i;
      let line = null;
      try {
        const board = fn(list ? list[i] : start + i);
        line = canonicalLine(board);
        if (line === null) fail(i, 'invalid-output', whyInvalid(board));
      } catch (err) {
        if (isTimeout(err)) throw err;
        fail(i, 'error', describeError(err, filename));
      }
      if (digest) {
        if (line !== null) {
          state.acc += line;
          if (state.acc.length > 65536) {
            hash.update(state.acc);
            state.acc = '';
          }
        }
      } else {
        state.lines.push(line);
      }
      state.i = i + 1;
      if (Date.now() - t0 >= budget) break;
    }
  };

  let from = 0;
  while (state.i < count && !state.stopped) {
    loaded.solution.ctx[RUN_NAME] = runChunk;
    try {
      vm.runInContext(`${RUN_NAME}()`, loaded.solution.ctx, { timeout: Math.ceil(timeoutMs * 1.5) });
    } catch (err) {
      if (!isTimeout(err)) throw err;
      fail(state.i, 'timeout', `dealFreeCell(${list ? list[state.i] : start + state.i}) ran longer than ${timeoutMs / 1000} s`);
      if (!digest) state.lines.push(null);
      state.i += 1;
      rebuild(timeoutMs); // the solution's state may be half-updated: start it afresh
    }
    if (digest) {
      if (state.i < count && !state.stopped) send({ id, part: true, from, done: state.i });
    } else {
      send({ id, part: true, from, lines: state.lines, failures: state.failures });
      state.lines = [];
      state.failures = [];
    }
    from = state.i;
  }
  if (digest) {
    const failure = state.failures.length ? state.failures[0] : null;
    if (failure === null) hash.update(state.acc);
    send({ id, end: true, count, digest: failure === null ? hash.digest('hex') : null, failure });
  } else {
    send({ id, end: true, count });
  }
}

// ---------------------------------------------------------------- hints

function runScript(code, filename, line, ctx, timeoutMs) {
  const script = new vm.Script(code, { filename, lineOffset: line - 1 });
  return script.runInContext(ctx, { timeout: timeoutMs });
}

function compiles(code, filename, line) {
  try {
    new vm.Script(code, { filename, lineOffset: line - 1 });
    return null;
  } catch (err) {
    return describeError(err, filename);
  }
}

function undefinedName(err) {
  if (err === null || typeof err !== 'object' || err.name !== 'ReferenceError') return null;
  const m = /^(\S+) is not defined/.exec(String(err.message));
  return m ? m[1] : '';
}

function hints(req) {
  const timeoutMs = req.timeout_ms > 0 ? req.timeout_ms : DEFAULT_TIMEOUT_MS;
  const file = req.solution_filename || 'solution.js';
  const seedNames = new Set(req.seed_names || []);
  const solutionSource = typeof req.solution === 'string' ? req.solution : null;
  const afterTest = typeof req.after_test === 'string' ? req.after_test : '';
  const afterLine = req.after_test_line || 1;

  let solution;
  if (solutionSource === null) {
    solution = { status: 'missing', error: 'the document has no solution' };
  } else {
    const syntax = compiles(solutionSource, file, req.solution_line || 1);
    solution = syntax === null ? { status: 'ok', error: null } : { status: 'syntax-error', error: syntax };
  }
  const afterSyntax = afterTest ? compiles(afterTest, file, afterLine) : null;
  let afterTestError = afterSyntax;

  const results = [];
  for (const hint of req.hints || []) {
    const code = String(hint.code || '');
    const hintLine = hint.line || 1;
    const own = compiles(code, file, hintLine);
    if (own !== null) {
      results.push({ status: 'broken', reason: `the hint does not compile: ${own}` });
      continue;
    }
    if (solution.status === 'syntax-error' || solution.status === 'missing') {
      results.push({ status: 'failed', reason: `not run: ${solution.error}` });
      continue;
    }
    const ctx = newContext({ assert: nodeAssert });
    try {
      runScript(solutionSource, file, req.solution_line || 1, ctx, timeoutMs);
    } catch (err) {
      const why = isTimeout(err) ? `ran longer than ${timeoutMs} ms` : describeError(err, file);
      if (solution.status === 'ok') solution = { status: 'runtime-error', error: why };
      results.push({ status: 'failed', reason: `the solution fails: ${why}` });
      continue;
    }
    if (afterTest && afterSyntax === null) {
      try {
        runScript(afterTest, file, afterLine, ctx, timeoutMs);
      } catch (err) {
        afterTestError = isTimeout(err) ? `ran longer than ${timeoutMs} ms` : describeError(err, file);
      }
    }
    try {
      runScript(code, file, hintLine, ctx, timeoutMs);
      results.push({ status: 'passed', reason: null });
    } catch (err) {
      const name = undefinedName(err);
      if (isTimeout(err)) {
        results.push({ status: 'failed', reason: `timed out after ${timeoutMs} ms` });
      } else if (name !== null && !seedNames.has(name)) {
        results.push({ status: 'broken', reason: `the hint uses an undefined name: ${describeError(err, file)}` });
      } else if (err !== null && typeof err === 'object' && err.code === 'ERR_ASSERTION') {
        results.push({ status: 'failed', reason: `assertion failed: ${err.message}` });
      } else {
        results.push({ status: 'failed', reason: describeError(err, file) });
      }
    }
  }
  send({ id: req.id, end: true, solution, after_test_error: afterTestError, hints: results });
}

// ---------------------------------------------------------------- requests

function serve(req) {
  switch (req.op) {
    case 'load': {
      const solution = loadSolution(String(req.source), String(req.filename || 'solution.js'), req.line || 1, req.timeout_ms > 0 ? req.timeout_ms : DEFAULT_TIMEOUT_MS);
      loaded = { source: String(req.source), filename: String(req.filename || 'solution.js'), line: req.line || 1, solution };
      if (solution.status === 'ok') send({ id: req.id, end: true, ok: true });
      else send({ id: req.id, end: true, ok: false, status: solution.status, message: solution.message, line: solution.line });
      return;
    }
    case 'deal':
      deal(req);
      return;
    case 'hints':
      hints(req);
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
    if (req === null || typeof req !== 'object') {
      send({ id: null, end: true, error: 'a request must be a JSON object' });
      continue;
    }
    serve(req);
  }
});
process.stdin.on('end', () => process.exit(0));

send({ hello: 'freecell-harness-driver', protocol: PROTOCOL, node: process.version });
