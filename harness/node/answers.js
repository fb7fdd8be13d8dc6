// freecell-harness: reading what a dealer returned, inside its vm context, in one pass: the shape
// (rows, columns, 52 cards, a game state, an iterable, board text) and each card (a name, an object
// with a rank and a suit, a text form), to the deal's canonical line.
//
// A representation is read from itself, never fitted to an expected board: numeric ranks are 0- or
// 1-based (or ace-high) as the 13 values the board uses say; suits as bare numbers and cards as bare
// numbers are ambiguous, and are read only as the request states (--suits, --cards), else refused.
//
// driver.js evaluates this file in every fresh context before any dealer code: everything it calls
// is taken now (call-bound, so that replacing Function.prototype.call later changes nothing), and
// the only things it touches afterwards are the dealer's values and its own typed arrays.  Its
// completion value is the reader, handed to prelude.js by the driver; no global refers to it.
(function () {
  'use strict';
  const uncurry = (f) => Function.prototype.call.bind(f);
  const charCodeAt = uncurry(String.prototype.charCodeAt);
  const stringSlice = uncurry(String.prototype.slice);
  const fnToString = uncurry(Function.prototype.toString);
  const objectToString = uncurry(Object.prototype.toString);
  const mapValues = uncurry(Map.prototype.values);
  const isArray = Array.isArray;
  const getPrototypeOf = Reflect.getPrototypeOf;
  const getOwnDescriptor = Reflect.getOwnPropertyDescriptor;
  const ownKeys = Reflect.ownKeys;
  const arrayFrom = Array.from;
  const fromCharCode = String.fromCharCode;
  const stringify = JSON.stringify;
  const StringOf = String;
  const isInteger = Number.isInteger;
  const ITERATOR = Symbol.iterator;
  const Int8ArrayOf = Int8Array; // for tables made while reading (the global may be replaced by then)
  const Int32ArrayOf = Int32Array;

  const MAX_TEXT = 1 << 16; // characters of a board's text; more is not one board
  const MAX_ITEMS = 64; // items of one level of a shape read from an iterable
  const MAX_DEPTH = 6; // levels of game state, tableau, group, card, card field
  const RANKS = 'A23456789TJQK';
  const SUITS = 'CDHS';

  // Arrays of our own, made with every element already there: writing one never reaches a setter
  // a dealer put on Array.prototype.  (Array.from defines each element; the null-prototype source
  // has no Symbol.iterator for it to find.)
  const nulls = () => null;
  const fresh = (n) => arrayFrom({ __proto__: null, length: n }, nulls);

  // ---------------------------------------------------------------- card names and words
  const RANK_OF_CODE = new Int8Array(128).fill(-1);
  const SUIT_OF_CODE = new Int8Array(128).fill(-1);
  for (let i = 0; i < 13; i++) {
    RANK_OF_CODE[charCodeAt(RANKS, i)] = i;
    RANK_OF_CODE[charCodeAt(RANKS, i) | 32] = i; // lower case (digits are unchanged by | 32)
  }
  for (let i = 0; i < 4; i++) {
    SUIT_OF_CODE[charCodeAt(SUITS, i)] = i;
    SUIT_OF_CODE[charCodeAt(SUITS, i) | 32] = i;
  }
  const SYMBOL_SUITS = { __proto__: null, 0x2663: 0, 0x2666: 1, 0x2665: 2, 0x2660: 3, 0x2667: 0, 0x2662: 1, 0x2661: 2, 0x2664: 3 };
  const RANK_WORDS = {
    __proto__: null,
    ace: 0, one: 0, two: 1, deuce: 1, three: 2, four: 3, five: 4, six: 5, seven: 6, eight: 7, nine: 8, ten: 9,
    jack: 10, knave: 10, queen: 11, king: 12,
  };
  const SUIT_WORDS = {
    __proto__: null,
    club: 0, clubs: 0, diamond: 1, diamonds: 1, heart: 2, hearts: 2, spade: 3, spades: 3,
  };

  const isSpace = (c) => c === 32 || c === 9 || c === 10 || c === 13 || c === 0xa0 || c === 0xfe0f;
  // The text without surrounding white space, lower-cased where it is ASCII.
  const folded = (s) => {
    let a = 0;
    let b = s.length;
    while (a < b && isSpace(charCodeAt(s, a))) a++;
    while (b > a && isSpace(charCodeAt(s, b - 1))) b--;
    let out = '';
    for (let k = a; k < b; k++) {
      const c = charCodeAt(s, k);
      out += fromCharCode(c >= 65 && c <= 90 ? c | 32 : c);
    }
    return out;
  };
  const isDigits = (s) => {
    if (!s.length || s.length > 3) return false;
    for (let k = 0; k < s.length; k++) {
      const c = charCodeAt(s, k);
      if (c < 48 || c > 57) return false;
    }
    return true;
  };
  const digitsValue = (s) => {
    let v = 0;
    for (let k = 0; k < s.length; k++) v = v * 10 + charCodeAt(s, k) - 48;
    return v;
  };

  // A rank from folded text: 0 … 12, NUMERIC + n for digits (read with the board's numbering), or -1.
  const NUMERIC = 100;
  const rankOfWord = (w) => {
    if (w.length === 1) {
      const c = charCodeAt(w, 0);
      if (c >= 50 && c <= 57) return NUMERIC + c - 48;
      return c < 128 && c !== 49 ? RANK_OF_CODE[c] : w === '1' ? NUMERIC + 1 : -1;
    }
    if (isDigits(w)) return NUMERIC + digitsValue(w);
    const r = RANK_WORDS[w];
    return r === undefined ? -1 : r;
  };
  // A suit from folded text: 0 … 3 (clubs, diamonds, hearts, spades), or -1.
  const suitOfWord = (w) => {
    if (w.length === 1) {
      const c = charCodeAt(w, 0);
      if (c < 128) return SUIT_OF_CODE[c];
      const s = SYMBOL_SUITS[c];
      return s === undefined ? -1 : s;
    }
    const s = SUIT_WORDS[w];
    return s === undefined ? -1 : s;
  };

  // The card a card's name names (rank * 4 + suit), or -1: "JD", "jd", "10♦", "T♦", "DJ", "♦J",
  // "J of diamonds", "Jack of Diamonds", or one Unicode playing-card character.
  const cardOfText = (text) => {
    const s = folded(text);
    const n = s.length;
    if (n === 2 && charCodeAt(s, 0) < 55296) {
      const a = rankOfWord(stringSlice(s, 0, 1));
      const b = suitOfWord(stringSlice(s, 1, 2));
      if (a >= 0 && a < NUMERIC && b >= 0) return a * 4 + b;
      if (a >= NUMERIC + 1 && a <= NUMERIC + 9 && b >= 0) return (a - NUMERIC - 1) * 4 + b; // "1s": the ace, value first
      const c = suitOfWord(stringSlice(s, 0, 1));
      const d = rankOfWord(stringSlice(s, 1, 2));
      if (c >= 0 && d >= 0 && d < NUMERIC) return d * 4 + c;
      if (c >= 0 && d >= NUMERIC + 2 && d <= NUMERIC + 9) return (d - NUMERIC - 1) * 4 + c;
      const cp = ((charCodeAt(s, 0) - 0xd800) << 10) + (charCodeAt(s, 1) - 0xdc00) + 0x10000;
      return unicodeCard(cp);
    }
    if (n === 2) {
      const cp = ((charCodeAt(s, 0) - 0xd800) << 10) + (charCodeAt(s, 1) - 0xdc00) + 0x10000;
      return unicodeCard(cp);
    }
    if (n === 3) {
      // "10d"; "11d", "12h", "13c": jack, queen, king as values 11 … 13, value first
      if (charCodeAt(s, 0) === 49 && charCodeAt(s, 1) >= 48 && charCodeAt(s, 1) <= 51) {
        const b = suitOfWord(stringSlice(s, 2, 3));
        return b >= 0 ? (9 + charCodeAt(s, 1) - 48) * 4 + b : -1;
      }
      if (charCodeAt(s, 1) === 49 && charCodeAt(s, 2) === 48) {
        const c = suitOfWord(stringSlice(s, 0, 1));
        return c >= 0 ? 9 * 4 + c : -1;
      }
    }
    // "<rank> of <suit>"
    for (let k = 1; k + 4 <= n; k++) {
      if (charCodeAt(s, k) === 32 && charCodeAt(s, k + 1) === 111 && charCodeAt(s, k + 2) === 102 && charCodeAt(s, k + 3) === 32) {
        const r = rankOfWord(stringSlice(s, 0, k));
        const u = suitOfWord(stringSlice(s, k + 4, n));
        if (u < 0) return -1;
        if (r >= 0 && r < NUMERIC) return r * 4 + u;
        if (r >= NUMERIC + 2 && r <= NUMERIC + 10) return (r - NUMERIC - 1) * 4 + u;
        return -1;
      }
    }
    return -1;
  };
  // U+1F0A1 + 16 * suit (spades, hearts, diamonds, clubs) + rank (A 2 … 10 J, knight, Q K).
  const UNICODE_SUITS = [3, 2, 1, 0];
  const unicodeCard = (cp) => {
    const k = cp - 0x1f0a1;
    if (k < 0 || k >= 64) return -1;
    const v = k & 15;
    if (v > 13 || v === 11) return -1;
    const rank = v < 11 ? v : v - 1;
    return rank * 4 + UNICODE_SUITS[k >> 4];
  };

  // ---------------------------------------------------------------- describing values (messages)
  const quoted = (s) => stringify(s.length > 24 ? stringSlice(s, 0, 24) + '…' : s);
  const className = (v) => {
    try {
      const proto = getPrototypeOf(v);
      if (proto === null) return '';
      const d = getOwnDescriptor(proto, 'constructor');
      const c = d && d.value;
      if (typeof c !== 'function') return '';
      const nd = getOwnDescriptor(c, 'name');
      return nd && typeof nd.value === 'string' && nd.value !== 'Object' ? nd.value : '';
    } catch (_) {
      return '';
    }
  };
  const describe = (v) => {
    if (v === null) return 'null';
    if (v === undefined) return 'undefined';
    if (typeof v === 'string') return `the text ${quoted(v)}`;
    if (typeof v === 'number' || typeof v === 'boolean') return StringOf(v);
    if (typeof v === 'bigint') return `${StringOf(v)}n`;
    if (typeof v === 'symbol') return 'a symbol';
    if (typeof v === 'function') return 'a function';
    if (isArray(v)) return `an array of ${v.length}`;
    const name = className(v);
    return name ? `a ${name}` : 'an object';
  };
  const fieldList = (v) => {
    let keys;
    try {
      keys = ownKeys(v);
    } catch (_) {
      return '';
    }
    let out = '';
    let shown = 0;
    for (let k = 0; k < keys.length && shown < 6; k++) {
      if (typeof keys[k] !== 'string') continue;
      out += (shown++ ? ', ' : '') + keys[k];
    }
    return shown ? ` (its fields: ${out}${keys.length > 6 ? ', …' : ''})` : ' (it has no fields)';
  };
  // Of functions' names, the one a message suggests as the dealer: the first that says "deal", else the first.
  const likelyDealer = (names) => {
    let shown = '';
    for (let k = 0; k < names.length; k++) if (!shown || (!/deal/i.test(shown) && /deal/i.test(names[k]))) shown = names[k];
    return shown;
  };
  // For an instance that holds no board: its class's static methods, one of which may be the dealer.
  const staticMethods = (v) => {
    try {
      const proto = getPrototypeOf(v);
      const made = proto === null ? undefined : getOwnDescriptor(proto, 'constructor');
      const ctor = made && made.value;
      const named = typeof ctor === 'function' && getOwnDescriptor(ctor, 'name');
      if (!named || typeof named.value !== 'string' || !named.value) return '';
      const keys = ownKeys(ctor);
      const methods = [];
      for (let k = 0; k < keys.length; k++) {
        const d = typeof keys[k] === 'string' && keys[k] !== 'prototype' ? getOwnDescriptor(ctor, keys[k]) : undefined;
        if (d !== undefined && typeof d.value === 'function') methods[methods.length] = keys[k];
      }
      let out = '';
      for (let k = 0; k < methods.length; k++) out += (k ? ', ' : '') + methods[k];
      const shown = likelyDealer(methods);
      return shown ? `; its class has the static methods ${out}: to call one, name it as the dealer with #${named.value}.${shown}` : '';
    } catch (_) {
      return '';
    }
  };

  // ---------------------------------------------------------------- the board being read
  // Per position p (dealing order), the card as read, before the board's numbering is decided (its
  // "reading"): the rank (0 … 12, or NUMERIC + n) and suit (0 … 3, or NUMERIC + n), or for a
  // bare-number card CARD_NUMBER + n in `rank`.
  const CARD_NUMBER = 1000;
  const rankAt = new Int32Array(52);
  const suitAt = new Int32Array(52);
  // How position p was reached, for messages: as a row's or column's card (`placeShape`), or
  // (null) as one of a list of 52 cards.
  let placeShape = null;
  let options = { cards: null, suits: null };

  // A failure of the deal's answer: thrown inside the reader, caught by read().
  class Unreadable {
    constructor(message, refused) {
      this.message = message;
      this.refused = refused === true;
    }
  }
  const fail = (message) => {
    throw new Unreadable(message, false);
  };
  const refuse = (message) => {
    throw new Unreadable(message, true);
  };

  const placeName = (p) =>
    placeShape === null
      ? `card ${p + 1}`
      : placeShape === 'row'
        ? `row ${(p >> 3) + 1}, card ${(p & 7) + 1}`
        : `column ${(p & 7) + 1}, card ${(p >> 3) + 1}`;

  const PART_NAME_FIELDS = ['name', 'short', 'symbol', 'letter', 'code', 'id', 'label', 'key'];

  // The text form of an object, or null when it has none of its own ("[object Object]").
  const textForm = (v) => {
    const t = StringOf(v);
    return stringSlice(t, 0, 8) === '[object ' ? null : t;
  };

  // The usual spellings of ranks and suits (lower, Capitalised, UPPER), looked up as they come;
  // anything else is folded first.  Null-prototype tables: a dealer's text finds only our keys.
  const RANK_TEXT = { __proto__: null };
  const SUIT_TEXT = { __proto__: null };
  const spellings = (table, word, value) => {
    table[word] = value;
    table[word.toUpperCase()] = value;
    table[word[0].toUpperCase() + word.slice(1)] = value;
  };
  for (let i = 0; i < 13; i++) spellings(RANK_TEXT, RANKS[i].toLowerCase(), i);
  for (let v = 1; v <= 14; v++) RANK_TEXT[StringOf(v)] = NUMERIC + v;
  RANK_TEXT['0'] = NUMERIC;
  for (const w in RANK_WORDS) spellings(RANK_TEXT, w, RANK_WORDS[w]);
  for (let i = 0; i < 4; i++) spellings(SUIT_TEXT, SUITS[i].toLowerCase(), i);
  for (const w in SUIT_WORDS) spellings(SUIT_TEXT, w, SUIT_WORDS[w]);
  for (const c in SYMBOL_SUITS) SUIT_TEXT[fromCharCode(+c)] = SYMBOL_SUITS[c];
  // Our spellings of suits (SUIT_TEXT's texts), numbered: a learnt reader compares a suit field's
  // value with the spellings the learnt board used, written into it as texts of ours.
  const SUIT_SPELLINGS = fresh(0);
  const SUIT_SPELLING = { __proto__: null };
  for (const t in SUIT_TEXT) {
    SUIT_SPELLING[t] = SUIT_SPELLINGS.length;
    SUIT_SPELLINGS[SUIT_SPELLINGS.length] = t;
  }
  const RANK_OF_CHAR = new Int32Array(128).fill(-1);
  for (let c = 0; c < 128; c++) if (RANK_TEXT[fromCharCode(c)] !== undefined) RANK_OF_CHAR[c] = RANK_TEXT[fromCharCode(c)];
  // Longer texts are remembered (16 of each, by their first character and length): a deal's
  // cards repeat the same few words, and comparing a string with itself is one pointer compare.
  const memoSlot = (t) => (charCodeAt(t, 0) + t.length) & 15;
  const rankMemoText = fresh(16);
  const rankMemoValue = new Int32Array(16);
  const suitMemoText = fresh(16);
  const suitMemoValue = new Int32Array(16);
  const rankOfText = (t) => {
    const n = t.length;
    if (n === 1) {
      const c = charCodeAt(t, 0);
      if (c < 128) return RANK_OF_CHAR[c];
    } else if (n === 0) return -1;
    const slot = memoSlot(t);
    if (rankMemoText[slot] === t) return rankMemoValue[slot];
    const known = RANK_TEXT[t];
    const r = known !== undefined ? known : n <= 40 ? rankOfWord(folded(t)) : -1;
    rankMemoText[slot] = t;
    rankMemoValue[slot] = r;
    return r;
  };
  const suitOfText = (t) => {
    const n = t.length;
    if (n === 1) return suitOfCode(charCodeAt(t, 0));
    if (n === 0) return -1;
    const slot = memoSlot(t);
    if (suitMemoText[slot] === t) return suitMemoValue[slot];
    const known = SUIT_TEXT[t];
    const u = known !== undefined ? known : n <= 40 ? suitOfWord(folded(t)) : -1;
    suitMemoText[slot] = t;
    suitMemoValue[slot] = u;
    return u;
  };

  // Where a failing rank or suit was read, for its message: the card's place, then the fields.
  let partPath = '';
  const partWhat = (p, field) => `${placeName(p)}'s ${field}${partPath}`;
  const RANK_EXPECTED = 'expected a rank (A, 2 … 10, T, J, Q, K, a word like "queen", or a number)';
  const SUIT_EXPECTED = 'expected a suit (C D H S, ♣ ♦ ♥ ♠, a word like "clubs", or with --suits a number)';

  // A rank read from a field's value: 0 … 12, NUMERIC + n, or a failure.
  const readRank = (v, p, field, depth) => {
    if (typeof v === 'number') {
      if (isInteger(v) && v >= 0 && v <= 14) return NUMERIC + v;
    } else if (typeof v === 'string') {
      const r = rankOfText(v);
      if (r >= 0 && r <= NUMERIC + 14) return r;
    } else if (v !== null && typeof v === 'object' && depth < MAX_DEPTH) {
      for (let k = 0; k < PART_NAME_FIELDS.length; k++) {
        const f = PART_NAME_FIELDS[k];
        if (f in v && typeof v[f] === 'string') {
          partPath += `.${f}`;
          return readRank(v[f], p, field, depth + 1);
        }
      }
      if ('value' in v && typeof v.value === 'number') {
        partPath += '.value';
        return readRank(v.value, p, field, depth + 1);
      }
      const t = textForm(v);
      if (t !== null) {
        partPath += ' (its text form)';
        return readRank(t, p, field, depth + 1);
      }
    }
    return fail(`${partWhat(p, field)} is ${typeof v === 'string' ? quoted(v) : describe(v)}: ${RANK_EXPECTED}`);
  };
  // A suit read from a field's value: 0 … 3, NUMERIC + n (a bare number), or a failure.
  const readSuit = (v, p, field, depth) => {
    if (typeof v === 'string') {
      const u = suitOfText(v);
      if (u >= 0) return u;
    } else if (typeof v === 'number') {
      if (isInteger(v) && v >= 0 && v <= 4) return NUMERIC + v;
    } else if (v !== null && typeof v === 'object' && depth < MAX_DEPTH) {
      for (let k = 0; k < PART_NAME_FIELDS.length; k++) {
        const f = PART_NAME_FIELDS[k];
        if (f in v && typeof v[f] === 'string') {
          partPath += `.${f}`;
          return readSuit(v[f], p, field, depth + 1);
        }
      }
      const t = textForm(v);
      if (t !== null) {
        partPath += ' (its text form)';
        return readSuit(t, p, field, depth + 1);
      }
    }
    return fail(`${partWhat(p, field)} is ${typeof v === 'string' ? quoted(v) : describe(v)}: ${SUIT_EXPECTED}`);
  };

  // A card's name written rank first in 2 or 3 characters ("JD", "jd", "J♦", "10♦", "10D"): the
  // card (rank * 4 + suit) read by character codes, else -1.
  const quickCard = (v) => {
    const n = v.length;
    if (n !== 2 && n !== 3) return -1;
    const a = charCodeAt(v, 0);
    const r = n === 2 ? (a < 128 && a !== 49 ? RANK_OF_CODE[a] : -1) : a === 49 && charCodeAt(v, 1) === 48 ? 9 : -1;
    const s = r >= 0 ? suitOfCode(charCodeAt(v, n - 1)) : -1;
    return s >= 0 ? r * 4 + s : -1;
  };
  // A card-name field's value, when it names a card: rank * 4 + suit, else -1.
  const cardOfName = (name) => {
    if (typeof name !== 'string' || name.length > 40) return -1;
    const c = quickCard(name);
    return c >= 0 ? c : cardOfText(name);
  };
  const setCard = (p, c) => {
    rankAt[p] = c >> 2;
    suitAt[p] = c & 3;
  };

  // A suit's letter (any case) or symbol (♣♦♥♠♧♢♡♤) by its character code, or -1.
  const suitOfCode = (c) => (c < 128 ? SUIT_OF_CODE[c] : c >= 0x2660 && c <= 0x2667 ? SUIT_OF_SYMBOL[c - 0x2660] : -1);
  const SUIT_OF_SYMBOL = new Int8Array([3, 2, 1, 0, 3, 2, 1, 0]);

  // What kind of card a board holds, noted card by card as the cards are read (`boardKind`): every
  // card one kind, else KIND_MIXED.  A board read from its readings teaches its kind (learn()).
  const KIND_UNSET = -1;
  const KIND_MIXED = 0;
  const KIND_TEXT = 1; // a card's name as text: "JD", "10♦", "jack of diamonds"
  const KIND_NUMBER = 2; // a bare card number (read as --cards and --suits state)
  const KIND_NAMED = 3; // an object with a card-name field (id, code, name, short, label)
  const KIND_TEXT_FORM = 4; // an object whose text form names the card
  const KIND_FIELDS = 5; // an object with a rank and a suit field, each a text or a number
  let boardKind = KIND_UNSET;
  const cardKindIs = (kind) => {
    boardKind = boardKind === kind || boardKind === KIND_UNSET ? kind : KIND_MIXED;
  };

  // The layout of the board being read, noted as the full reader reads it, for learnLayout(): where
  // its list is (the value itself, a game state's holder field, an iterable), the list's shape and
  // groups, and the card objects' fields.  LAY_NONE where the board took a way no learnt reader takes.
  const LAY_NONE = -1;
  const TOP_LIST = 0; // the value is an array
  const TOP_ITERABLE = 1; // the value is an iterable, not an array
  const TOP_STATE = 2; // the value is a game state holding an array under HOLDERS[layHolder]
  const SHAPE_52 = 0; // 52 cards
  const SHAPE_ROWS = 1;
  const SHAPE_COLUMNS = 2;
  const SHAPE_ONE = 3; // one group of 52
  const GROUP_ARRAY = 0; // each group an array
  const GROUP_CARDS = 1; // each group an object holding an array under `cards`
  let layTop = LAY_NONE;
  let layHolder = LAY_NONE;
  let layShape = LAY_NONE;
  let layGroup = LAY_NONE;
  let layDepth = LAY_NONE; // the list's depth
  let layFields = -2; // the fields (fieldsOf) of every card read by its fields, -1 when they differ
  let layNamed = -2; // the card-name field (NAME_FIELDS) of every card read by one, -1 when they differ
  const noteFields = (f) => {
    layFields = layFields === -2 || layFields === f ? f : -1;
  };
  // The type of every rank (suit) field's value: VALUE_CHAR (a text of one character), VALUE_TEXT
  // (a longer text), VALUE_NUMBER, or VALUE_ANY when they differ.
  const VALUE_ANY = -1;
  const VALUE_CHAR = 1;
  const VALUE_TEXT = 2;
  const VALUE_NUMBER = 3;
  let layRankType = -2;
  let laySuitType = -2;
  const valueType = (x) => (typeof x === 'number' ? VALUE_NUMBER : typeof x !== 'string' ? VALUE_ANY : x.length === 1 ? VALUE_CHAR : VALUE_TEXT);
  // The spellings (SUIT_SPELLING) of the suit fields' texts, in the order first met, up to
  // MAX_SPELLINGS; layMoreSpellings when there were more, or a text that is none of ours.
  const MAX_SPELLINGS = 8;
  const laySpellings = new Int32Array(MAX_SPELLINGS);
  let laySpellingCount = 0;
  let layMoreSpellings = false;
  const noteSpelling = (sv) => {
    if (typeof sv !== 'string') return;
    const k = SUIT_SPELLING[sv];
    if (k === undefined) {
      layMoreSpellings = true;
      return;
    }
    for (let j = 0; j < laySpellingCount; j++) if (laySpellings[j] === k) return;
    if (laySpellingCount === MAX_SPELLINGS) layMoreSpellings = true;
    else laySpellings[laySpellingCount++] = k;
  };
  const noteTypes = (rankType, suitType) => {
    layRankType = layRankType === -2 || layRankType === rankType ? rankType : VALUE_ANY;
    laySuitType = laySuitType === -2 || laySuitType === suitType ? suitType : VALUE_ANY;
  };
  const noteNamed = (k) => {
    layNamed = layNamed === -2 || layNamed === k ? k : -1;
  };

  // A card-name field's card, the fields in the order they are preferred (NAME_FIELDS) from field k
  // on, or -1 when none names one; the field that named it in `namedField`.
  const NAME_FIELDS = ['id', 'code', 'name', 'short', 'label'];
  let namedField = -1;
  const namedFrom = (v, k) => {
    let c = -1;
    if (k <= 0 && 'id' in v) c = cardOfName(v.id);
    if (c >= 0) return (namedField = 0), c;
    if (k <= 1 && 'code' in v) c = cardOfName(v.code);
    if (c >= 0) return (namedField = 1), c;
    if (k <= 2 && 'name' in v) c = cardOfName(v.name);
    if (c >= 0) return (namedField = 2), c;
    if (k <= 3 && 'short' in v) c = cardOfName(v.short);
    if (c >= 0) return (namedField = 3), c;
    if (k <= 4 && 'label' in v) c = cardOfName(v.label);
    if (c >= 0) namedField = 4;
    return c;
  };
  // The fields a card object holds its rank (0: rank, 1: value, 2: face) and its suit in (0: suit,
  // 1: suite), as one number (rank field * 2 + suit field), or -1 when it lacks either.
  const RANK_FIELDS = ['rank', 'value', 'face'];
  const SUIT_FIELDS = ['suit', 'suite'];
  const fieldsOf = (v) => {
    const r = 'rank' in v ? 0 : 'value' in v ? 1 : 'face' in v ? 2 : -1;
    const s = 'suit' in v ? 0 : 'suite' in v ? 1 : -1;
    return r < 0 || s < 0 ? -1 : r * 2 + s;
  };
  // A rank field's value read as it comes, when it is a text or a small number: 0 … 12 (letters and
  // words) or NUMERIC + n; else -1.
  const rankReading = (rv) => {
    const r = typeof rv === 'string' ? rankOfText(rv) : typeof rv === 'number' && rv >= 0 && rv <= 14 && isInteger(rv) ? NUMERIC + rv : -1;
    return r > NUMERIC + 14 ? -1 : r;
  };
  // A suit field's value read as it comes, when it is a text or a small number: 0 … 3 (letters,
  // symbols and words) or NUMERIC + n; else -1.
  const suitReading = (sv) =>
    typeof sv === 'string' ? suitOfText(sv) : typeof sv === 'number' && sv >= 0 && sv <= 4 && isInteger(sv) ? NUMERIC + sv : -1;

  // Reads the card value `v` into position p.
  const readCard = (v, p, depth) => {
    if (typeof v === 'string') {
      let c = quickCard(v);
      if (c < 0) c = v.length <= 40 ? cardOfText(v) : -1;
      if (c < 0) fail(`${placeName(p)} is the text ${quoted(v)}: not a card (expected a rank and a suit, like "JD", "10♦" or "jack of diamonds")`);
      cardKindIs(KIND_TEXT);
      return setCard(p, c);
    }
    if (typeof v === 'number') {
      if (!isInteger(v) || v < 0 || v > 52) fail(`${placeName(p)} is the number ${StringOf(v)}: not a card`);
      rankAt[p] = CARD_NUMBER + v;
      suitAt[p] = 0;
      cardKindIs(KIND_NUMBER);
      return;
    }
    if (v === null || typeof v !== 'object' || depth >= MAX_DEPTH) {
      fail(`${placeName(p)} is ${describe(v)}: not a card (expected a name like "JD", or an object with a rank and a suit)`);
    }
    // A card-name field first, when it names a card.
    return readNamedFrom(v, 0, p, depth);
  };
  // The rest of readCard for a card object, from its card-name field k on.
  const readNamedFrom = (v, k, p, depth) => {
    const c = namedFrom(v, k);
    if (c < 0) return readUnnamedCard(v, fieldsOf(v), p, depth);
    cardKindIs(KIND_NAMED);
    noteNamed(namedField);
    setCard(p, c);
  };
  // The rest of readCard, for a card object without a card-name field: its fields (fieldsOf).
  const readUnnamedCard = (v, fields, p, depth) => {
    if (fields >= 0) return readFields(fields, fields < 2 ? v.rank : fields < 4 ? v.value : v.face, (fields & 1) === 0 ? v.suit : v.suite, p, depth);
    const t = textForm(v);
    const c = t !== null && t.length <= 40 ? cardOfText(t) : -1;
    if (c < 0) notACard(v, t, p);
    cardKindIs(KIND_TEXT_FORM);
    setCard(p, c);
  };
  // The failure of a card object without a card-name field or rank and suit fields, its text form t.
  const notACard = (v, t, p) => {
    if (t !== null) fail(`${placeName(p)} is ${describe(v)} whose text form is ${quoted(t)}: not a card (expected a name like "JD" or "10♦")`);
    fail(
      `${placeName(p)} is ${describe(v)}${fieldList(v)}: not a card (expected a card-name field id, code, name or short, ` +
        'a rank field rank, value or face with a suit field suit, or a text form naming the card)',
    );
  };
  // The rest of readCard for a card object's rank and suit fields, their values rv and sv.
  const readFields = (fields, rv, sv, p, depth) => {
    // Texts and small numbers here; anything else (and every failure) by readRank/readSuit.
    let r = rankReading(rv);
    let u = suitReading(sv);
    cardKindIs(r >= 0 && u >= 0 ? KIND_FIELDS : KIND_MIXED);
    noteFields(fields);
    noteTypes(valueType(rv), valueType(sv));
    noteSpelling(sv);
    if (r < 0) {
      partPath = '';
      r = readRank(rv, p, RANK_FIELDS[fields >> 1], depth + 1);
    }
    if (u < 0) {
      partPath = '';
      u = readSuit(sv, p, SUIT_FIELDS[fields & 1], depth + 1);
    }
    rankAt[p] = r;
    suitAt[p] = u;
  };

  // ---------------------------------------------------------------- shapes

  const isIterable = (v) => {
    try {
      return typeof v[ITERATOR] === 'function';
    } catch (_) {
      return false;
    }
  };
  const MAP_PROTOTYPE = Map.prototype;

  // The items of a list-like value (an array as it is; an iterable, a Map's values, up to MAX_ITEMS),
  // their count in `listLength`; or null when the value is not a list.
  let listLength = 0;
  // Arrays for the items of iterables, made once and reused from one read to the next.
  const SCRATCH = fresh(32);
  for (let k = 0; k < 32; k++) SCRATCH[k] = fresh(MAX_ITEMS);
  let scratchUsed = 0;
  const scratch = () => (scratchUsed < 32 ? SCRATCH[scratchUsed++] : fresh(MAX_ITEMS));
  const listOf = (v, what) => {
    if (isArray(v)) {
      listLength = v.length;
      return v;
    }
    if (v === null || typeof v !== 'object' || typeof v === 'string') return null;
    if (!isIterable(v)) return null;
    const it = getPrototypeOf(v) === MAP_PROTOTYPE ? mapValues(v) : v[ITERATOR]();
    const items = scratch();
    let n = 0;
    for (;;) {
      const step = it.next();
      if (step.done) break;
      if (n === MAX_ITEMS) fail(`${what} yields more than ${MAX_ITEMS} items`);
      items[n++] = step.value;
    }
    listLength = n;
    return items;
  };
  const isEmptyPart = (v, depth) => {
    if (v === null || v === undefined || v === 0 || v === '') return true;
    // a free-cell or foundation field that is a number or a flag is a setting (`cells: 4`), no cards
    if (depth === 0 && (typeof v === 'number' || typeof v === 'boolean')) return true;
    if (depth > 2) return false;
    return isArray(v) ? isEmptyItems(v, v.length, depth) : isEmptyOther(v, depth);
  };
  // The rest of isEmptyPart for an array `v` of n items: each item empty.  An item that is an array
  // (a foundation's pile) is read here as isEmptyPart reads it, without a call for an empty one.
  const isEmptyItems = (v, n, depth) => {
    for (let k = 0; k < n; k++) {
      const part = v[k];
      if (part === null || part === undefined) continue;
      if (depth >= 2 || part === 0 || part === '') {
        if (!isEmptyPart(part, depth + 1)) return false;
      } else if (isArray(part)) {
        const m = part.length;
        if (m !== 0 && !isEmptyItems(part, m, depth + 1)) return false;
      } else if (!isEmptyOther(part, depth + 1)) return false;
    }
    return true;
  };
  // The rest of isEmptyPart for a value that is not an array.
  const isEmptyOther = (v, depth) => {
    const list = listOf(v, 'a free cell or foundation');
    if (list !== null) {
      const n = listLength;
      for (let k = 0; k < n; k++) if (!isEmptyPart(list[k], depth + 1)) return false;
      return true;
    }
    if (typeof v !== 'object') return false;
    const keys = ownKeys(v);
    for (let k = 0; k < keys.length; k++) if (typeof keys[k] === 'string' && !isEmptyPart(v[keys[k]], depth + 1)) return false;
    return true;
  };
  // How groupOf found its group, for the layout: GROUP_ARRAY, GROUP_CARDS (an array under `cards`),
  // or LAY_NONE.
  let groupHow = LAY_NONE;
  // A group: a row or column of cards (an array, an iterable, an object holding `cards`), its
  // size in `listLength`; or null.
  const groupOf = (v) => {
    if (typeof v === 'string' || v === null || typeof v !== 'object') return null;
    if (isArray(v)) {
      groupHow = GROUP_ARRAY;
      listLength = v.length;
      return v;
    }
    if ('cards' in v) return groupOfCards(v.cards);
    if ('rank' in v || 'suit' in v || 'name' in v || 'id' in v || 'code' in v) return null;
    groupHow = LAY_NONE;
    return listOf(v, 'a group');
  };
  // The rest of groupOf for an object holding `cards`, their value.
  const groupOfCards = (cards) => {
    groupHow = isArray(cards) ? GROUP_CARDS : LAY_NONE;
    return listOf(cards, "a group's cards");
  };

  const ROWS = [8, 8, 8, 8, 8, 8, 4];
  const COLUMNS = [7, 7, 7, 7, 6, 6, 6, 6];
  const sizesText = (sizes, n) => {
    let t = '';
    for (let k = 0; k < n; k++) t += (k ? ' ' : '') + sizes[k];
    return t;
  };
  const sizes = new Int32Array(MAX_ITEMS);

  // Reads a list of 7 rows, 8 columns, or 52 cards (in dealing order) into the positions.
  const readList = (items, n, what, depth) => {
    if (n === 0) fail(`${what} is empty`);
    return readListFrom(items, n, what, depth, scratch(), 0, groupOf(items[0]));
  };
  // The rest of readList from item g0 on: the groups of items 0 … g0 - 1 in `groups` and `sizes`,
  // item g0's groupOf() `group` (its size in listLength).
  const readListFrom = (items, n, what, depth, groups, g0, group) => {
    if (g0 === 0) {
      if (group === null && n === 52) {
        placeShape = null;
        notePlace(SHAPE_52, LAY_NONE, depth);
        for (let j = 0; j < 52; j++) readCard(items[j], j, depth + 1);
        return;
      }
      if (group === null && typeof items[0] === 'string' && (n === 7 || n === 8 || n === 1)) return readLines(items, n, what);
      if (group === null) fail(`${what} holds ${n} items: expected 7 rows, 8 columns or 52 cards`);
      if (n > MAX_ITEMS) fail(`${what} holds ${n} items: expected 7 rows, 8 columns or 52 cards`);
    }
    let how = g0 === 0 ? groupHow : LAY_NONE;
    for (let g = g0; g < n; g++) {
      const found = g === g0 ? group : groupOf(items[g]);
      if (found === null) fail(`${what} mixes groups of cards with ${describe(items[g])} (item ${g + 1})`);
      if (groupHow !== how) how = LAY_NONE;
      groups[g] = found;
      sizes[g] = listLength;
    }
    let shape = null;
    if (n === 7 && sizesMatch(ROWS, n)) shape = 'row';
    else if (n === 8 && sizesMatch(COLUMNS, n)) shape = 'column';
    else if (n === 1 && sizes[0] === 52) shape = 'line';
    if (shape === null) {
      fail(`${what} holds ${n} groups of ${sizesText(sizes, n)} cards: expected rows (8 8 8 8 8 8 4), columns (7 7 7 7 6 6 6 6) or one of 52`);
    }
    placeShape = shape === 'line' ? null : shape;
    notePlace(shape === 'row' ? SHAPE_ROWS : shape === 'column' ? SHAPE_COLUMNS : SHAPE_ONE, how, depth);
    // card j of group g is position first + j * stride: rows 8g + j, columns 8j + g
    const across = shape === 'row' ? 8 : shape === 'column' ? 1 : 0;
    const stride = shape === 'column' ? 8 : 1;
    for (let g = 0; g < n; g++) {
      const cards = groups[g];
      const len = sizes[g];
      const first = g * across;
      for (let j = 0; j < len; j++) readCard(cards[j], first + j * stride, depth + 2);
    }
  };
  const notePlace = (shape, group, depth) => {
    layShape = shape;
    layGroup = group;
    layDepth = depth;
  };
  const sizesMatch = (want, n) => {
    for (let k = 0; k < n; k++) if (sizes[k] !== want[k]) return false;
    return true;
  };
  // Rows or columns given as lines of text: read as one board text.
  const readLines = (items, n, what) => {
    let text = '';
    for (let k = 0; k < n; k++) {
      const line = items[k];
      if (typeof line !== 'string') fail(`${what} mixes lines of text with ${describe(line)}`);
      text += (k ? '\n' : '') + line;
      if (text.length > MAX_TEXT) fail(`${what} holds more than ${MAX_TEXT} characters of text`);
    }
    throw new BoardText(text);
  };
  // A board given as text: the fast path below, else the harness's lenient reader.
  class BoardText {
    constructor(text) {
      this.text = text;
    }
  }

  // Whether field `f` of a game state holds something (not a method, not an empty array, not a
  // setting: a number, a flag, a text too short for 52 cards like `layout: 'freecell'`): then `f`, and its
  // value in heldValue (read once).
  let heldValue = null;
  const holds = (v, f, present) => {
    if (!present) return '';
    const inner = v[f];
    if (inner === undefined || inner === null) return '';
    const type = typeof inner;
    if (type === 'function' || type === 'number' || type === 'boolean' || type === 'bigint' || type === 'symbol') return '';
    if (type === 'string' && inner.length < 52) return '';
    if (isArray(inner) && inner.length === 0) return ''; // a stock the dealing emptied
    if (isArray(inner) && inner.length === 52 && unshuffledDeck(inner)) return ''; // the whole deck, beside the deal
    heldValue = inner;
    return f;
  };
  // A game state's tableau under a field of another name (`tableauPiles`), found by what it holds:
  // 7 rows or 8 columns of 52 cards in all (the first such field), else 52 cards in an order no
  // fresh deck has (a field of the whole deck, `allCards`, is never taken for the deal).  The
  // field's name, its value in heldValue; '' when there is none.
  const tableauByContent = (v) => {
    const keys = ownKeys(v);
    let flat = '';
    let flatHeld = null;
    for (let k = 0; k < keys.length; k++) {
      const f = keys[k];
      if (typeof f !== 'string') continue;
      const held = v[f];
      if (!isArray(held)) continue;
      const n = held.length;
      if (n === 7 || n === 8) {
        let total = 0;
        let groups = true;
        let pairs = true;
        for (let g = 0; g < n && groups; g++) {
          if (!isArray(held[g])) groups = false;
          else {
            total += held[g].length;
            if (held[g].length !== 2) pairs = false;
          }
        }
        if (groups && total === 52 && !pairs) {
          heldValue = held;
          return f;
        }
      } else if (n === 52 && flat === '' && !isArray(held[0]) && !unshuffledDeck(held)) {
        flat = f;
        flatHeld = held;
      }
    }
    if (flat !== '') heldValue = flatHeld;
    return flat;
  };
  // A card's rank and suit as a fresh deck is compared (a number each, in the deck's order), read
  // plainly and on their own (not the reader's learnt tables): null when this cannot tell.
  const DECK_RANKS = 'A23456789TJQK';
  const DECK_WORDS = ['ace', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'jack', 'queen', 'king'];
  const rankOfPart = (x) => {
    if (typeof x === 'number') return x;
    if (typeof x !== 'string') return -1;
    const t = x.trim().toUpperCase();
    if (t === '10') return 9;
    if (t.length === 1 && DECK_RANKS.includes(t)) return DECK_RANKS.indexOf(t);
    if (/^\d+$/.test(t)) return Number(t);
    return DECK_WORDS.indexOf(t.toLowerCase());
  };
  const suitOfPart = (x) => {
    if (typeof x === 'number') return x;
    if (typeof x !== 'string' || x.trim() === '') return -1;
    const t = x.trim();
    const symbol = '♣♦♥♠'.indexOf(t[0]);
    return symbol >= 0 ? symbol : 'CDHS'.indexOf(t[0].toUpperCase());
  };
  const NAMED_CARD = /^\s*(10|1[0-3]|[2-9]|[AJQKT1])\s*([CDHS♣♦♥♠])\s*$|^\s*([CDHS♣♦♥♠])\s*(10|[2-9]|[AJQKT])\s*$/i;
  const deckParts = (c) => {
    if (typeof c === 'string') {
      const m = NAMED_CARD.exec(c);
      if (m === null) return null;
      const r = rankOfPart(m[1] || m[4]);
      const u = suitOfPart(m[2] || m[3]);
      return r < 0 || u < 0 ? null : [r, u];
    }
    if (c === null || typeof c !== 'object') return null;
    for (const f of NAME_FIELDS) if (typeof c[f] === 'string') return deckParts(c[f]);
    const rv = 'rank' in c ? c.rank : 'value' in c ? c.value : c.face;
    const sv = 'suit' in c ? c.suit : c.suite;
    const r = rankOfPart(rv);
    const u = suitOfPart(sv);
    return r < 0 || u < 0 ? null : [r, u];
  };
  const inOrder = (values, start, step, count) => {
    let up = true;
    let down = true;
    for (let k = 1; k < count; k++) {
      const d = values[start + k * step] - values[start + (k - 1) * step];
      if (!(d > 0)) up = false;
      if (!(d < 0)) down = false;
    }
    return up || down;
  };
  // Whether 52 cards are in a fresh deck's order: rank by rank (13 runs of one rank, the ranks in
  // order, the suits alike in every run) or suit by suit (4 runs of one suit, the ranks in order in
  // each), either way up; numbers in order.  A dealt board never is (XP's fixed layouts run rank by
  // rank, not in order); a card this cannot read says nothing: false.
  const unshuffledDeck = (cards) => {
    if (typeof cards[0] === 'number') {
      let up = true;
      let down = true;
      for (let k = 1; k < 52; k++) {
        if (cards[k] !== cards[k - 1] + 1) up = false;
        if (cards[k] !== cards[k - 1] - 1) down = false;
      }
      return up || down;
    }
    const ranks = new Array(52);
    const suits = new Array(52);
    for (let k = 0; k < 52; k++) {
      const p = deckParts(cards[k]);
      if (p === null) return false;
      ranks[k] = p[0];
      suits[k] = p[1];
      if (k === 3 && !(ranks[0] === ranks[1] && ranks[1] === ranks[2] && ranks[2] === ranks[3]) && !(suits[0] === suits[1] && suits[1] === suits[2] && suits[2] === suits[3])) {
        return false; // neither a rank's run nor a suit's starts here: shuffled
      }
    }
    let byRank = inOrder(ranks, 0, 4, 13);
    for (let k = 0; k < 52 && byRank; k++) if (ranks[k] !== ranks[k - (k & 3)] || suits[k] !== suits[k & 3]) byRank = false;
    let bySuit = true;
    for (let k = 0; k < 52 && bySuit; k++) if (suits[k] !== suits[k - (k % 13)]) bySuit = false;
    for (let start = 0; start < 52 && bySuit; start += 13) if (!inOrder(ranks, start, 1, 13)) bySuit = false;
    return byRank || bySuit;
  };
  const mustBeEmpty = (v, part, what) => mustBeEmptyValue(v[part], part, what);
  // The rest of mustBeEmpty, the part's value `held`.
  const mustBeEmptyValue = (held, part, what) => {
    if (!isEmptyPart(held, 0)) fail(`${what} has cards in its ${part}: expected a fresh deal (free cells and foundations empty)`);
  };

  // Reads any board value into the positions (or throws BoardText / Unreadable).
  const readValue = (v, what, depth) => {
    if (depth > MAX_DEPTH) fail(`${what} is nested deeper than a board (${MAX_DEPTH} levels)`);
    if (typeof v === 'string') {
      if (v.length > MAX_TEXT) fail(`${what} is a text of ${v.length} characters: a board's text is at most ${MAX_TEXT}`);
      throw new BoardText(v);
    }
    if (v === null || typeof v !== 'object') {
      fail(`${what === 'it' ? 'not' : `${what} is ${describe(v)}, not`} a board (expected rows, columns, 52 cards, board text or a game state)`);
    }
    if (isArray(v)) {
      noteTop(depth, TOP_LIST);
      return readList(v, v.length, what, depth);
    }
    return readObjectFrom(v, what, depth, 0);
  };
  // The game-state holder fields, in the order they are looked for.
  const HOLDERS = ['cascades', 'tableau', 'tableaux', 'columns', 'stacks', 'piles', 'board', 'rows', 'layout', 'cards', 'deck'];
  // The rest of readValue for an object that is not an array, from holder field HOLDERS[k] on.
  const readObjectFrom = (v, what, depth, k) => {
    // The first holder field present, each looked up at a site of its own (they stay fast).
    const f =
      (k <= 0 && holds(v, 'cascades', 'cascades' in v)) ||
      (k <= 1 && holds(v, 'tableau', 'tableau' in v)) ||
      (k <= 2 && holds(v, 'tableaux', 'tableaux' in v)) ||
      (k <= 3 && holds(v, 'columns', 'columns' in v)) ||
      (k <= 4 && holds(v, 'stacks', 'stacks' in v)) ||
      (k <= 5 && holds(v, 'piles', 'piles' in v)) ||
      (k <= 6 && holds(v, 'board', 'board' in v)) ||
      (k <= 7 && holds(v, 'rows', 'rows' in v)) ||
      (k <= 8 && holds(v, 'layout', 'layout' in v)) ||
      (k <= 9 && holds(v, 'cards', 'cards' in v)) ||
      (k <= 10 && holds(v, 'deck', 'deck' in v));
    if (f) {
      const held = heldValue;
      emptyParts(v, what);
      return readHeld(held, f, depth);
    }
    const list = listOf(v, what);
    if (list !== null) {
      noteTop(depth, TOP_ITERABLE);
      return readList(list, listLength, what, depth);
    }
    return readObjectAfterList(v, what, depth);
  };
  // A game state's free cells and foundations, each when present: they must be empty.
  const EMPTY_PARTS = ['freecells', 'freeCells', 'cells', 'reserve', 'reserves', 'foundations', 'foundation', 'homecells', 'homeCells'];
  const emptyParts = (v, what) => {
    if ('freecells' in v) mustBeEmpty(v, 'freecells', what);
    if ('freeCells' in v) mustBeEmpty(v, 'freeCells', what);
    if ('cells' in v) mustBeEmpty(v, 'cells', what);
    if ('reserve' in v) mustBeEmpty(v, 'reserve', what);
    if ('reserves' in v) mustBeEmpty(v, 'reserves', what);
    if ('foundations' in v) mustBeEmpty(v, 'foundations', what);
    if ('foundation' in v) mustBeEmpty(v, 'foundation', what);
    if ('homecells' in v) mustBeEmpty(v, 'homecells', what);
    if ('homeCells' in v) mustBeEmpty(v, 'homeCells', what);
  };
  // What a game state holds under field f (its value `held`), read as a board.
  const readHeld = (held, f, depth) => {
    if (depth === 0 && isArray(held)) {
      layTop = TOP_STATE;
      for (let k = 0; k < HOLDERS.length; k++) if (HOLDERS[k] === f) layHolder = k;
      return readList(held, held.length, `its ${f}`, 1);
    }
    return readValue(held, `its ${f}`, depth + 1);
  };
  // The rest of readValue for an object that is neither a game state nor an iterable.
  const readObjectAfterList = (v, what, depth) => {
    const f = tableauByContent(v);
    if (f !== '') {
      const held = heldValue;
      emptyParts(v, what);
      return readHeld(held, f, depth);
    }
    const t = textForm(v);
    if (t !== null) return readValue(t, `its text form`, depth + 1);
    return fail(
      `${what}${fieldList(v)} holds no board: expected rows, columns or 52 cards, a game state holding them ` +
        '(cascades, tableau, columns, stacks, piles, board …), an iterable of cards, or a text form printing the tableau' +
        (depth === 0 ? staticMethods(v) : ''),
    );
  };
  const noteTop = (depth, top) => {
    if (depth === 0) layTop = top;
  };

  // ---------------------------------------------------------------- numbers, then the line
  const seen = new Int32Array(52);
  let generation = 0;
  const nextGeneration = () => {
    if (++generation === 0x7fffffff) {
      seen.fill(0);
      generation = 1;
    }
  };
  const CARD_NAMES = fresh(52);
  for (let k = 0; k < 52; k++) CARD_NAMES[k] = RANKS[k >> 2] + SUITS[k & 3];
  // A board's line is written as character codes (setLineCard), then made one flat string by one
  // call of String.fromCharCode with its 156 codes (lineText, made once from a fixed template): no
  // string of 52 pieces for the collector to copy and the hash to flatten.
  const LINE_CODES = new Uint8Array(156);
  for (let p = 0; p < 52; p++) LINE_CODES[3 * p + 2] = p === 51 ? 10 : 32;
  const RANK_CODE = new Uint8Array(52);
  const SUIT_CODE = new Uint8Array(52);
  for (let k = 0; k < 52; k++) {
    RANK_CODE[k] = charCodeAt(RANKS, k >> 2);
    SUIT_CODE[k] = charCodeAt(SUITS, k & 3);
  }
  const setLineCard = (p, k) => {
    LINE_CODES[3 * p] = RANK_CODE[k];
    LINE_CODES[3 * p + 1] = SUIT_CODE[k];
  };
  let lineCodes = '';
  for (let i = 0; i < 156; i++) lineCodes += `${i ? ', ' : ''}c[${i}]`;
  const lineText = Function('f', 'c', `'use strict'; return () => f(${lineCodes});`)(fromCharCode, LINE_CODES);

  const valuesText = (bits, base) => {
    let t = '';
    for (let k = 0; k < 32; k++) if (bits & (1 << k)) t += (t ? ', ' : '') + (k + base);
    return t;
  };

  // Numeric ranks, suits and card numbers, read with the numbering the board itself uses (ranks)
  // or the request states (--suits, --cards).
  const resolveNumbers = () => {
    // What the cards were: numeric ranks (bit n: the number n), any rank a letter or word, suits
    // as numbers, cards as numbers.
    let rankBits = 0;
    let letterRanks = false;
    let suitBits = 0;
    let cardLow = 52;
    let cardHigh = -1;
    let firstSuit = -1;
    let firstCard = -1;
    for (let p = 0; p < 52; p++) {
      const r = rankAt[p];
      if (r >= CARD_NUMBER) {
        if (firstCard < 0) firstCard = p;
        const c = r - CARD_NUMBER;
        if (c < cardLow) cardLow = c;
        if (c > cardHigh) cardHigh = c;
        continue;
      }
      if (r >= NUMERIC) rankBits |= 1 << (r - NUMERIC);
      else letterRanks = true;
      if (suitAt[p] >= NUMERIC) {
        suitBits |= 1 << (suitAt[p] - NUMERIC);
        if (firstSuit < 0) firstSuit = p;
      }
    }
    if (firstCard >= 0) {
      if (rankBits || letterRanks) {
        const p = firstCard;
        fail(`${placeName(p)} is the number ${rankAt[p] - CARD_NUMBER}: not a card (the board's other cards are not numbers)`);
      }
      if (options.cards === null || options.suits === null) {
        const missing = options.cards !== null ? '--suits' : options.suits !== null ? '--cards' : '--cards and --suits';
        refuse(
          `cards are bare numbers ${cardLow} … ${cardHigh}, which say nothing of their rank and suit: state how they ` +
            `are numbered with ${missing} (--cards rank-major: card = rank × 4 + suit; --cards suit-major: ` +
            'card = suit × 13 + rank; --suits: the letters of suits 0 … 3, e.g. CDHS)',
        );
      }
      const base = cardLow;
      if (base > 1 || cardHigh - base >= 52) fail(`cards are the numbers ${cardLow} … ${cardHigh}: expected 0 … 51 or 1 … 52`);
      const order = options.suits;
      for (let p = 0; p < 52; p++) {
        const c = rankAt[p] - CARD_NUMBER - base;
        const rank = options.cards === 'suit-major' ? c % 13 : c >> 2;
        const suitNumber = options.cards === 'suit-major' ? (c / 13) | 0 : c & 3;
        rankAt[p] = rank;
        suitAt[p] = SUIT_OF_CODE[charCodeAt(order, suitNumber)];
      }
      return;
    }
    if (suitBits) {
      if (options.suits === null) {
        refuse(
          `suits are bare numbers (${valuesText(suitBits, 0)}), which do not say which suit is which: state their order ` +
            'with --suits (the letters of suits 0 … 3, e.g. --suits CDHS or --suits SHDC)',
        );
      }
      const base = suitBits & 16 ? 1 : 0;
      if (base === 1 && suitBits & 1) fail(`suits are numbered ${valuesText(suitBits, 0)}: 5 values for 4 suits`);
      for (let p = 0; p < 52; p++) {
        if (suitAt[p] >= NUMERIC) suitAt[p] = SUIT_OF_CODE[charCodeAt(options.suits, suitAt[p] - NUMERIC - base)];
      }
    }
    if (!rankBits) return;
    let shift;
    if (letterRanks) {
      // Numbers among letters and words are face values: 2 … 10 (1 is an ace).
      if (rankBits & ~0x7fe) {
        fail(`ranks mix letters with the numbers ${valuesText(rankBits, 0)}: expected face values 1 … 10 beside A, J, Q, K`);
      }
      shift = 1;
    } else if (rankBits === 0x1fff) shift = 0; // 0 … 12, ace 0
    else if (rankBits === 0x3ffe) shift = 1; // 1 … 13, ace 1
    else if (rankBits === 0x7ffc) shift = 2; // 2 … 14, ace high
    else fail(`ranks are the numbers ${valuesText(rankBits, 0)}: expected 13 values, 0 … 12, 1 … 13 or 2 … 14 (ace high)`);
    for (let p = 0; p < 52; p++) {
      const r = rankAt[p];
      if (r < NUMERIC) continue;
      const n = r - NUMERIC;
      rankAt[p] = shift === 2 ? (n === 14 ? 0 : n - 1) : n - shift;
    }
  };

  const problem = () => {
    nextGeneration();
    let repeated = '';
    let count = 0;
    for (let p = 0; p < 52; p++) {
      const k = rankAt[p] * 4 + suitAt[p];
      if (seen[k] === generation) {
        repeated += (repeated ? ' ' : '') + CARD_NAMES[k];
        count++;
      }
      seen[k] = generation;
    }
    let missing = '';
    let gone = 0;
    for (let k = 0; k < 52; k++) {
      if (seen[k] !== generation) {
        gone++;
        if (gone <= 8) missing += (missing ? ' ' : '') + CARD_NAMES[k];
      }
    }
    return `repeated: ${repeated}; missing: ${gone <= 8 ? missing : `${gone} cards`}`;
  };
  // The 52 cards read, in dealing order, as a line of their names: a board with a card repeated,
  // as it was given, for the harness to show (the repeated and missing cards marked).
  const givenLine = () => {
    let line = '';
    for (let p = 0; p < 52; p++) line += (p ? ' ' : '') + CARD_NAMES[rankAt[p] * 4 + suitAt[p]];
    return line;
  };

  const lineOfPositions = () => {
    nextGeneration();
    for (let p = 0; p < 52; p++) {
      const k = rankAt[p] * 4 + suitAt[p];
      if (seen[k] === generation) return null;
      seen[k] = generation;
      setLineCard(p, k);
    }
    return lineText();
  };

  // ---------------------------------------------------------------- board text, the fast way
  // Whitespace- or comma-separated rank-first cards ("JD", "jd", "10♦", "T♦"), laid out as rows,
  // columns or one line: read here; anything else goes to the harness's lenient reader (Python),
  // which reads these the same way.
  const lineCards = new Int32Array(64);
  const fastText = (text) => {
    const line = rowsText(text);
    return line !== null ? line : anyFastText(text);
  };
  // Rows as printed most often: "JD 2C …" two characters a card, one space between cards and one
  // line feed between rows (and after the last, or not): read by character positions.
  const rowsText = (text) => {
    const n = text.length;
    if (n !== 155 && !(n === 156 && charCodeAt(text, 155) === 10)) return null;
    nextGeneration();
    for (let k = 0; k < 52; k++) {
      const a = charCodeAt(text, 3 * k);
      const b = charCodeAt(text, 3 * k + 1);
      const r = a < 128 ? RANK_OF_CODE[a] : -1;
      const u = b < 128 ? SUIT_OF_CODE[b] : -1;
      if (r < 0 || u < 0 || (k < 51 && charCodeAt(text, 3 * k + 2) !== ((k & 7) === 7 ? 10 : 32))) return null;
      const c = r * 4 + u;
      if (seen[c] === generation) return null;
      seen[c] = generation;
      codeAt[k] = c;
    }
    return lineOfCodes();
  };
  const anyFastText = (text) => {
    let n = 0;
    let lines = 0;
    let inLine = 0;
    const len = text.length;
    let k = 0;
    while (k <= len) {
      const c = k < len ? charCodeAt(text, k) : 10;
      if (c === 10 || c === 13) {
        if (inLine) {
          if (lines === 8) return null;
          lineCards[lines++] = inLine;
          inLine = 0;
        }
        k++;
        continue;
      }
      if (c === 32 || c === 9 || c === 44) {
        k++;
        continue;
      }
      let rank;
      let at = k;
      if (c === 49 && at + 1 < len && charCodeAt(text, at + 1) === 48) {
        rank = 9;
        at += 2;
      } else {
        if (c >= 128 || c === 49) return null;
        rank = RANK_OF_CODE[c];
        at += 1;
      }
      if (rank < 0 || at >= len) return null;
      const d = charCodeAt(text, at);
      let suit = d < 128 ? SUIT_OF_CODE[d] : SYMBOL_SUITS[d];
      if (suit === undefined || suit < 0) return null;
      at += 1;
      if (at < len) {
        const e = charCodeAt(text, at);
        if (e === 0xfe0f) at += 1;
        else if (!(e === 32 || e === 9 || e === 44 || e === 10 || e === 13)) return null;
      }
      if (n === 52) return null;
      rankAt[n] = rank;
      suitAt[n] = suit;
      n++;
      inLine++;
      k = at;
    }
    if (n !== 52) return null;
    if (lines === 7) {
      for (let r = 0; r < 7; r++) if (lineCards[r] !== ROWS[r]) return null;
      return lineOfPositions();
    }
    if (lines === 8) {
      for (let c = 0; c < 8; c++) if (lineCards[c] !== COLUMNS[c]) return null;
      // columns were read in text order: column c, card j is position j * 8 + c
      const r = new Int32ArrayOf(52);
      const s = new Int32ArrayOf(52);
      let t = 0;
      for (let c = 0; c < 8; c++) {
        for (let j = 0; j < COLUMNS[c]; j++) {
          r[j * 8 + c] = rankAt[t];
          s[j * 8 + c] = suitAt[t];
          t++;
        }
      }
      for (let p = 0; p < 52; p++) {
        rankAt[p] = r[p];
        suitAt[p] = s[p];
      }
      return lineOfPositions();
    }
    return lines === 1 ? lineOfPositions() : null;
  };

  // ---------------------------------------------------------------- boards read as the last board's
  // A board decided from its readings (resolveNumbers) teaches the reader its layout — where its
  // list is (the value, a game state's holder field, an iterable), the list's shape and groups, and
  // its kind of card (a name, a card-name field, rank and suit fields, a text form, a number) — and,
  // where its values are numbers, tables from each value as read to the card decided.  For that
  // layout a reader is made once (layoutReader: a function written from fixed templates, the only
  // names in it the harness's own field names), and each board after it is read by that reader
  // first.  It takes exactly the full reader's steps, in its order, on the way the learnt board
  // took, and reads each card straight to its code (a hit) where the card is of the learnt kind and
  // its values are in the tables.  Where the board goes another way, the full reader goes on from
  // that very step with what was read so far, so that nothing a dealer's code computes (a getter, an
  // iterator, a text form) is read twice: before any such read, the full reader starts again from
  // the value (the learnt reader has then only looked: typeof, Array.isArray, `in`); a card the
  // learnt reader does not take is read on by readCard's steps from where it stopped, to its
  // reading.  A board of 52 distinct hits is the line of their codes; any other board is decided
  // from its readings, as the first was (a hit's reading is its code's, read back through the tables).
  //
  // Why that line is the one the readings would give: a card named by a text, a name field or a
  // text form is the same card whatever the board; a number (a numeric rank, a suit as a number, a
  // card number) means what the set of values the whole board uses says.  The tables map a value
  // as read (its reading) to the card decided, and are learnt only from a board with one reading
  // per rank and one per suit (one per card, for card numbers): a board whose 52 cards are distinct
  // hits then uses exactly the learnt board's set of readings, so the same numbering.
  let learntKind = KIND_UNSET;
  let learntReader = null; // the learnt layout's reader, or null
  let learntLayout = null; // its layout (what the full reader notes: top, holder, shape, group, fields, named)
  let board = 0; // the board being read (for missAt)
  let hits = 0; // cards of the board read straight to their code
  const codeAt = new Int8Array(52);
  const missAt = new Int32Array(52); // `board` where the learnt reader did not read position p to its code
  // value read → card, and card → reading, as learnt
  const RANK_OF_READING = new Int8Array(13 + 15); // readings 0 … 12 (letters and words), then numbers 0 … 14
  const SUIT_OF_READING = new Int8Array(4 + 5); // readings 0 … 3 (letters, symbols and words), then numbers 0 … 4
  const RANK_OF_CHAR_READ = new Int8Array(128); // a one-character rank (ASCII)
  const SUIT_OF_CHAR_READ = new Int8Array(128); // a one-character suit (ASCII)
  const CODE_OF_NUMBER = new Int8Array(53);
  const READING_OF_RANK = new Int32Array(13);
  const READING_OF_SUIT = new Int32Array(4);
  const NUMBER_OF_CODE = new Int32Array(52);
  // Longer rank and suit texts ("clubs", "queen") met since the tables were learnt, each with its
  // rank or suit as learnt, by (first character + length) & 63: compared by content, one compare.
  // (Kept as '' when empty, never null: a compare of two texts only stays one pointer compare.)
  const RANK_TEXTS = fresh(64);
  const RANK_TEXT_CODES = new Int8Array(64);
  const SUIT_TEXTS = fresh(64);
  const SUIT_TEXT_CODES = new Int8Array(64);
  const textSlot = (t) => (charCodeAt(t, 0) + t.length) & 63;
  // A rank or suit field's value as learnt (rankAsLearnt, suitAsLearnt), a longer text kept.
  const rankAny = (rv) => {
    const r = rankAsLearnt(rv);
    if (r >= 0 && typeof rv === 'string' && rv.length > 1) {
      RANK_TEXTS[textSlot(rv)] = rv;
      RANK_TEXT_CODES[textSlot(rv)] = r;
    }
    return r;
  };
  const suitAny = (sv) => {
    const u = suitAsLearnt(sv);
    if (u >= 0 && typeof sv === 'string' && sv.length > 1) {
      SUIT_TEXTS[textSlot(sv)] = sv;
      SUIT_TEXT_CODES[textSlot(sv)] = u;
    }
    return u;
  };
  const rankSlot = (r) => (r < NUMERIC ? r : r - NUMERIC + 13);
  const suitSlot = (u) => (u < NUMERIC ? u : u - NUMERIC + 4);
  const clear = (table) => {
    for (let k = 0; k < table.length; k++) table[k] = -1;
  };
  // The readings of the board's hits (from their codes), for deciding the board from its readings.
  const readingsOfHits = () => {
    for (let p = 0; p < 52; p++) {
      if (missAt[p] === board) continue;
      const c = codeAt[p];
      if (learntKind === KIND_FIELDS) {
        rankAt[p] = READING_OF_RANK[c >> 2];
        suitAt[p] = READING_OF_SUIT[c & 3];
      } else if (learntKind === KIND_NUMBER) {
        rankAt[p] = CARD_NUMBER + NUMBER_OF_CODE[c];
        suitAt[p] = 0;
      } else setCard(p, c);
    }
  };
  // The readings of the board being decided, kept for learn() (resolveNumbers overwrites them).
  const readingRankAt = new Int32Array(52);
  const readingSuitAt = new Int32Array(52);
  const keepReadings = () => {
    for (let p = 0; p < 52; p++) {
      readingRankAt[p] = rankAt[p];
      readingSuitAt[p] = suitAt[p];
    }
  };
  // Learns the kind and layout of the board just decided (its readings kept, its cards in rankAt/suitAt).
  const learn = () => {
    const kind = boardKind;
    learntReader = null;
    learntLayout = null;
    learntKind = KIND_UNSET;
    for (let k = 0; k < 64; k++) {
      RANK_TEXTS[k] = '';
      SUIT_TEXTS[k] = '';
    }
    if (kind === KIND_FIELDS) {
      clear(RANK_OF_READING);
      clear(SUIT_OF_READING);
      let ranks = 0;
      let suits = 0;
      for (let p = 0; p < 52; p++) {
        const a = rankSlot(readingRankAt[p]);
        if (RANK_OF_READING[a] < 0) ranks++;
        RANK_OF_READING[a] = rankAt[p];
        READING_OF_RANK[rankAt[p]] = readingRankAt[p];
        const b = suitSlot(readingSuitAt[p]);
        if (SUIT_OF_READING[b] < 0) suits++;
        SUIT_OF_READING[b] = suitAt[p];
        READING_OF_SUIT[suitAt[p]] = readingSuitAt[p];
      }
      if (ranks !== 13 || suits !== 4) return;
      for (let c = 0; c < 128; c++) {
        const r = RANK_OF_CHAR[c];
        RANK_OF_CHAR_READ[c] = r >= 0 ? RANK_OF_READING[rankSlot(r)] : -1;
        const u = SUIT_OF_CODE[c];
        SUIT_OF_CHAR_READ[c] = u >= 0 ? SUIT_OF_READING[u] : -1;
      }
    } else if (kind === KIND_NUMBER) {
      clear(CODE_OF_NUMBER);
      for (let p = 0; p < 52; p++) {
        const c = rankAt[p] * 4 + suitAt[p];
        CODE_OF_NUMBER[readingRankAt[p] - CARD_NUMBER] = c;
        NUMBER_OF_CODE[c] = readingRankAt[p] - CARD_NUMBER;
      }
    } else if (kind !== KIND_TEXT && kind !== KIND_NAMED && kind !== KIND_TEXT_FORM) return;
    learntKind = kind;
    learnLayout(kind);
  };

  // ---------------------------------------------------------------- the learnt layout's reader
  const makeFunction = Function; // the context's own, taken before any dealer code runs
  const readers = { __proto__: null }; // made readers by their layout's key
  const readerLayouts = { __proto__: null }; // the layout each was made for
  const MAX_READERS = 64;
  let readersMade = 0;
  // A field name as written into a reader's source: only ever one of ours (HOLDERS, NAME_FIELDS,
  // RANK_FIELDS, SUIT_FIELDS), never a dealer's text.
  const fieldName = (f) => f;
  const SHAPE_WIDTHS = [null, ROWS, COLUMNS, [52]];
  const PLACE_SHAPES = [null, 'row', 'column', null];
  const setPlace = (shape) => {
    placeShape = PLACE_SHAPES[shape];
  };
  const GROUPS = fresh(MAX_ITEMS);
  const listLengthNow = () => listLength;

  // The layout of the board just decided (noted as it was read), when a learnt reader takes it.
  const learnLayout = (kind) => {
    if (layTop === LAY_NONE || layShape === LAY_NONE) return;
    if (layTop === TOP_STATE ? layHolder < 0 || layDepth !== 1 : layDepth !== 0) return;
    if (layShape !== SHAPE_52 && layGroup === LAY_NONE) return;
    if (kind === KIND_FIELDS && layFields < 0) return;
    if (kind === KIND_NAMED && layNamed < 0) return;
    const layout = {
      __proto__: null,
      top: layTop,
      holder: layTop === TOP_STATE ? layHolder : -1,
      shape: layShape,
      group: layShape === SHAPE_52 ? -1 : layGroup,
      kind,
      fields: kind === KIND_FIELDS ? layFields : -1,
      named: kind === KIND_NAMED ? layNamed : -1,
      rankType: kind === KIND_FIELDS ? layRankType : VALUE_ANY,
      suitType: kind === KIND_FIELDS ? laySuitType : VALUE_ANY,
      spellings: fresh(kind === KIND_FIELDS && !layMoreSpellings ? laySpellingCount : 0),
      spellingSuits: null,
    };
    for (let j = 0; j < layout.spellings.length; j++) layout.spellings[j] = laySpellings[j];
    layout.spellingSuits = new Int8ArrayOf(layout.spellings.length + 1);
    let key =
      `${layout.top} ${layout.holder} ${layout.shape} ${layout.group} ${kind} ${layout.fields} ${layout.named} ` +
      `${layout.rankType} ${layout.suitType}`;
    for (let j = 0; j < layout.spellings.length; j++) key += ` ${layout.spellings[j]}`; // numbers: no Array.prototype.join
    if (readers[key] === undefined) {
      if (readersMade === MAX_READERS) return; // a dealer of ever new layouts is read by the full reader
      readersMade++;
      readers[key] = layoutReader(layout);
      readerLayouts[key] = layout;
    }
    learntReader = readers[key];
    learntLayout = readerLayouts[key];
    learnSpellingSuits(learntLayout);
  };
  // What the full reader would have noted of a board the learnt reader read to its cards.
  const noteLearnt = () => {
    const layout = learntLayout;
    layTop = layout.top;
    layHolder = layout.holder;
    layShape = layout.shape;
    layGroup = layout.group;
    layDepth = layout.top === TOP_STATE ? 1 : 0;
    if (hits > 0 && layout.kind === KIND_FIELDS) {
      noteFields(layout.fields);
      noteTypes(layout.rankType, layout.suitType);
      for (let j = 0; j < layout.spellings.length; j++) noteSpelling(SUIT_SPELLINGS[layout.spellings[j]]);
    }
    if (hits > 0 && layout.kind === KIND_NAMED) noteNamed(layout.named);
  };

  // The reader of boards laid out as `layout`: reader(value, generation, board) reads the board into
  // the positions and returns its distinct hits + 64 × its hits, -1 when the value is not laid out
  // so and nothing was read (the full reader reads it), or -2 when the full reader went on.
  const layoutReader = (layout) => {
    const depth = layout.top === TOP_STATE ? 1 : 0; // the list's
    const cardDepth = depth + (layout.shape === SHAPE_52 ? 1 : 2);
    let text = '';
    const add = (line) => {
      text += line + '\n';
    };
    add("'use strict';");
    add('const { isArray, cc, seen, codeAt, missAt, GROUPS, SIZES, WHAT, RANK_OF_CHAR_READ, SUIT_OF_CHAR_READ, RANK_OF_READING,');
    add('  SUIT_OF_READING, CODE_OF_NUMBER, RANK_TEXTS, RANK_TEXT_CODES, SUIT_TEXTS, SUIT_TEXT_CODES, rankAny, suitAny,');
    add('  cardOfName, readCard, readFields, readNamedFrom, textFormCode, readList, readListFrom, groupOf, groupOfCards,');
    add('  listOf, listLength, readObjectFrom, readObjectAfterList, mustBeEmptyValue, readHeld, place, SPELLING_SUITS } = K;');
    add('return function learntBoard(v, gen, brd) {');
    // the list: the value, an iterable's items, or what a game state holds
    if (layout.top === TOP_LIST) {
      add('  if (!isArray(v)) return -1;');
      add('  const items = v;');
      add('  const n = v.length;');
    } else {
      add('  if (v === null || typeof v !== "object" || isArray(v)) return -1;');
      const before = layout.top === TOP_STATE ? layout.holder : HOLDERS.length;
      for (let k = 0; k < before; k++) add(`  if (${stringify(fieldName(HOLDERS[k]))} in v) return -1;`);
      if (layout.top === TOP_ITERABLE) {
        add('  const items = listOf(v, WHAT);');
        add('  if (items === null) return readObjectAfterList(v, WHAT, 0), -2;');
        add('  const n = listLength();');
      } else {
        const f = fieldName(HOLDERS[layout.holder]);
        add(`  if (!(${stringify(f)} in v)) return -1;`);
        add(`  const held = v.${f};`);
        add(`  if (typeof held === "function" || held === void 0 || held === null) return readObjectFrom(v, "it", 0, ${layout.holder + 1}), -2;`);
        for (let k = 0; k < EMPTY_PARTS.length; k++) {
          const part = fieldName(EMPTY_PARTS[k]);
          add(`  if (${stringify(part)} in v) mustBeEmptyValue(v.${part}, ${stringify(part)}, "it");`);
        }
        add(`  if (!isArray(held)) return readHeld(held, ${stringify(f)}, 0), -2;`);
        add('  const items = held;');
        add('  const n = held.length;');
      }
    }
    add('  let distinct = 0;');
    add('  let misses = 0;');
    // the groups, each looked at (and kept) before any card, as readList does, then their cards
    const card = cardCode(layout, cardDepth);
    if (layout.shape === SHAPE_52) {
      add(`  if (n !== 52) return readList(items, n, WHAT, ${depth}), -2;`);
      add('  const first = groupOf(items[0]);');
      add(`  if (first !== null) return readListFrom(items, n, WHAT, ${depth}, GROUPS, 0, first), -2;`);
      add('  place(0);');
      add('  for (let p = 0; p < 52; p++) {');
      add('    const c = items[p];');
      add(card);
      add('  }');
    } else {
      const widths = SHAPE_WIDTHS[layout.shape];
      add(`  if (n !== ${widths.length}) return readList(items, n, WHAT, ${depth}), -2;`);
      for (let g = 0; g < widths.length; g++) {
        // on the way out: the groups before g kept, as readList keeps them
        let kept = '';
        for (let e = 0; e < g; e++) kept += `GROUPS[${e}] = g${e}; SIZES[${e}] = ${widths[e]}; `;
        const out = (group) => `{ ${kept}return readListFrom(items, n, WHAT, ${depth}, GROUPS, ${g}, ${group}), -2; }`;
        if (layout.group === GROUP_ARRAY) {
          add(`  const g${g} = items[${g}];`);
          add(`  if (!isArray(g${g}) || g${g}.length !== ${widths[g]}) ${out(`groupOf(g${g})`)}`);
        } else {
          add(`  const h${g} = items[${g}];`);
          const notHolding = `typeof h${g} === "string" || h${g} === null || typeof h${g} !== "object" || isArray(h${g})`;
          add(`  if (${notHolding} || !("cards" in h${g})) ${out(`groupOf(h${g})`)}`);
          add(`  const g${g} = h${g}.cards;`);
          add(`  if (!isArray(g${g}) || g${g}.length !== ${widths[g]}) ${out(`groupOfCards(g${g})`)}`);
        }
      }
      add(`  place(${layout.shape});`);
      for (let g = 0; g < widths.length; g++) {
        // card j of group g is position: rows 8g + j, columns 8j + g, one group j
        const position = layout.shape === SHAPE_ROWS ? `${8 * g} + j` : layout.shape === SHAPE_COLUMNS ? `8 * j + ${g}` : 'j';
        add(`  for (let j = 0; j < ${widths[g]}; j++) {`);
        add(`    const p = ${position};`);
        add(`    const c = g${g}[j];`);
        add(card);
        add('  }');
      }
    }
    add('  return distinct + 64 * (52 - misses);');
    add('};');
    const K = {
      __proto__: null,
      isArray,
      cc: charCodeAt,
      seen,
      codeAt,
      missAt,
      GROUPS,
      SIZES: sizes,
      WHAT: layout.top === TOP_STATE ? `its ${HOLDERS[layout.holder]}` : 'it',
      RANK_OF_CHAR_READ,
      SUIT_OF_CHAR_READ,
      RANK_OF_READING,
      SUIT_OF_READING,
      CODE_OF_NUMBER,
      RANK_TEXTS,
      RANK_TEXT_CODES,
      SUIT_TEXTS,
      SUIT_TEXT_CODES,
      rankAny,
      suitAny,
      cardOfName,
      readCard,
      readFields,
      readNamedFrom,
      textFormCode,
      readList,
      readListFrom,
      groupOf,
      groupOfCards,
      listOf,
      listLength: listLengthNow,
      readObjectFrom,
      readObjectAfterList,
      mustBeEmptyValue,
      readHeld,
      place: setPlace,
      SPELLING_SUITS: layout.spellingSuits,
    };
    return makeFunction('K', text)(K);
  };
  // The statements reading card `c` at position `p` as the layout's kind of card: straight to its
  // code `k` (a hit), else readCard's steps from where they stopped (a miss).
  const cardCode = (layout, D) => {
    const HIT = '{ if (seen[k] !== gen) { seen[k] = gen; distinct++; } codeAt[p] = k; }';
    const MISS = 'missAt[p] = brd; misses++;';
    const NAMES_IN = "'id' in c || 'code' in c || 'name' in c || 'short' in c || 'label' in c";
    if (layout.kind === KIND_TEXT) {
      return `    const k = cardOfName(c);\n    if (k >= 0) ${HIT} else { ${MISS} readCard(c, p, ${D}); }`;
    }
    if (layout.kind === KIND_NUMBER) {
      return (
        '    const k = typeof c === "number" && c >= 0 && c <= 52 && (c | 0) === c ? CODE_OF_NUMBER[c] : -1;\n' +
        `    if (k >= 0) ${HIT} else { ${MISS} readCard(c, p, ${D}); }`
      );
    }
    if (layout.kind === KIND_NAMED) {
      let before = '';
      for (let k = 0; k < layout.named; k++) before += ` || ${stringify(fieldName(NAME_FIELDS[k]))} in c`;
      const f = fieldName(NAME_FIELDS[layout.named]);
      return (
        `    if (c === null || typeof c !== "object"${before} || !(${stringify(f)} in c)) { ${MISS} readCard(c, p, ${D}); } else {\n` +
        `      const k = cardOfName(c.${f});\n` +
        `      if (k >= 0) ${HIT} else { ${MISS} readNamedFrom(c, ${layout.named + 1}, p, ${D}); }\n` +
        '    }'
      );
    }
    if (layout.kind === KIND_TEXT_FORM) {
      // fieldsOf looks for a rank field and a suit field, both
      return (
        `    if (c === null || typeof c !== "object" || ${NAMES_IN} ||\n` +
        "        (('rank' in c || 'value' in c || 'face' in c) & ('suit' in c || 'suite' in c))) {\n" +
        `      ${MISS} readCard(c, p, ${D});\n` +
        '    } else {\n' +
        '      const k = textFormCode(c, p);\n' +
        `      ${HIT}\n` +
        '    }'
      );
    }
    const rf = fieldName(RANK_FIELDS[layout.fields >> 1]);
    const sf = fieldName(SUIT_FIELDS[layout.fields & 1]);
    let rankIn = '';
    for (let k = 0; k < layout.fields >> 1; k++) rankIn += ` || ${stringify(fieldName(RANK_FIELDS[k]))} in c`;
    const suitIn = (layout.fields & 1) === 0 ? '' : " || 'suit' in c";
    return (
      `    if (c === null || typeof c !== "object" || ${NAMES_IN}${rankIn} || !(${stringify(rf)} in c)${suitIn} || !(${stringify(sf)} in c)) {\n` +
      `      ${MISS} readCard(c, p, ${D});\n` +
      '    } else {\n' +
      `      const rv = c.${rf};\n` +
      `      const sv = c.${sf};\n` +
      `${valueCode(layout.rankType, 'rv', 'r', 'RANK', 14, 13)}\n` +
      `${valueCode(layout.suitType, 'sv', 'u', 'SUIT', 4, 4, spellingCode(layout.spellings, 'sv', 'u'))}\n` +
      '      if (r === -2) r = rankAny(rv);\n' +
      '      if (u === -2) u = suitAny(sv);\n' +
      '      if (r >= 0 && u >= 0) {\n' +
      '        const k = r * 4 + u;\n' +
      `        ${HIT}\n` +
      `      } else { ${MISS} readFields(${layout.fields}, rv, sv, p, ${D}); }\n` +
      '    }'
    );
  };
  // The statements reading a rank or suit field's value `x` to its rank or suit as learnt, into `to`
  // (-1 when the tables do not hold it), quickest for values of the type the learnt board's were;
  // `first` the statements tried before (spellingCode).
  const valueCode = (type, x, to, table, most, numbers, first = '') => {
    const any = `${to} = ${table === 'RANK' ? 'rankAny' : 'suitAny'}(${x});`;
    let test;
    let quick;
    if (type === VALUE_CHAR) {
      test = `typeof ${x} === "string" && ${x}.length === 1`;
      quick = `const ch = cc(${x}, 0); ${to} = ch < 128 ? ${table}_OF_CHAR_READ[ch] : -2;`;
    } else if (type === VALUE_TEXT) {
      test = `typeof ${x} === "string" && ${x}.length > 1`;
      quick = `const e = (cc(${x}, 0) + ${x}.length) & 63; ${to} = ${table}_TEXTS[e] === ${x} ? ${table}_TEXT_CODES[e] : -2;`;
    } else if (type === VALUE_NUMBER) {
      test = `typeof ${x} === "number" && ${x} >= 0 && ${x} <= ${most} && (${x} | 0) === ${x}`;
      quick = `${to} = ${table}_OF_READING[${x} + ${numbers}];`;
    } else return `      let ${to} = -2;\n${first}`;
    return `      let ${to} = -2;\n${first}      if (${to} === -2 && ${test}) { ${quick} }`;
  };

  // The statements reading a suit field's value `x` that is one of the learnt board's `spellings`
  // (texts of ours) to its suit as learnt, into `to` (-2 when it is none of them): a compare with
  // each spelling, summed to m (SPELLING_SUITS[m]: spelling m - 1's suit as learnt, -2 for m = 0),
  // without a branch that a deal's random suits would mispredict.
  const spellingCode = (spellings, x, to) => {
    if (spellings.length === 0) return '';
    let sum = '';
    for (let j = 0; j < spellings.length; j++) sum += `${j ? ' + ' : ''}${j + 1} * (${x} === ${stringify(SUIT_SPELLINGS[spellings[j]])})`;
    return `      ${to} = SPELLING_SUITS[${sum}];\n`;
  };
  // A layout's spellings' suits as the tables now learnt say (SUIT_OF_READING), from 1; -2 at 0.
  const learnSpellingSuits = (layout) => {
    const suits = layout.spellingSuits;
    suits[0] = -2;
    for (let j = 0; j < layout.spellings.length; j++) suits[j + 1] = SUIT_OF_READING[SUIT_TEXT[SUIT_SPELLINGS[layout.spellings[j]]]];
  };

  // A card object's text form, read to its card as readUnnamedCard reads it (or its failure).
  const textFormCode = (v, p) => {
    const t = textForm(v);
    const c = t !== null && t.length <= 40 ? cardOfText(t) : -1;
    if (c < 0) notACard(v, t, p);
    return c;
  };

  // A rank or suit field's value, as learnt: the rank or suit, or -1 (not a value the tables hold).
  const rankAsLearnt = (rv) => {
    if (typeof rv === 'string') {
      if (rv.length === 1) {
        const c = charCodeAt(rv, 0);
        if (c < 128) return RANK_OF_CHAR_READ[c];
      }
      const slot = rv.length ? memoSlot(rv) : 0;
      const r = rankMemoText[slot] === rv ? rankMemoValue[slot] : rankReading(rv); // rankOfText's memo, looked up here
      return r < 0 || r > NUMERIC + 14 ? -1 : RANK_OF_READING[rankSlot(r)];
    }
    return typeof rv === 'number' && rv >= 0 && rv <= 14 && isInteger(rv) ? RANK_OF_READING[rv + 13] : -1;
  };
  const suitAsLearnt = (sv) => {
    if (typeof sv === 'string') {
      if (sv.length === 1) {
        const c = charCodeAt(sv, 0);
        if (c < 128) return SUIT_OF_CHAR_READ[c];
      }
      const slot = sv.length ? memoSlot(sv) : 0;
      const u = suitMemoText[slot] === sv ? suitMemoValue[slot] : suitOfText(sv); // suitOfText's memo, looked up here
      return u < 0 ? -1 : SUIT_OF_READING[u];
    }
    return typeof sv === 'number' && sv >= 0 && sv <= 4 && isInteger(sv) ? SUIT_OF_READING[sv + 4] : -1;
  };

  // ---------------------------------------------------------------- the reader
  // What a deal's value is: its canonical line (a string), { text } (board text for the lenient
  // reader), { invalid } (why it is no board; with `given`, the 52 card names in dealing order, when
  // it is laid out as a board but a card repeats), or { refused } (an encoding the request must state).
  const read = (value) => {
    if (typeof value === 'string' && value.length <= MAX_TEXT) {
      const line = fastText(value);
      return line !== null ? line : { text: value };
    }
    placeShape = null;
    scratchUsed = 0;
    boardKind = KIND_UNSET;
    if (++board === 0x7fffffff) {
      for (let p = 0; p < 52; p++) missAt[p] = 0;
      board = 1;
    }
    hits = 0;
    layTop = layHolder = layShape = layGroup = layDepth = LAY_NONE;
    layFields = layNamed = layRankType = laySuitType = -2;
    laySpellingCount = 0;
    layMoreSpellings = false;
    nextGeneration();
    try {
      const got = learntReader === null ? -1 : learntReader(value, generation, board);
      if (got === -1) readValue(value, 'it', 0);
      else if (got >= 0) {
        hits = got >> 6;
        if ((got & 63) === 52) return lineOfCodes(); // 52 distinct cards, each a hit
        noteLearnt();
      }
      if (hits > 0) {
        cardKindIs(learntKind);
        readingsOfHits();
      }
      keepReadings();
      resolveNumbers();
      const line = lineOfPositions();
      if (line === null) return { invalid: `52 cards, but not distinct: ${problem()}`, given: givenLine() };
      learn();
      return line;
    } catch (err) {
      if (err instanceof BoardText) {
        const line = fastText(err.text);
        return line !== null ? line : { text: err.text };
      }
      if (err instanceof Unreadable && !err.refused && !renaming) {
        const renamed = renamedCards(value);
        if (renamed !== null) {
          renaming = true;
          try {
            return read(renamed);
          } finally {
            renaming = false;
          }
        }
      }
      if (err instanceof Unreadable) return err.refused ? { refused: err.message } : { invalid: err.message };
      throw err; // the dealer's own code threw (a getter, an iterator, a text form)
    }
  };
  // Card objects whose rank and suit fields have names of their own (`value` 1 … 13, `kind` 0 … 3),
  // told apart by the board itself: of the fields every card has, the one plain field with 13
  // values across the 52 cards is the rank, the one with 4 the suit.  The value again with each
  // card as { rank, suit }, for read() to read as any other; null when there is no such pair.
  let renaming = false;
  const renamedCards = (value) => {
    let top = value;
    let holder = '';
    if (!isArray(value)) {
      if (value === null || typeof value !== 'object') return null;
      for (let k = 0; k < HOLDERS.length && holder === ''; k++) holder = holds(value, HOLDERS[k], HOLDERS[k] in value);
      if (holder === '') holder = tableauByContent(value);
      if (holder === '' || !isArray(heldValue)) return null;
      top = heldValue;
    }
    const cards = [];
    for (let k = 0; k < top.length && cards.length <= 52; k++) {
      const item = top[k];
      if (isArray(item)) for (let j = 0; j < item.length && cards.length <= 52; j++) cards.push(item[j]);
      else cards.push(item);
    }
    if (cards.length !== 52) return null;
    for (let k = 0; k < 52; k++) if (cards[k] === null || typeof cards[k] !== 'object' || isArray(cards[k])) return null;
    // Only cards the usual way cannot read for want of names: none of a card-name or suit field.
    for (const f of [...NAME_FIELDS, ...SUIT_FIELDS]) if (f in cards[0]) return null;
    const keys = ownKeys(cards[0]).filter((f) => typeof f === 'string');
    let rankField = null;
    let suitField = null;
    for (const f of keys) {
      const values = new Set();
      for (let k = 0; k < 52; k++) {
        const x = cards[k][f];
        if (typeof x !== 'string' && typeof x !== 'number') {
          values.clear();
          break;
        }
        values.add(x);
      }
      if (values.size === 13) {
        if (rankField !== null) return null;
        rankField = f;
      } else if (values.size === 4) {
        if (suitField !== null) return null;
        suitField = f;
      }
    }
    if (rankField === null || suitField === null) return null;
    const renamed = (c) => ({ rank: c[rankField], suit: c[suitField] });
    const list = top.map((item) => (isArray(item) ? item.map(renamed) : renamed(item)));
    if (holder === '') return list;
    const state = {};
    for (const f of ownKeys(value)) if (typeof f === 'string') state[f] = value[f];
    state[holder] = list;
    return state;
  };

  // Rows, columns or 52 cards of card names written rank first ("JD", "jd", "10♦"), the shapes
  // most dealers return: read without the general walk, each name as readCard reads it first
  // (quickCard); null sends the value there.
  const readRows = (board) => {
    if (learntReader !== null && learntLayout.kind !== KIND_TEXT) return null; // not names: read() reads it
    if (!isArray(board)) return null;
    const n = board.length;
    if (n === 52) return readNames(board, 52, 0, 0);
    if (n !== 7 && n !== 8) return null;
    nextGeneration();
    const widths = n === 7 ? ROWS : COLUMNS;
    for (let g = 0; g < n; g++) {
      const group = board[g];
      if (!isArray(group) || group.length !== widths[g]) return null;
      // rows: card j of row g is position 8g + j; columns: card j of column g is position 8j + g
      if (readNames(group, widths[g], n === 7 ? 8 * g : g, n === 7 ? 1 : 8) === null) return null;
    }
    return lineOfCodes();
  };
  // Reads `count` card names into positions first, first + stride, …; for 52 of them (one list)
  // returns the line, else '' (the caller makes the line), or null when one is not such a name.
  const readNames = (names, count, first, stride) => {
    if (count === 52) nextGeneration();
    for (let j = 0; j < count; j++) {
      const card = names[j];
      if (typeof card !== 'string') return null;
      const k = quickCard(card);
      if (k < 0 || seen[k] === generation) return null;
      seen[k] = generation;
      codeAt[count === 52 ? j : first + j * stride] = k;
    }
    return count === 52 ? lineOfCodes() : '';
  };
  const lineOfCodes = () => {
    for (let p = 0; p < 52; p++) setLineCard(p, codeAt[p]);
    return lineText();
  };

  const configure = (cards, suits) => {
    const order = typeof suits === 'string' ? folded(suits) : '';
    let letters = 0;
    for (let k = 0; k < order.length; k++) letters |= 1 << SUIT_OF_CODE[charCodeAt(order, k)];
    learntReader = null;
    learntLayout = null;
    learntKind = KIND_UNSET;
    options = {
      cards: cards === 'rank-major' || cards === 'suit-major' ? cards : null,
      suits: order.length === 4 && letters === 15 ? order : null,
    };
  };

  // hits(): how many cards of the last board read() read were hits (for tests).
  return Object.freeze({ __proto__: null, read, readRows, describe, configure, likelyDealer, hits: () => hits, MAX_TEXT });
})();
