// freecell-harness: what a dealer's vm context gets, built inside that context (never handed in
// from the driver).  driver.js evaluates answers.js and this file in every fresh context before any
// dealer code, and calls the function this file evaluates to with the context's global and the
// reader answers.js evaluated to.  It defines the context's `console` and returns the harness's
// entry points, which no global refers to: the driver calls them from a context of its own, and
// receives only primitives (numbers and strings, most of them JSON text).  Everything they call on
// the way is taken here, before a dealer can replace it.
(function (g, answers) {
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
  const stringSlice = String.prototype.slice;
  const stringSplit = String.prototype.split;
  const bindTo = Function.prototype.call.bind(Function.prototype.bind);
  const ownNames = Object.getOwnPropertyNames;
  const ownKeys = Reflect.ownKeys;
  const isFiniteNumber = Number.isFinite;
  const defineProperty = Reflect.defineProperty;
  const promiseThen = Function.prototype.call.bind(Promise.prototype.then);
  const fnToString = Function.prototype.call.bind(Function.prototype.toString);
  const getOwnDescriptor = Reflect.getOwnPropertyDescriptor;
  // Appends to an array of ours: defines the element, so that no setter a dealer put on
  // Array.prototype (an index, or `push` itself) sees it.
  const append = (list, value) => {
    defineProperty(list, list.length, { __proto__: null, value, writable: true, enumerable: true, configurable: true });
  };

  // Callbacks the host would run between deals, outside any time limit: a dealer gets none.
  // FinalizationRegistry keeps its shape but never calls back (the language allows that);
  // Atomics.waitAsync is gone; WebAssembly compiles synchronously, its promises settle at once.
  const Registry = class FinalizationRegistry {
    constructor(callback) {
      if (typeof callback !== 'function') throw new TypeError('FinalizationRegistry: cleanup must be callable');
    }
    register() {}
    unregister() {
      return false;
    }
  };
  g.FinalizationRegistry = Registry;
  if (g.Atomics) delete g.Atomics.waitAsync;
  if (g.WebAssembly) {
    const Wasm = g.WebAssembly;
    const compiled = (bytes) => new Promise((resolve) => resolve(new Wasm.Module(bytes)));
    Wasm.compile = compiled;
    Wasm.instantiate = (source, imports) =>
      new Promise((resolve) => {
        if (source instanceof Wasm.Module) resolve(new Wasm.Instance(source, imports));
        const module = new Wasm.Module(source);
        resolve({ module, instance: new Wasm.Instance(module, imports) });
      });
    delete Wasm.compileStreaming;
    delete Wasm.instantiateStreaming;
  }

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
  const describeValue = answers.describe;
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
    try {
      for (let k = 0; k < files.length; k++) {
        const file = files[k];
        const m = new RegExp(`(?:^|\\(|at )${escapeRe(file)}:(\\d+)`, 'm').exec(stack);
        if (m && (best === null || m.index < best.index)) best = { index: m.index, file, line: Number(m[1]) };
      }
    } catch (_) {
      return null; // a dealer replaced what this uses: the message goes without a line
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

  // ------------------------------------------------------------------ boards (answers.js)
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
  let dealerIsClass = false; // called with `new`
  let dealerCall = 'dealFreeCell'; // how messages name a call: `Deck`, or `new Deck` for a class
  let found = 'dealFreeCell'; // the name the dealer was found by

  const isObject = (v) => v !== null && (typeof v === 'object' || typeof v === 'function');
  // Function fn of object `holder`, called on it (a class is called with `new`, on nothing).
  const method = (fn, holder) => (isConstructor(fn) ? fn : bindTo(fn, holder));
  // A class, or a class compiled to ES5 (TypeScript's target ES5, Babel): a function with methods
  // on its prototype.  Called with `new`.
  const isConstructor = (fn) => {
    try {
      if (apply(stringSlice, fnToString(fn), [0, 6]) === 'class ') return true;
      const proto = getOwnDescriptor(fn, 'prototype');
      if (!proto || proto.value === null || typeof proto.value !== 'object') return false;
      const keys = ownKeys(proto.value);
      for (let k = 0; k < keys.length; k++) if (keys[k] !== 'constructor') return true;
      return false;
    } catch (_) {
      return false; // a Proxy: called as a function
    }
  };
  const pick = (module, name, explicit) => {
    const exp = module.exports;
    const own = (o, k) => o !== null && (typeof o === 'object' || typeof o === 'function') && typeof o[k] === 'function';
    found = name;
    // an export is called on what holds it, as `require('./deal').dealFreeCell(n)` is: a method of an
    // exported instance or object literal uses `this`
    if (own(exp, name)) return method(exp[name], exp);
    // `#default`: `export default function`, or `module.exports = function`
    if (name === 'default') return typeof exp === 'function' ? exp : null;
    if (isObject(exp) && own(exp.default, name)) {
      found = `default.${name}`; // export default { dealFreeCell() { … } }
      return method(exp.default[name], exp.default);
    }
    if (typeof module.local === 'function') return module.local;
    if (typeof g[name] === 'function') return g[name];
    if (!explicit) {
      found = 'module.exports';
      if (typeof exp === 'function') return exp;
      found = 'default';
      if (own(exp, 'default')) return exp.default;
    }
    return null;
  };

  let reached = null; // where a path `Game.deal` ended without a function: [its name so far, the object there]
  // `#Game.deal`: the module's export, top-level binding or global `Game`, then its property `deal`;
  // a method is called on what holds it (a static method may use `this`).
  const pickPath = (module, parts) => {
    const exp = module.exports;
    const head = parts[0];
    let value;
    if (head === 'default') value = isObject(exp) && 'default' in exp ? exp.default : exp;
    else if (isObject(exp) && head in exp) value = exp[head];
    else value = module.local !== undefined ? module.local : g[head];
    let holder = null;
    let path = head;
    for (let k = 1; k < parts.length; k++) {
      if (!isObject(value)) return null;
      reached = [path, value];
      holder = value;
      value = value[parts[k]];
      path += '.' + parts[k];
    }
    if (typeof value !== 'function') return null;
    return isObject(holder) ? method(value, holder) : value;
  };
  // The functions an object holds (a class's static methods, a bundle's exports), for a message.
  const functionsOf = (obj) => {
    const names = [];
    const own = ownNames(obj);
    for (let k = 0; k < own.length && names.length < 8; k++) {
      try {
        if (own[k] !== 'constructor' && typeof obj[own[k]] === 'function') append(names, own[k]);
      } catch (_) {
        // a getter that throws holds no function
      }
    }
    return names;
  };

  const BROWSER_NAMES = /^(window|document|self|navigator|location|localStorage|sessionStorage|requestAnimationFrame|addEventListener|alert|setTimeout|setInterval|fetch|XMLHttpRequest|Image|HTMLElement)$/;

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
          'I/O: load a file that only defines the dealing function';
      }
      return jsonText({ status: 'runtime-error', message, file: d.where && d.where.file, line: d.where && d.where.line });
    }
    const parts = apply(stringSplit, name, ['.']);
    reached = null;
    try {
      dealer = parts.length > 1 ? pickPath(module, parts) : pick(module, name, explicit);
    } catch (err) {
      // an export's getter (a bundle's lazy export) or a Proxy that throws
      const d = describeError(err, files);
      return jsonText({ status: 'runtime-error', message: `finding ${name} threw ${d.text}`, file: d.where && d.where.file, line: d.where && d.where.line });
    }
    if (dealer === null) {
      let also = '';
      if (reached !== null) {
        const held = functionsOf(reached[1]);
        also = ` (${reached[0]} has ${held.length ? held.join(', ') : 'no functions'})`;
      } else {
        const exported = module.exports && typeof module.exports === 'object' ? objectKeys(module.exports) : [];
        // the exported functions, then each exported class's static methods (`FreeCell.deal`): a class
        // such as `Card` is no dealer, the static method that deals is
        const callable = exported.length ? functionsOf(module.exports) : [];
        const statics = [];
        for (let k = 0; k < callable.length; k++) {
          let held = [];
          try {
            held = functionsOf(module.exports[callable[k]]);
          } catch (_) {
            // a getter that throws holds no function
          }
          for (let j = 0; j < held.length; j++) append(statics, `${callable[k]}.${held[j]}`);
        }
        const dealing = answers.likelyDealer(statics);
        const shown = /deal/i.test(dealing) && !/deal/i.test(answers.likelyDealer(callable)) ? dealing : answers.likelyDealer(callable);
        also = exported.length ? ` (it exports ${exported.slice(0, 8).join(', ')}${shown ? `: name it, e.g. #${shown}` : ''})` : '';
      }
      return jsonText({ status: 'missing', message: `defines no function ${name}${also}`, file: null, line: null });
    }
    let own = '';
    try {
      const d = getOwnDescriptor(dealer, 'name');
      own = d && typeof d.value === 'string' && IDENTIFIER.test(d.value) && d.value !== 'default' ? d.value : '';
    } catch (_) {
      own = ''; // a Proxy
    }
    dealerIsClass = isConstructor(dealer);
    dealerCall = (dealerIsClass ? 'new ' : '') + (parts.length > 1 ? name : own || found);
    return jsonText({ status: 'ok', dealer: dealerCall });
  };
  const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
  const callOf = (i) => `${dealerCall}(${dealAt(i)})`;

  // ------------------------------------------------------------------ dealing
  // One block at a time: begin() then step() until done; async answers settle between steps.
  const block = { list: null, start: 0, count: 0, i: 0, digest: false, failures: [], raw: [], text: '', pieces: [], taken: 0, pending: [], sink: null };

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
    block.taken = 0;
    block.sink = null;
    return 0;
  };
  // Digest mode: the driver's function that takes each piece as soon as it is made (it hashes it),
  // set after begin().  A piece kept until the step ends stays young and alive through every
  // collection the dealer's allocations start: each copies it (a game state's deal allocates 4 KB).
  const sinkPieces = (sink) => {
    block.sink = block.digest && typeof sink === 'function' ? sink : null;
    return 0;
  };
  const dealAt = (i) => (block.list ? block.list[i] : block.start + i);
  // A deal without a line: its failure, and (lines mode) a bare LF where its line would be.
  // `actual`: of an invalid-output laid out as a board with a card repeated, its 52 card names.
  const failDeal = (i, kind, message, actual) => {
    append(block.failures, typeof actual === 'string' ? { index: i, kind, message, actual } : { index: i, kind, message });
    if (!block.digest) block.text += '\n';
  };
  const errorText = (err) => {
    try {
      return describeError(err, files).text;
    } catch (_) {
      return 'threw an unreadable exception';
    }
  };
  const returned = (i, value) => {
    if (value === undefined) return `${callOf(i)} returned nothing (undefined)`;
    try {
      return `${callOf(i)} returned ${describeValue(value)}`;
    } catch (_) {
      return `${callOf(i)} returned a value`;
    }
  };

  // Lines travel as one text (no JSON): each deal's canonical line, or a bare LF where the deal
  // has none (it failed, or its board is board text in `raw`, for the harness's lenient reader).
  const settle = (i, value) => {
    let got;
    try {
      const line = answers.readRows(value);
      if (line !== null) {
        block.text += line;
        return;
      }
      got = answers.read(value);
    } catch (err) {
      failDeal(i, 'error', `${returned(i, value)}, and reading it threw: ${errorText(err)}`);
      return;
    }
    if (typeof got === 'string') {
      block.text += got; // its line
    } else if (got.text !== undefined) {
      if (!block.digest) block.text += '\n';
      append(block.raw, [i, block.digest ? null : got.text]);
    } else if (got.refused !== undefined) {
      failDeal(i, 'refused', `${callOf(i)}: ${got.refused}`);
    } else {
      failDeal(i, 'invalid-output', `${returned(i, value)}: ${got.invalid}`, got.given);
    }
  };

  // A step gathers up to maxPieces pieces of maxChars characters of lines (digest mode with a sink:
  // hands each to the sink, gathering none): each call with a timeout costs a watchdog thread
  // (~50 µs), and one long string costs more to build and hash than several short ones.
  const step = (budgetMs, maxChars, maxPieces) => {
    const fn = dealer;
    const t0 = now();
    while (block.i < block.count) {
      if (block.text.length >= maxChars) {
        if (block.pieces.length + 1 >= maxPieces) break;
        const piece = block.text;
        piece | 0; // ToNumber flattens V8's rope of += pieces: kept a while, it is then one string, not thousands
        if (block.sink !== null) block.sink(piece);
        else append(block.pieces, piece);
        block.text = '';
      }
      const i = block.i;
      block.i = i + 1;
      let value;
      let thenable;
      try {
        value = dealerIsClass ? new fn(dealAt(i)) : fn(dealAt(i));
        thenable = isThenable(value);
      } catch (err) {
        failDeal(i, 'error', errorText(err));
        if (block.digest) break;
        continue;
      }
      if (thenable) {
        const entry = { i, at: block.text.length, done: false, value: undefined, error: undefined, threw: false };
        append(block.pending, entry);
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
        // Its continuations run when the driver drains the context's microtasks, right after
        // this step: one async deal per step, so that a continuation that hangs is pinned to it.
        break;
      } else {
        settle(i, value);
      }
      if (block.digest && (block.failures.length || block.raw.length)) break;
      if (now() - t0 >= budgetMs) break;
    }
    return block.pending.length > 0; // whether collect() reads values a dealer's Promise settled to
  };

  // What the last step produced (its promises have settled by now: the driver drained the
  // context's microtasks), as JSON text; the lines themselves are taken by text().
  const collect = () => {
    if (block.pending.length) {
      // Async answers go where their deal is: rebuild the text in deal order.
      let text = '';
      let from = 0;
      for (let k = 0; k < block.pending.length; k++) {
        const entry = block.pending[k];
        text += apply(stringSlice, block.text, [from, entry.at]);
        from = entry.at;
        const saved = block.text;
        block.text = '';
        if (!entry.done) {
          failDeal(entry.i, 'error', `${callOf(entry.i)} returned a Promise that never settled (a dealer's context has no timers, I/O or import())`);
        } else if (entry.threw) {
          failDeal(entry.i, 'error', errorText(entry.error));
        } else {
          settle(entry.i, entry.value);
        }
        text += block.text;
        block.text = saved;
      }
      block.text = text + apply(stringSlice, block.text, [from]);
      block.pending = [];
    }
    const out = { done: block.i, failures: block.failures, raw: block.raw, pieces: block.pieces.length - block.taken + 1 };
    block.failures = [];
    block.raw = [];
    return jsonText(out);
  };
  // The step's lines, a piece a call: collect() says how many pieces there are.  It runs with no
  // timeout, so it calls nothing a dealer could have replaced.
  const text = () => {
    if (block.taken < block.pieces.length) {
      const piece = block.pieces[block.taken];
      block.pieces[block.taken++] = '';
      return piece;
    }
    block.pieces = [];
    block.taken = 0;
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
    promiseThen(
      promise,
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
    if (!files.includes(name)) append(files, name);
  };
  const takeLog = () => {
    let text = '';
    for (let k = 0; k < logLines.length; k++) text += (k ? '\n' : '') + logLines[k];
    if (logDropped) text += `\n(${logDropped} more console lines dropped)`;
    logLines = [];
    logDropped = 0;
    return stringify(text);
  };

  return Object.freeze({
    define, load, begin, sinkPieces, step, collect, text, position, trackHint, hintResult, describe, addFile, takeLog, shims,
    configure: answers.configure,
  });
})
