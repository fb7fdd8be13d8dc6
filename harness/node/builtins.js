// freecell-harness: Node's built-in modules that do no I/O, as a dealer's `require` sees them.
// Our own pure-JavaScript implementations, evaluated inside the dealer's vm context after
// prelude.js (driver.js calls the function this file evaluates to with the context's global and
// the harness): a host built-in handed in would carry the host realm's Function (and through it
// `process`), so none is.  Each module is made once per context, when first required.  Also the
// context's `process` (an empty env, no argv, nothing that acts) and `Buffer` globals.
(function (g, harness) {
  'use strict';
  const shims = harness.shims;
  const once = (make) => {
    let made = null;
    return () => made || (made = make());
  };
  const notAvailable = (what) => () => {
    throw new Error(`${what} is not available to a dealer (it runs isolated, without I/O or processes)`);
  };

  // ---------------------------------------------------------------- path (POSIX; cwd is '/')
  const makePath = () => {
    const normalizeParts = (parts, absolute) => {
      const out = [];
      for (const part of parts) {
        if (part === '' || part === '.') continue;
        if (part === '..') {
          if (out.length && out[out.length - 1] !== '..') out.pop();
          else if (!absolute) out.push('..');
        } else out.push(part);
      }
      return out;
    };
    const str = (p, name) => {
      if (typeof p !== 'string') throw new TypeError(`The "${name}" argument must be of type string. Received ${typeof p}`);
      return p;
    };
    const path = {
      sep: '/',
      delimiter: ':',
      isAbsolute: (p) => str(p, 'path').startsWith('/'),
      normalize(p) {
        str(p, 'path');
        if (p === '') return '.';
        const absolute = p.startsWith('/');
        const trailing = p.endsWith('/');
        let out = normalizeParts(p.split('/'), absolute).join('/');
        if (!out && !absolute) out = '.';
        if (out && trailing) out += '/';
        return (absolute ? '/' : '') + out;
      },
      join(...parts) {
        const kept = parts.map((p) => str(p, 'path')).filter((p) => p !== '');
        return kept.length ? path.normalize(kept.join('/')) : '.';
      },
      resolve(...parts) {
        let resolved = '';
        for (let i = parts.length - 1; i >= 0 && !resolved.startsWith('/'); i--) {
          const p = str(parts[i], 'paths[' + i + ']');
          if (p) resolved = resolved ? `${p}/${resolved}` : p;
        }
        if (!resolved.startsWith('/')) resolved = `/${resolved}`;
        return '/' + normalizeParts(resolved.split('/'), true).join('/');
      },
      relative(from, to) {
        const a = path.resolve(from).split('/').filter(Boolean);
        const b = path.resolve(to).split('/').filter(Boolean);
        let k = 0;
        while (k < a.length && k < b.length && a[k] === b[k]) k++;
        return [...a.slice(k).map(() => '..'), ...b.slice(k)].join('/');
      },
      dirname(p) {
        str(p, 'path');
        const trimmed = p.length > 1 ? p.replace(/\/+$/, '') : p;
        const at = trimmed.lastIndexOf('/');
        if (at < 0) return '.';
        return at === 0 ? '/' : trimmed.slice(0, at);
      },
      basename(p, ext) {
        str(p, 'path');
        const trimmed = p.length > 1 ? p.replace(/\/+$/, '') : p;
        let base = trimmed.slice(trimmed.lastIndexOf('/') + 1);
        if (typeof ext === 'string' && ext && base.endsWith(ext) && base !== ext) base = base.slice(0, -ext.length);
        return base;
      },
      extname(p) {
        const base = path.basename(p);
        const at = base.lastIndexOf('.');
        return at <= 0 ? '' : base.slice(at);
      },
      parse(p) {
        const root = str(p, 'path').startsWith('/') ? '/' : '';
        const base = path.basename(p);
        const ext = path.extname(p);
        const dir = p.includes('/') ? path.dirname(p) : '';
        return { root, dir, base, ext, name: ext ? base.slice(0, -ext.length) : base };
      },
      format(o) {
        const dir = o.dir || o.root || '';
        const base = o.base || `${o.name || ''}${o.ext || ''}`;
        return dir ? (dir === o.root ? `${dir}${base}` : `${dir}/${base}`) : base;
      },
      toNamespacedPath: (p) => p,
    };
    path.posix = path;
    return path;
  };
  shims.path = once(makePath);
  shims['path/posix'] = shims.path;

  // ---------------------------------------------------------------- buffer (bytes; no I/O)
  const makeBuffer = () => {
    const utf8Encode = (text) => {
      const out = [];
      for (let i = 0; i < text.length; i++) {
        let c = text.codePointAt(i);
        if (c > 0xffff) i++;
        if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
        if (c < 0x80) out.push(c);
        else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
        else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
        else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      }
      return out;
    };
    const utf8Decode = (bytes, start, end) => {
      let text = '';
      for (let i = start; i < end; ) {
        const b = bytes[i];
        const need = b < 0x80 ? 0 : b >= 0xf0 && b < 0xf8 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : -1;
        if (need < 0 || i + need >= end + (need ? 0 : 1)) {
          text += need === 0 ? String.fromCharCode(b) : '\ufffd';
          i++;
          continue;
        }
        let c = need === 0 ? b : b & (0x3f >> need);
        let ok = true;
        for (let k = 1; k <= need; k++) {
          const next = bytes[i + k];
          if ((next & 0xc0) !== 0x80) ok = false;
          c = (c << 6) | (next & 63);
        }
        if (!ok) {
          text += '\ufffd';
          i++;
          continue;
        }
        text += String.fromCodePoint(c);
        i += need + 1;
      }
      return text;
    };
    const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const encodingOf = (e) => {
      const name = String(e || 'utf8').toLowerCase().replace('-', '');
      if (name === 'binary') return 'latin1';
      if (name === 'ucs2' || name === 'utf16le') return 'utf16le';
      if (['utf8', 'hex', 'base64', 'base64url', 'latin1', 'ascii'].includes(name)) return name;
      throw new TypeError(`Unknown encoding: ${e}`);
    };
    const bytesOf = (text, encoding) => {
      switch (encodingOf(encoding)) {
        case 'hex': {
          const out = [];
          for (let i = 0; i + 1 < text.length; i += 2) {
            const v = parseInt(text.slice(i, i + 2), 16);
            if (Number.isNaN(v)) break;
            out.push(v);
          }
          return out;
        }
        case 'base64':
        case 'base64url': {
          const out = [];
          let bits = 0;
          let value = 0;
          for (const ch of text.replace(/-/g, '+').replace(/_/g, '/')) {
            const v = B64.indexOf(ch);
            if (v < 0) continue;
            value = (value << 6) | v;
            bits += 6;
            if (bits >= 8) {
              bits -= 8;
              out.push((value >> bits) & 255);
            }
          }
          return out;
        }
        case 'latin1':
        case 'ascii':
          return Array.from(text, (ch) => ch.charCodeAt(0) & 255);
        case 'utf16le': {
          const out = [];
          for (let i = 0; i < text.length; i++) out.push(text.charCodeAt(i) & 255, text.charCodeAt(i) >> 8);
          return out;
        }
        default:
          return utf8Encode(text);
      }
    };
    class Buffer extends Uint8Array {
      static from(value, encodingOrOffset, length) {
        if (typeof value === 'string') return Buffer.of(...bytesOf(value, encodingOrOffset));
        if (value instanceof ArrayBuffer) return new Buffer(value, encodingOrOffset || 0, length);
        return Buffer.of(...Array.from(value, (v) => v & 255));
      }
      static alloc(size, fill) {
        const b = new Buffer(size);
        if (fill !== undefined) b.fill(typeof fill === 'string' ? fill.charCodeAt(0) : fill);
        return b;
      }
      static allocUnsafe(size) {
        return new Buffer(size);
      }
      static isBuffer(v) {
        return v instanceof Buffer;
      }
      static isEncoding(e) {
        try {
          encodingOf(e);
          return true;
        } catch (_) {
          return false;
        }
      }
      static byteLength(text, encoding) {
        return typeof text === 'string' ? bytesOf(text, encoding).length : text.byteLength;
      }
      static concat(list, total) {
        const size = total === undefined ? list.reduce((n, b) => n + b.length, 0) : total;
        const out = new Buffer(size);
        let at = 0;
        for (const b of list) {
          if (at >= size) break;
          out.set(b.subarray(0, size - at), at);
          at += b.length;
        }
        return out;
      }
      static compare(a, b) {
        return a.compare(b);
      }
      toString(encoding, start = 0, end = this.length) {
        start = Math.max(0, start);
        end = Math.min(this.length, end);
        switch (encodingOf(encoding)) {
          case 'hex': {
            let text = '';
            for (let i = start; i < end; i++) text += (this[i] < 16 ? '0' : '') + this[i].toString(16);
            return text;
          }
          case 'base64':
          case 'base64url': {
            let text = '';
            for (let i = start; i < end; i += 3) {
              const n = (this[i] << 16) | ((i + 1 < end ? this[i + 1] : 0) << 8) | (i + 2 < end ? this[i + 2] : 0);
              text += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
              text += i + 1 < end ? B64[(n >> 6) & 63] : '=';
              text += i + 2 < end ? B64[n & 63] : '=';
            }
            return encodingOf(encoding) === 'base64url'
              ? text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
              : text;
          }
          case 'latin1':
          case 'ascii': {
            let text = '';
            for (let i = start; i < end; i++) text += String.fromCharCode(encodingOf(encoding) === 'ascii' ? this[i] & 127 : this[i]);
            return text;
          }
          case 'utf16le': {
            let text = '';
            for (let i = start; i + 1 < end; i += 2) text += String.fromCharCode(this[i] | (this[i + 1] << 8));
            return text;
          }
          default:
            return utf8Decode(this, start, end);
        }
      }
      toJSON() {
        return { type: 'Buffer', data: Array.from(this) };
      }
      equals(other) {
        return this.compare(other) === 0;
      }
      compare(other) {
        for (let i = 0; i < Math.min(this.length, other.length); i++) if (this[i] !== other[i]) return this[i] < other[i] ? -1 : 1;
        return this.length === other.length ? 0 : this.length < other.length ? -1 : 1;
      }
      write(text, offset = 0, length, encoding) {
        const bytes = bytesOf(text, typeof length === 'string' ? length : encoding);
        const n = Math.min(bytes.length, this.length - offset, typeof length === 'number' ? length : Infinity);
        for (let i = 0; i < n; i++) this[offset + i] = bytes[i];
        return n;
      }
      slice(start, end) {
        return this.subarray(start, end);
      }
      readUInt8(at = 0) {
        return this[at];
      }
      writeUInt8(v, at = 0) {
        this[at] = v;
        return at + 1;
      }
    }
    return { Buffer, utf8Decode, constants: { MAX_LENGTH: 2 ** 32 }, kMaxLength: 2 ** 32 };
  };
  const bufferModule = once(makeBuffer);
  shims.buffer = bufferModule;

  // ---------------------------------------------------------------- string_decoder
  shims.string_decoder = once(() => {
    const { Buffer, utf8Decode } = bufferModule();
    class StringDecoder {
      constructor(encoding) {
        this.encoding = String(encoding || 'utf8').toLowerCase().replace('-', '');
        this.pending = [];
      }
      write(chunk) {
        const bytes = [...this.pending, ...Buffer.from(chunk)];
        if (this.encoding !== 'utf8') {
          this.pending = [];
          return Buffer.from(bytes).toString(this.encoding);
        }
        // keep an incomplete sequence at the end for the next chunk
        let cut = bytes.length;
        for (let back = 1; back <= 3 && back <= bytes.length; back++) {
          const b = bytes[bytes.length - back];
          if ((b & 0xc0) === 0x80) continue;
          const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
          if (need > back) cut = bytes.length - back;
          break;
        }
        this.pending = bytes.slice(cut);
        return utf8Decode(bytes, 0, cut);
      }
      end(chunk) {
        const text = chunk === undefined ? '' : this.write(chunk);
        const rest = this.pending.length ? '\ufffd' : '';
        this.pending = [];
        return text + rest;
      }
    }
    return { StringDecoder };
  });

  // ---------------------------------------------------------------- events
  const makeEvents = () => {
    const listenersOf = (emitter, name) => {
      if (!Object.prototype.hasOwnProperty.call(emitter, '_events') || !emitter._events) {
        Object.defineProperty(emitter, '_events', { value: Object.create(null), writable: true, configurable: true });
      }
      if (!emitter._events[name]) emitter._events[name] = [];
      return emitter._events[name];
    };
    function EventEmitter() {
      Object.defineProperty(this, '_events', { value: Object.create(null), writable: true, configurable: true });
    }
    const add = (emitter, name, fn, prepend, isOnce) => {
      if (typeof fn !== 'function') throw new TypeError('The "listener" argument must be of type function');
      const list = listenersOf(emitter, name);
      const entry = { fn, once: isOnce };
      if (prepend) list.unshift(entry);
      else list.push(entry);
      return emitter;
    };
    Object.assign(EventEmitter.prototype, {
      on(name, fn) {
        return add(this, name, fn, false, false);
      },
      addListener(name, fn) {
        return add(this, name, fn, false, false);
      },
      prependListener(name, fn) {
        return add(this, name, fn, true, false);
      },
      once(name, fn) {
        return add(this, name, fn, false, true);
      },
      prependOnceListener(name, fn) {
        return add(this, name, fn, true, true);
      },
      off(name, fn) {
        const list = listenersOf(this, name);
        const at = list.findIndex((e) => e.fn === fn);
        if (at >= 0) list.splice(at, 1);
        return this;
      },
      removeListener(name, fn) {
        return this.off(name, fn);
      },
      removeAllListeners(name) {
        if (name === undefined) this._events = Object.create(null);
        else if (this._events) delete this._events[name];
        return this;
      },
      emit(name, ...args) {
        const list = listenersOf(this, name);
        if (!list.length && name === 'error') throw args[0] instanceof Error ? args[0] : new Error(`Unhandled error. (${args[0]})`);
        for (const entry of list.slice()) {
          if (entry.once) this.off(name, entry.fn);
          entry.fn.apply(this, args);
        }
        return list.length > 0 || list !== listenersOf(this, name);
      },
      listeners(name) {
        return listenersOf(this, name).map((e) => e.fn);
      },
      rawListeners(name) {
        return this.listeners(name);
      },
      listenerCount(name) {
        return listenersOf(this, name).length;
      },
      eventNames() {
        return this._events ? Object.keys(this._events).filter((k) => this._events[k].length) : [];
      },
      setMaxListeners() {
        return this;
      },
      getMaxListeners() {
        return EventEmitter.defaultMaxListeners;
      },
    });
    EventEmitter.EventEmitter = EventEmitter;
    EventEmitter.defaultMaxListeners = 10;
    EventEmitter.once = (emitter, name) =>
      new Promise((resolve, reject) => {
        const done = (...args) => {
          if (name !== 'error') emitter.off('error', failed);
          resolve(args);
        };
        const failed = (err) => {
          emitter.off(name, done);
          reject(err);
        };
        emitter.once(name, done);
        if (name !== 'error') emitter.once('error', failed);
      });
    EventEmitter.listenerCount = (emitter, name) => emitter.listenerCount(name);
    return EventEmitter;
  };
  shims.events = once(makeEvents);

  // ---------------------------------------------------------------- util
  const makeUtil = () => {
    const inspect = (v, depth = 0) => {
      if (typeof v === 'string') return depth ? `'${v}'` : v;
      if (typeof v === 'function') return v.name ? `[Function: ${v.name}]` : '[Function (anonymous)]';
      if (typeof v === 'bigint') return `${v}n`;
      if (typeof v === 'symbol') return v.toString();
      if (v === null || typeof v !== 'object') return String(v);
      if (depth > 2) return Array.isArray(v) ? '[Array]' : '[Object]';
      if (Array.isArray(v)) return v.length ? `[ ${v.map((x) => inspect(x, depth + 1)).join(', ')} ]` : '[]';
      if (v instanceof Error) return v.stack || `${v.name}: ${v.message}`;
      if (v instanceof RegExp || v instanceof Date) return String(v);
      const keys = Object.keys(v);
      return keys.length ? `{ ${keys.map((k) => `${k}: ${inspect(v[k], depth + 1)}`).join(', ')} }` : '{}';
    };
    const shown = (v) => inspect(v, 1);
    const format = (first, ...args) => {
      if (typeof first !== 'string') return [first, ...args].map(shown).join(' ');
      let k = 0;
      const text = first.replace(/%([sdifjoOc%])/g, (m, c) => {
        if (c === '%') return '%';
        if (k >= args.length) return m;
        const v = args[k++];
        switch (c) {
          case 's':
            return typeof v === 'string' ? v : typeof v === 'object' && v !== null ? inspect(v, 1) : String(v);
          case 'd':
          case 'i': {
            const n = Number(v);
            return String(c === 'i' ? Math.trunc(n) : n);
          }
          case 'f':
            return String(parseFloat(v));
          case 'j':
            try {
              return JSON.stringify(v);
            } catch (_) {
              return '[Circular]';
            }
          case 'c':
            return '';
          default:
            return inspect(v, 1);
        }
      });
      return [text, ...args.slice(k).map(shown)].join(' ');
    };
    const CUSTOM = Symbol.for('nodejs.util.promisify.custom');
    const promisify = (fn) => {
      if (typeof fn !== 'function') throw new TypeError('The "original" argument must be of type function');
      if (fn[CUSTOM]) return fn[CUSTOM];
      return function (...args) {
        return new Promise((resolve, reject) => {
          fn.call(this, ...args, (err, value) => (err ? reject(err) : resolve(value)));
        });
      };
    };
    promisify.custom = CUSTOM;
    const tag = (v) => Object.prototype.toString.call(v);
    const types = {
      isDate: (v) => tag(v) === '[object Date]',
      isRegExp: (v) => tag(v) === '[object RegExp]',
      isPromise: (v) => tag(v) === '[object Promise]',
      isMap: (v) => tag(v) === '[object Map]',
      isSet: (v) => tag(v) === '[object Set]',
      isTypedArray: (v) => ArrayBuffer.isView(v) && !(v instanceof DataView),
      isNativeError: (v) => v instanceof Error,
      isGeneratorFunction: (v) => typeof v === 'function' && /^\[object (Async)?GeneratorFunction\]$/.test(tag(v)),
      isAsyncFunction: (v) => typeof v === 'function' && tag(v) === '[object AsyncFunction]',
    };
    const isDeepStrictEqual = (a, b) => {
      try {
        shims.assert().deepStrictEqual(a, b);
        return true;
      } catch (_) {
        return false;
      }
    };
    return {
      format,
      formatWithOptions: (_options, ...args) => format(...args),
      inspect,
      inherits(ctor, superCtor) {
        Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
        Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
      },
      promisify,
      callbackify: (fn) => (...args) => {
        const done = args.pop();
        fn(...args).then((v) => done(null, v), (e) => done(e));
      },
      deprecate: (fn) => fn,
      debuglog: () => () => {},
      isDeepStrictEqual,
      types,
      isArray: Array.isArray,
      isDate: types.isDate,
      isRegExp: types.isRegExp,
      isError: types.isNativeError,
      isFunction: (v) => typeof v === 'function',
      isString: (v) => typeof v === 'string',
      isNumber: (v) => typeof v === 'number',
      isObject: (v) => v !== null && typeof v === 'object',
      isPrimitive: (v) => v === null || (typeof v !== 'object' && typeof v !== 'function'),
      isUndefined: (v) => v === undefined,
      isNullOrUndefined: (v) => v === null || v === undefined,
    };
  };
  shims.util = once(makeUtil);
  shims['util/types'] = once(() => shims.util().types);

  // ---------------------------------------------------------------- url (file URLs; no fetching)
  shims.url = once(() => {
    const fileURLToPath = (u) => {
      const text = typeof u === 'string' ? u : String(u && u.href);
      if (!text.startsWith('file://')) throw new TypeError('The URL must be of scheme file');
      return decodeURIComponent(text.slice('file://'.length));
    };
    const pathToFileURL = (p) => {
      const href = 'file://' + encodeURI(String(p)).replace(/[?#]/g, encodeURIComponent);
      return { href, protocol: 'file:', pathname: href.slice('file://'.length), toString: () => href };
    };
    return { fileURLToPath, pathToFileURL };
  });

  // ---------------------------------------------------------------- querystring
  shims.querystring = once(() => {
    const unescape = (s) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch (_) {
        return s;
      }
    };
    const parse = (text, sep = '&', eq = '=') => {
      const out = Object.create(null);
      for (const part of String(text || '').split(sep)) {
        if (!part) continue;
        const at = part.indexOf(eq);
        const key = unescape(at < 0 ? part : part.slice(0, at));
        const value = at < 0 ? '' : unescape(part.slice(at + eq.length));
        if (key in out) out[key] = [].concat(out[key], value);
        else out[key] = value;
      }
      return out;
    };
    const stringify = (obj, sep = '&', eq = '=') =>
      Object.keys(obj || {})
        .flatMap((k) => [].concat(obj[k]).map((v) => `${encodeURIComponent(k)}${eq}${encodeURIComponent(v)}`))
        .join(sep);
    return { parse, stringify, decode: parse, encode: stringify, escape: encodeURIComponent, unescape };
  });

  // ---------------------------------------------------------------- process, console, Buffer
  // process.stdout and process.stderr write to the dealer's console (whose lines go nowhere): a
  // script that prints its deal as it loads still loads.
  const log = g.console.log;
  const stream = (fd) => {
    const out = {
      fd,
      isTTY: false,
      columns: 80,
      writable: true,
      write(chunk, encoding, done) {
        log(String(chunk));
        const callback = typeof encoding === 'function' ? encoding : done;
        if (typeof callback === 'function') Promise.resolve().then(() => callback());
        return true;
      },
      end(chunk, encoding, done) {
        if (chunk !== undefined && typeof chunk !== 'function') out.write(chunk, encoding, done);
        return out;
      },
      cork() {},
      uncork() {},
      on: () => out,
      once: () => out,
      off: () => out,
      removeListener: () => out,
    };
    return out;
  };
  const process = {
    env: {},
    argv: [],
    execArgv: [],
    platform: 'linux',
    version: '',
    versions: {},
    release: { name: 'node' },
    title: 'dealer',
    pid: 1,
    cwd: () => '/',
    nextTick: (fn, ...args) => {
      Promise.resolve().then(() => fn(...args));
    },
    emitWarning: () => {},
    on() {
      return process;
    },
    once() {
      return process;
    },
    off() {
      return process;
    },
    stdout: stream(1),
    stderr: stream(2),
    exit: notAvailable('process.exit()'),
    abort: notAvailable('process.abort()'),
    chdir: notAvailable('process.chdir()'),
  };
  g.process = process;
  g.Buffer = bufferModule().Buffer;

  // ---------------------------------------------------------------- globals of Node and the web
  // that act on nothing outside the context: `global`, queueMicrotask (a Promise job: it runs when
  // the context's microtasks do, within an async deal's time), performance.now(), structuredClone.
  g.global = g;
  g.queueMicrotask = (callback) => {
    if (typeof callback !== 'function') throw new TypeError('queueMicrotask: the callback must be a function');
    Promise.resolve().then(() => callback());
  };
  const timeOrigin = Date.now();
  g.performance = { timeOrigin, now: () => Date.now() - timeOrigin, mark() {}, measure() {} };
  // The structured clone algorithm for what a game keeps: primitives, arrays, plain and class
  // objects (own enumerable fields; the clone is a plain object), Map, Set, Date, RegExp, boxed
  // primitives, errors, ArrayBuffers and typed arrays; cycles kept.  Functions and symbols cannot
  // be cloned (DataCloneError, as in Node).
  const cloneError = (what) => {
    const err = new Error(`${what} could not be cloned.`);
    err.name = 'DataCloneError';
    return err;
  };
  const TypedArray = Object.getPrototypeOf(Int8Array);
  g.structuredClone = (value) => {
    const made = new Map();
    const clone = (v) => {
      if (typeof v === 'function') throw cloneError(String(v).slice(0, 40));
      if (typeof v === 'symbol') throw cloneError(String(v));
      if (v === null || typeof v !== 'object') return v;
      if (made.has(v)) return made.get(v);
      let out;
      if (Array.isArray(v)) {
        out = new Array(v.length);
        made.set(v, out);
        for (const k of Object.keys(v)) out[k] = clone(v[k]);
        return out;
      }
      if (v instanceof Date) out = new Date(v.getTime());
      else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
      else if (v instanceof ArrayBuffer) out = v.slice(0);
      else if (v instanceof TypedArray) out = new v.constructor(v);
      else if (v instanceof Boolean || v instanceof Number || v instanceof String) out = Object(v.valueOf());
      else if (v instanceof Map) {
        out = new Map();
        made.set(v, out);
        for (const [k, x] of v) out.set(clone(k), clone(x));
        return out;
      } else if (v instanceof Set) {
        out = new Set();
        made.set(v, out);
        for (const x of v) out.add(clone(x));
        return out;
      } else if (v instanceof Error) {
        out = new Error(v.message);
        out.name = v.name;
      } else if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet) {
        throw cloneError(`#<${v.constructor.name}>`);
      } else {
        out = {};
        made.set(v, out);
        for (const k of Object.keys(v)) out[k] = clone(v[k]);
        return out;
      }
      made.set(v, out);
      return out;
    };
    return clone(value);
  };
  shims.process = () => process;
  shims.console = () => g.console;
})
