// freecell-harness: what a dealer's vm context gets, built inside that context (never handed in
// from the driver).  driver.js evaluates this file first in every fresh context; it defines the
// context's `console` and the non-writable global `__freecellHarness`, through which the driver
// asks for work and receives only primitives (numbers and strings, most of them JSON text).
(function (g) {
  'use strict';
  const lock = (obj, key, value) =>
    Object.defineProperty(obj, key, { value, writable: false, enumerable: false, configurable: false });
  // Node calls the context's `Error.prepareStackTrace` with arrays and call sites of the host's
  // realm: pin it (and `Error` itself) so that dealer code cannot install one.
  lock(g.Error, 'prepareStackTrace', undefined);
  lock(g, 'Error', g.Error);

  const stringify = JSON.stringify;
  const isArray = Array.isArray;
  const objectKeys = Object.keys;
  const now = Date.now;
  const StringOf = String;
  const parse = JSON.parse;
  const apply = Reflect.apply;
  const arrayShift = Array.prototype.shift;
  const stringSlice = String.prototype.slice;
  const isFiniteNumber = Number.isFinite;

  // Our answers to the driver as JSON text, built without consulting anything a dealer can change:
  // JSON.stringify calls an object's toJSON (Prototype.js-era code defines Array.prototype.toJSON),
  // but looks up nothing for a primitive.  Only our own plain objects and dense arrays come here.
  const jsonText = (v) => {
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'string' || typeof v === 'boolean') return stringify(v);
    if (typeof v === 'number') return isFiniteNumber(v) ? stringify(v) : 'null';
    let text;
    if (isArray(v)) {
      text = '[';
      for (let k = 0; k < v.length; k++) text += (k ? ',' : '') + jsonText(v[k]);
      return text + ']';
    }
    const keys = objectKeys(v);
    text = '{';
    for (let k = 0; k < keys.length; k++) text += (k ? ',' : '') + stringify(keys[k]) + ':' + jsonText(v[keys[k]]);
    return text + '}';
  };

  // ------------------------------------------------------------------ console (to a buffer)
  const MAX_LOG_LINES = 200;
  const MAX_LOG_CHARS = 500;
  let logLines = [];
  let logDropped = 0;
  const show = (v) => {
    if (typeof v === 'string') return v;
    try {
      const text = stringify(v);
      return text === undefined ? StringOf(v) : text;
    } catch (_) {
      return Object.prototype.toString.call(v);
    }
  };
  const write = (...args) => {
    if (logLines.length >= MAX_LOG_LINES) {
      logDropped++;
      return;
    }
    let text;
    try {
      text = args.map(show).join(' ');
    } catch (_) {
      text = '(unprintable)';
    }
    logLines.push(text.length > MAX_LOG_CHARS ? text.slice(0, MAX_LOG_CHARS) + '…' : text);
  };
  const console = {};
  for (const name of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table']) console[name] = write;
  for (const name of ['group', 'groupCollapsed', 'groupEnd', 'time', 'timeEnd', 'timeLog', 'count', 'clear']) {
    console[name] = () => {};
  }
  console.assert = (ok, ...rest) => {
    if (!ok) write('Assertion failed', ...rest);
  };
  g.console = console;

  // ------------------------------------------------------------------ errors
  const describeValue = (v) => {
    if (v === null) return 'null';
    if (isArray(v)) return `an array of ${v.length}`;
    if (typeof v === 'string') return `the string ${stringify(v.length > 20 ? v.slice(0, 20) + '…' : v)}`;
    if (typeof v === 'object') return 'an object';
    if (typeof v === 'undefined') return 'undefined';
    return `${typeof v} ${StringOf(v)}`;
  };
  const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The innermost line of `files` (names) that the error's stack mentions.
  const errorWhere = (err, files) => {
    let stack = '';
    try {
      stack = StringOf(err.stack || '');
    } catch (_) {
      return null;
    }
    let best = null;
    for (const file of files) {
      const m = new RegExp(`(?:^|\\(|at )${escapeRe(file)}:(\\d+)`, 'm').exec(stack);
      if (m && (best === null || m.index < best.index)) best = { index: m.index, file, line: Number(m[1]) };
    }
    return best === null ? null : { file: best.file, line: best.line };
  };
  const describeError = (err, files) => {
    if (err === null || (typeof err !== 'object' && typeof err !== 'function')) {
      return { text: `threw ${describeValue(err)}`, name: null, where: null, assertion: false, undefinedName: null };
    }
    let name = 'Error';
    let message = '';
    try {
      name = StringOf(err.name || 'Error');
      message = StringOf(err.message);
    } catch (_) {
      message = '(unreadable)';
    }
    const where = errorWhere(err, files);
    const m = name === 'ReferenceError' ? /^(\S+) is not defined/.exec(message) : null;
    return {
      text: `${name}: ${message}` + (where ? ` (${where.file}:${where.line})` : ''),
      name,
      where,
      assertion: name === 'AssertionError',
      undefinedName: m ? m[1] : null,
    };
  };

  // ------------------------------------------------------------------ boards
  const RANKS = 'A23456789TJQK';
  const SUITS = 'CDHS';
  const RANK_OF = new Int8Array(128).fill(-1);
  const SUIT_OF = new Int8Array(128).fill(-1);
  for (let i = 0; i < 13; i++) RANK_OF[RANKS.charCodeAt(i)] = i;
  for (let i = 0; i < 4; i++) SUIT_OF[SUITS.charCodeAt(i)] = i;
  const seen = new Int32Array(52);
  let generation = 0;
  // Each card with the separator after it, made once: a line is 52 concatenations, not 104.
  const WITH_SPACE = [];
  const WITH_NEWLINE = [];
  for (let k = 0; k < 52; k++) {
    WITH_SPACE.push(`${RANKS[k >> 2]}${SUITS[k & 3]} `);
    WITH_NEWLINE.push(`${RANKS[k >> 2]}${SUITS[k & 3]}\n`);
  }

  // The canonical line of 7 rows of canonical card strings, else null (the slow path decides).
  const canonicalRows = (board) => {
    if (!isArray(board) || board.length !== 7) return null;
    if (++generation === 0x7fffffff) {
      seen.fill(0);
      generation = 1;
    }
    let line = '';
    for (let r = 0; r < 7; r++) {
      const row = board[r];
      const width = r === 6 ? 4 : 8;
      if (!isArray(row) || row.length !== width) return null;
      for (let j = 0; j < width; j++) {
        const card = row[j];
        if (typeof card !== 'string' || card.length !== 2) return null;
        const a = card.charCodeAt(0);
        const b = card.charCodeAt(1);
        if (a > 127 || b > 127) return null;
        const rank = RANK_OF[a];
        const suit = SUIT_OF[b];
        if (rank < 0 || suit < 0) return null;
        const k = rank * 4 + suit;
        if (seen[k] === generation) return null;
        seen[k] = generation;
        line += r === 6 && j === 3 ? WITH_NEWLINE[k] : WITH_SPACE[k];
      }
    }
    return line;
  };

  // Anything else a dealer returned, as JSON-able data for the harness's lenient reader.
  const MAX_RAW_CHARS = 1 << 16;
  const rawValue = (v, depth) => {
    if (typeof v === 'string') return v.length > MAX_RAW_CHARS ? v.slice(0, MAX_RAW_CHARS) : v;
    if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return v === undefined ? null : v;
    if (isArray(v) && depth < 2) {
      const out = [];
      for (let i = 0; i < v.length && i < 64; i++) out.push(rawValue(v[i], depth + 1));
      return out;
    }
    if (typeof v === 'object' && v !== null && 'rank' in v && 'suit' in v) return `${v.rank}${v.suit}`;
    return StringOf(v);
  };
  const isThenable = (v) => v !== null && (typeof v === 'object' || typeof v === 'function') && typeof v.then === 'function';

  // ------------------------------------------------------------------ modules
  const definitions = new Map(); // id -> { wrapper, filename, requires: {specifier: id} }
  const modules = new Map(); // id -> module (while and after it runs)
  const files = [];
  // Node's built-in modules: those that do no I/O come from builtins.js (our own, made in this
  // context); the others are refused by name.
  const BUILTIN = /^(?:node:)?(assert|assert\/strict|async_hooks|buffer|child_process|cluster|console|constants|crypto|dgram|diagnostics_channel|dns|dns\/promises|domain|events|fs|fs\/promises|http|http2|https|inspector|module|net|os|path|path\/posix|path\/win32|perf_hooks|process|punycode|querystring|readline|readline\/promises|repl|stream|stream\/promises|string_decoder|sys|timers|timers\/promises|tls|trace_events|tty|url|util|util\/types|v8|vm|wasi|worker_threads|zlib)$/;

  const shims = {};
  const define = (id, filename, requiresJson, wrapper) => {
    definitions.set(id, { wrapper, filename, requires: JSON.parse(requiresJson) });
    files.push(filename);
  };
  const requireFrom = (fromId) => (specifier) => {
    specifier = StringOf(specifier);
    const def = definitions.get(fromId);
    const target = def && Object.prototype.hasOwnProperty.call(def.requires, specifier) ? def.requires[specifier] : null;
    if (target !== null && definitions.has(target)) return runModule(target).exports;
    const builtin = BUILTIN.exec(specifier);
    if (builtin) {
      const shim = Object.prototype.hasOwnProperty.call(shims, builtin[1]) ? shims[builtin[1]] : null;
      if (shim) return shim();
      throw new Error(
        `require('${specifier}'): Node's built-in module '${builtin[1]}' is not available to a dealer ` +
          '(dealers run isolated, without I/O or processes; available: ' +
          `${objectKeys(shims).filter((k) => !k.includes('/')).sort().join(', ')})`,
      );
    }
    const err = new Error(`Cannot find module '${specifier}'`);
    err.code = 'MODULE_NOT_FOUND';
    throw err;
  };
  // `module.createRequire(import.meta.url)` (or a file name): the require of that module of the dealer.
  const createRequire = (from) => {
    let name = StringOf(from && typeof from === 'object' && 'href' in from ? from.href : from);
    if (name.startsWith('file://')) name = decodeURIComponent(name.slice('file://'.length));
    for (const [id, def] of definitions) if (def.filename === name) return makeRequire(id);
    throw new Error(`createRequire(${stringify(StringOf(from))}): not a file of the dealer's`);
  };
  shims.module = () => ({ createRequire, builtinModules: objectKeys(shims), isBuiltin: (s) => BUILTIN.test(StringOf(s)) });
  const makeRequire = (id) => {
    const def = definitions.get(id);
    const require = requireFrom(id);
    require.main = undefined; // `if (require.main === module)` start-up code does not run
    require.cache = {};
    require.resolve = (s) => (Object.prototype.hasOwnProperty.call(def.requires, s) ? def.requires[s] : s);
    return require;
  };
  const runModule = (id) => {
    const existing = modules.get(id);
    if (existing) return existing;
    const def = definitions.get(id);
    const module = { id, exports: {}, loaded: false, filename: def.filename, children: [], paths: [] };
    modules.set(id, module);
    const require = makeRequire(id);
    module.require = require;
    const dirname = def.filename.includes('/') ? def.filename.slice(0, def.filename.lastIndexOf('/')) : '.';
    module.local = def.wrapper.call(module.exports, module.exports, require, module, def.filename, dirname, require);
    module.loaded = true;
    return module;
  };

  // ------------------------------------------------------------------ the dealer
  let dealer = null;
  let dealerName = 'dealFreeCell';

  const pick = (module, name, explicit) => {
    const exp = module.exports;
    const own = (o, k) => o !== null && (typeof o === 'object' || typeof o === 'function') && typeof o[k] === 'function';
    if (own(exp, name)) return exp[name];
    // `#default`: `export default function`, or `module.exports = function`
    if (name === 'default') return typeof exp === 'function' ? exp : null;
    if (typeof module.local === 'function') return module.local;
    if (typeof g[name] === 'function') return g[name];
    if (!explicit) {
      if (typeof exp === 'function') return exp;
      if (own(exp, 'default')) return exp.default;
    }
    return null;
  };

  const BROWSER_NAMES = /^(window|document|self|navigator|location|localStorage|sessionStorage|requestAnimationFrame|addEventListener|alert|process|global|setTimeout|setInterval|fetch|XMLHttpRequest|Image|HTMLElement)$/;

  const load = (entryId, name, explicit) => {
    dealerName = name;
    let module;
    try {
      module = runModule(entryId);
    } catch (err) {
      const d = describeError(err, files);
      let message = d.text;
      if (d.undefinedName !== null && BROWSER_NAMES.test(d.undefinedName)) {
        message +=
          `: the code uses \`${d.undefinedName}\` as it loads, as browser or Node start-up code does ` +
          '(a web-game bundle?); a dealer runs as plain JavaScript without window, document, timers or ' +
          "Node's process: load a file that only defines the dealing function";
      }
      return jsonText({ status: 'runtime-error', message, file: d.where && d.where.file, line: d.where && d.where.line });
    }
    dealer = pick(module, name, explicit);
    if (dealer === null) {
      const exported = module.exports && typeof module.exports === 'object' ? objectKeys(module.exports) : [];
      const also = exported.length ? ` (it exports ${exported.slice(0, 8).join(', ')})` : '';
      return jsonText({ status: 'missing', message: `defines no function ${name}${also}`, file: null, line: null });
    }
    return jsonText({ status: 'ok' });
  };

  // ------------------------------------------------------------------ dealing
  // One block at a time: begin() then step() until done; async answers settle between steps.
  const block = { list: null, start: 0, count: 0, i: 0, digest: false, failures: [], raw: [], text: '', pieces: [], pending: [] };

  const begin = (mode, start, count, listJson) => {
    block.list = listJson ? parse(listJson) : null;
    block.start = start;
    block.count = count;
    block.i = 0;
    block.digest = mode === 'digest';
    block.pending = [];
    block.failures = [];
    block.raw = [];
    block.text = '';
    block.pieces = [];
    return 0;
  };
  const dealAt = (i) => (block.list ? block.list[i] : block.start + i);
  const fail = (i, kind, message) => block.failures.push({ index: i, kind, message });

  // Lines travel as one text (no JSON): each deal's canonical line, or a bare LF where the deal
  // has none (it failed, or its board is in `raw` for the harness's lenient reader).
  const settle = (i, value) => {
    const line = canonicalRows(value);
    if (line !== null) {
      block.text += line;
      return;
    }
    if (!block.digest) block.text += '\n';
    block.raw.push(block.digest ? [i, null] : [i, rawValue(value, 0)]);
  };

  // A step gathers up to maxPieces pieces of maxChars characters of lines: each call with a
  // timeout costs a watchdog thread (~50 µs), and one long string costs more to build and hash
  // than several short ones.
  const step = (budgetMs, maxChars, maxPieces) => {
    const fn = dealer;
    const t0 = now();
    while (block.i < block.count) {
      if (block.text.length >= maxChars) {
        if (block.pieces.length + 1 >= maxPieces) break;
        const piece = block.text;
        piece | 0; // ToNumber flattens V8's rope of += pieces: kept a while, it is then one string, not thousands
        block.pieces.push(piece);
        block.text = '';
      }
      const i = block.i;
      block.i = i + 1;
      let value;
      try {
        value = fn(dealAt(i));
      } catch (err) {
        fail(i, 'error', describeError(err, files).text);
        if (block.digest) break;
        block.text += '\n';
        continue;
      }
      if (isThenable(value)) {
        const entry = { i, at: block.text.length, done: false, value: undefined, error: undefined, threw: false };
        block.pending.push(entry);
        try {
          value.then(
            (v) => {
              entry.done = true;
              entry.value = v;
            },
            (e) => {
              entry.done = true;
              entry.threw = true;
              entry.error = e;
            },
          );
        } catch (err) {
          entry.done = true;
          entry.threw = true;
          entry.error = err;
        }
        // Its continuations run when this step's evaluation ends: one async deal per step, so
        // that a continuation that hangs is pinned to its own deal.
        break;
      } else {
        settle(i, value);
      }
      if (block.digest && (block.failures.length || block.raw.length)) break;
      if (now() - t0 >= budgetMs) break;
    }
    return block.pending.length > 0; // whether collect() reads values a dealer's Promise settled to
  };

  // What the last step produced (its promises have settled by now: the context drains its
  // microtasks after every evaluation), as JSON text; the lines themselves are taken by text().
  const collect = () => {
    if (block.pending.length) {
      // Async answers go where their deal is: rebuild the text in deal order.
      let text = '';
      let from = 0;
      for (const entry of block.pending) {
        text += apply(stringSlice, block.text, [from, entry.at]);
        from = entry.at;
        const saved = block.text;
        block.text = '';
        if (!entry.done) {
          fail(entry.i, 'error', `${dealerName}(${dealAt(entry.i)}) returned a Promise that never settled (a dealer's context has no timers, I/O or import())`);
          if (!block.digest) block.text = '\n';
        } else if (entry.threw) {
          fail(entry.i, 'error', describeError(entry.error, files).text);
          if (!block.digest) block.text = '\n';
        } else {
          settle(entry.i, entry.value);
        }
        text += block.text;
        block.text = saved;
      }
      block.text = text + apply(stringSlice, block.text, [from]);
      block.pending = [];
    }
    const out = { done: block.i, failures: block.failures, raw: block.raw, pieces: block.pieces.length + 1 };
    block.failures = [];
    block.raw = [];
    return jsonText(out);
  };
  // The step's lines, a piece a call: collect() says how many pieces there are.  It runs with no
  // timeout, so it calls no method a dealer could have replaced (shift is the one taken at start).
  const text = () => {
    if (block.pieces.length) return apply(arrayShift, block.pieces, []);
    const t = block.text;
    block.text = '';
    return t;
  };
  // The deal being dealt when a step was cut off by the timeout.
  const position = () => block.i - 1;

  // ------------------------------------------------------------------ hints
  let hintState = null;
  const trackHint = (promise) => {
    hintState = { done: false, error: undefined, threw: false };
    const state = hintState;
    Promise.resolve(promise).then(
      () => {
        state.done = true;
      },
      (e) => {
        state.done = true;
        state.threw = true;
        state.error = e;
      },
    );
  };
  const hintResult = () => {
    const s = hintState;
    if (s === null || !s.done) return jsonText({ state: 'pending' });
    if (!s.threw) return jsonText({ state: 'passed' });
    return jsonText({ state: 'threw', error: describeError(s.error, files) });
  };
  const describe = (err) => jsonText(describeError(err, files));
  const addFile = (name) => {
    if (!files.includes(name)) files.push(name);
  };
  const takeLog = () => {
    let text = '';
    for (let k = 0; k < logLines.length; k++) text += (k ? '\n' : '') + logLines[k];
    if (logDropped) text += `\n(${logDropped} more console lines dropped)`;
    logLines = [];
    logDropped = 0;
    return stringify(text);
  };

  const harness = Object.freeze({
    define, load, begin, step, collect, text, position, trackHint, hintResult, describe, addFile, takeLog, shims,
  });
  lock(g, '__freecellHarness', harness);
})(globalThis);
