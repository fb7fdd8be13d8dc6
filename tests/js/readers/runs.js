// Runs of boards for comparing the two ways answers.js reads a board: the fast way (as the boards
// read before it taught) and the full reader from nothing.  Each run is the boards one dealer
// returns, in order; each board is a function that makes it afresh (a generator is read once).
// The runs hold every shape the shape dealers return, then boards made to trip the fast way: a
// numbering changed midway, a field missing or added, shapes mixed, repeated and extra cards,
// getters, iterables, cards in free cells.
'use strict';
const { deal } = require('../shapes/deal');
const { newGame } = require('../shapes/card_class');
const FreeCellGame = require('../shapes/game_class');
const generator = require('../shapes/generator');
const named = require('../shapes/named_cards');
const numbers = require('../shapes/numbers');
const piles = require('../shapes/piles');
const toString = require('../shapes/to_string');

const LETTERS = 'A23456789TJQK';
const SUITS = 'CDHS';
const WORDS = ['clubs', 'diamonds', 'hearts', 'spades'];
const name = (c) => LETTERS[c.rank] + SUITS[c.suit];

// Deal n's 52 cards made by `card`, as 52, 7 rows or 8 columns.
const flat = (card) => (n) => deal(n).map(card);
const rows = (card) => (n) => {
  const out = [[], [], [], [], [], [], []];
  deal(n).forEach((c, p) => out[p >> 3].push(card(c)));
  return out;
};
const columns = (card) => (n) => {
  const out = [[], [], [], [], [], [], [], []];
  deal(n).forEach((c, p) => out[p & 7].push(card(c)));
  return out;
};

// The card makers.
const letters = (c) => ({ rank: LETTERS[c.rank], suit: SUITS[c.suit] });
const numbered = (base) => (c) => ({ rank: c.rank + base, suit: WORDS[c.suit] });
const aceHigh = (c) => ({ value: c.rank === 0 ? 14 : c.rank + 1, suit: SUITS[c.suit] });
const digits = (c) => ({ rank: String(c.rank + 1), suit: SUITS[c.suit] });
const faceValues = (c) => ({ rank: c.rank >= 1 && c.rank <= 9 ? c.rank + 1 : LETTERS[c.rank], suit: SUITS[c.suit] });
const tens = (c) => (c.rank === 9 ? '10' : LETTERS[c.rank]) + '♣♦♥♠'[c.suit];
const RANK_WORDS = ['ace', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'jack', 'queen', 'king'];
const words = (c) => ({ rank: RANK_WORDS[c.rank], suit: WORDS[c.suit] });
const capitalised = (word) => word[0].toUpperCase() + word.slice(1);
const printedRows = (n) => rows(name)(n).map((row) => row.join(' ')).join('\n');

// Boards 1 … k of a dealer, each made afresh.
const run = (dealer, deals) => deals.map((n) => () => dealer(n));
const range = (a, b) => Array.from({ length: b - a + 1 }, (_, k) => a + k);
// Deal n of a dealer, then changed by `change` (which may return a replacement).
const changed = (dealer, n, change) => () => {
  const board = dealer(n);
  const replaced = change(board);
  return replaced === undefined ? board : replaced;
};
const cardsOf = (board) => (board.length === 52 ? board : board.flat());

module.exports = {
  // Every shape the shape dealers return, over many deals.
  'shape dealers: rows of letters': { boards: run(rows(letters), range(1, 25)) },
  'shape dealers: columns of 1-based numbers and words': { boards: run(columns(numbered(1)), range(1, 25)) },
  'shape dealers: 52 of 0-based numbers': { boards: run(flat(numbered(0)), range(1, 25)) },
  'shape dealers: ace high values': { boards: run(flat(aceHigh), range(1, 25)) },
  'shape dealers: digit texts': { boards: run(rows(digits), range(1, 25)) },
  'shape dealers: face values beside letters': { boards: run(rows(faceValues), range(1, 25)) },
  'shape dealers: 10 and symbols': { boards: run(rows(tens), range(1, 25)) },
  'shape dealers: card class game state': { boards: run(newGame, range(1, 20)) },
  'shape dealers: game class with getters': { boards: run((n) => new FreeCellGame(n), range(1, 20)) },
  'shape dealers: generator': { boards: run(generator.dealFreeCell, range(1, 20)) },
  'shape dealers: name fields': { boards: run(named.dealFreeCell, range(1, 20)) },
  'shape dealers: piles of rank words': { boards: run(piles.dealFreeCell, range(1, 20)) },
  'shape dealers: a set of 52': { boards: run(piles.asSet, range(1, 20)) },
  'shape dealers: text forms': { boards: run(toString.rowsOfCards, range(1, 20)) },
  'shape dealers: enum suits, stated': { suits: 'SHDC', boards: run(numbers.enumSuits, range(1, 20)) },
  'shape dealers: enum suits, unstated': { boards: run(numbers.enumSuits, range(1, 5)) },
  'shape dealers: card numbers, stated': { cards: 'rank-major', suits: 'SHDC', boards: run(numbers.cardNumbers, range(1, 20)) },
  'shape dealers: suit-major numbers, stated': { cards: 'suit-major', suits: 'CDHS', boards: run(numbers.suitMajor, range(1, 20)) },

  'numbering: 1-based, then 0-based, ace high, a rank missing, back': {
    boards: [
      ...run(flat(numbered(1)), range(1, 4)),
      ...run(flat(numbered(0)), range(5, 7)),
      ...run(flat(numbered(1)), range(8, 9)),
      ...run(flat((c) => ({ rank: c.rank === 0 ? 14 : c.rank + 1, suit: WORDS[c.suit] })), range(10, 11)),
      // kings as 0 beside 1 … 12: the 13 values 0 … 12, read as 0-based (a wrong board, never fitted)
      ...run(flat((c) => ({ rank: c.rank === 12 ? 0 : c.rank + 1, suit: WORDS[c.suit] })), range(12, 13)),
      // one ace as 14: 14 values
      changed(flat(numbered(1)), 14, (cards) => void (cards.find((c) => c.rank === 1).rank = 14)),
      // every ace as "A" among numbers: letters beside 2 … 13
      changed(flat(numbered(1)), 15, (cards) => cards.forEach((c) => c.rank === 1 && (c.rank = 'A'))),
      // one king as the text "13"
      changed(flat(numbered(1)), 16, (cards) => void (cards.find((c) => c.rank === 13).rank = '13')),
      // a rank as a float, as true
      changed(flat(numbered(1)), 17, (cards) => void (cards[3].rank += 0.5)),
      changed(flat(numbered(1)), 18, (cards) => void (cards[4].rank = true)),
      ...run(flat(numbered(1)), range(19, 21)),
      // one card by its name, one by a name field, among numbers 1 … 13: letters beside 11 … 13
      changed(flat(numbered(1)), 22, (cards) => void (cards[0] = name(deal(22)[0]))),
      changed(flat(numbered(1)), 23, (cards) => void (cards[0].id = name(deal(23)[0]))),
      // clubs as "C" on one board, as 4 on the next: the suits 1 … 4 then say base 1
      changed(flat(numbered(1)), 24, (cards) => cards.map((c) => ({ rank: c.rank, suit: c.suit === 'clubs' ? 'C' : c.suit }))),
      ...run(flat(numbered(1)), range(25, 26)),
    ],
  },
  'numbering: letters, then digits beside letters, then 1-based texts': {
    boards: [
      ...run(rows(letters), range(1, 3)),
      ...run(rows(faceValues), range(4, 6)),
      ...run(rows(digits), range(7, 9)),
      ...run(rows(letters), range(10, 12)),
      // a 0 beside letters, an 11 beside letters
      changed(rows(letters), 13, (board) => void (board[0][0] = { rank: 0, suit: 'C' })),
      changed(rows(faceValues), 14, (board) => void (board.flat().find((c) => c.rank === 'J').rank = 11)),
      ...run(rows(faceValues), range(15, 16)),
    ],
  },
  'numbering: suits stated, then 1 … 4, then a 5th value': {
    suits: 'SHDC',
    boards: [
      ...run(numbers.enumSuits, range(1, 3)),
      ...run(rows((c) => ({ rank: c.rank + 1, suit: 4 - c.suit })), range(4, 6)),
      changed(numbers.enumSuits, 7, (board) => void (board[0][0].suit = 4)),
      ...run(numbers.enumSuits, range(8, 10)),
      // clubs (3 in SHDC) as 'C' on one card: 5 readings for 4 suits, learnt from no more
      changed(numbers.enumSuits, 11, (board) => void (board.flat().find((c) => c.suit === 3).suit = 'C')),
      // then spades as 'S', hearts … clubs as 1 … 3: base 0 says 1 is hearts
      ...run(rows((c) => ({ rank: c.rank + 1, suit: c.suit === 3 ? 'S' : 3 - c.suit })), range(12, 13)),
      ...run(numbers.enumSuits, range(14, 15)),
      // suits 1 … 4 (base 1) with some clubs as 'C' (5 readings for 4 suits), then every club as
      // 'C' beside 1 … 3: base 0, where 3 is clubs too
      ...run(rows((c) => ({ rank: c.rank + 1, suit: c.suit === 0 && c.rank % 2 ? 'C' : 4 - c.suit })), range(16, 17)),
      ...run(rows((c) => ({ rank: c.rank + 1, suit: c.suit === 0 ? 'C' : 4 - c.suit })), range(18, 19)),
    ],
  },
  'numbering: card numbers 0-based, then 1-based, then 53 values': {
    cards: 'rank-major',
    suits: 'CDHS',
    boards: [
      ...run(flat((c) => c.rank * 4 + c.suit), range(1, 3)),
      ...run(flat((c) => c.rank * 4 + c.suit + 1), range(4, 6)),
      changed(flat((c) => c.rank * 4 + c.suit), 7, (cards) => void (cards[0] = 52)),
      changed(flat((c) => c.rank * 4 + c.suit), 8, (cards) => void (cards[0] = 2.5)),
      ...run(flat((c) => c.rank * 4 + c.suit), range(9, 10)),
    ],
  },
  'fields: one missing, one added, a name field, a number id, other field names': {
    boards: [
      ...run(rows(letters), range(1, 3)),
      changed(rows(letters), 4, (board) => void delete board[2][3].suit),
      changed(rows(letters), 5, (board) => void (board[1][1].id = name(deal(5)[9]))),
      changed(rows(letters), 6, (board) => void (board[1][1].id = 'QQ')),
      changed(rows(letters), 7, (board) => board.map((row) => row.map((c, j) => ({ ...c, id: j })))),
      changed(rows(letters), 8, (board) => void (board[0][2] = { value: board[0][2].rank, suit: board[0][2].suit })),
      changed(rows(letters), 9, (board) => void (board[0][2] = { face: board[0][2].rank, suite: board[0][2].suit })),
      changed(rows(letters), 10, (board) => void (board[0][2] = { rank: board[0][2].rank, suit: board[0][2].suit, value: 3 })),
      changed(rows(letters), 11, (board) => void (board[6][3] = { rank: { name: board[6][3].rank }, suit: board[6][3].suit })),
      changed(rows(letters), 12, (board) => void (board[6][3] = Object.create({ rank: board[6][3].rank, suit: board[6][3].suit }))),
      changed(rows(letters), 13, (board) => void (board[6][3] = name(deal(13)[51]))),
      changed(rows(letters), 14, (board) => void (board[6][3] = { rank: 'q', suit: 'hearts' })),
      changed(rows(letters), 15, (board) => void (board[6][3].toString = () => 'AS')),
      changed(rows(letters), 16, (board) => board.map((row) => row.map((c, j) => (j % 2 ? { face: c.rank, suite: c.suit } : c)))),
      ...run(rows(letters), range(17, 19)),
    ],
  },
  'cards: repeated, extra, too few, not cards': {
    boards: [
      ...run(flat(letters), range(1, 3)),
      changed(flat(letters), 4, (cards) => void (cards[1] = { ...cards[0] })),
      changed(flat(letters), 5, (cards) => void cards.push({ rank: 'A', suit: 'S' })),
      changed(flat(letters), 6, (cards) => void cards.pop()),
      changed(flat(letters), 7, (cards) => void (cards[9] = null)),
      changed(flat(letters), 8, (cards) => void (cards[9] = 'KS')),
      changed(rows(letters), 9, (board) => void board[0].push(board[6].pop())),
      changed(rows(letters), 10, (board) => void (board[3] = new Set(board[3]))),
      changed(rows(letters), 11, (board) => [...board, []]),
      changed(rows(letters), 12, (board) => [board.flat()]),
      changed(rows(letters), 13, (board) => board.map((row) => row.map((c) => c.rank + c.suit).join(' '))),
      ...run(flat(letters), range(14, 15)),
    ],
  },
  'shapes mixed: rows, columns, 52, one group, game states, iterables, text': {
    boards: [
      ...run(rows(letters), range(1, 2)),
      ...run(columns(letters), range(3, 4)),
      ...run(flat(letters), range(5, 6)),
      () => [flat(letters)(7)],
      () => ({ cascades: columns(letters)(8), freecells: [null, null, null, null], foundations: [[], [], [], []] }),
      () => ({ tableau: new Map(columns(letters)(9).map((col, k) => [k, col])) }),
      () => flat(letters)(10)[Symbol.iterator](),
      () => ({ game: { board: rows(letters)(11) } }),
      () => ({ cascades: () => 'a method', tableau: rows(letters)(12) }),
      () => ({ cascades: null, stacks: columns(letters)(13) }),
      () => rows(name)(14).map((row) => row.join(' ')).join('\n'),
      () => ({ toString: () => rows(name)(15).map((row) => row.join(' ')).join('\n') }),
      () => rows(letters)(16).map((row) => ({ cards: row })),
      () => rows(letters)(17).map((row) => new Set(row)),
      ...run(rows(letters), range(18, 19)),
      ...run(newGame, range(20, 21)),
      ...run(rows(name), range(22, 23)),
      ...run(rows(tens), range(24, 25)),
      ...run(generator.dealFreeCell, range(26, 27)),
      ...run(rows(letters), range(28, 29)),
    ],
  },
  'game states: then a card in a free cell, in a foundation, nested deep': {
    boards: [
      ...run(newGame, range(1, 3)),
      changed(newGame, 4, (state) => void (state.freecells[2] = state.tableau[0].pop())),
      changed(newGame, 5, (state) => void (state.foundations = [[], [{ rank: 1, suit: 'hearts' }], [], []])),
      changed(newGame, 6, (state) => void (state.freecells = new Set([null, 'AS']))),
      changed(newGame, 7, (state) => void (state.foundations = 0)),
      changed(newGame, 8, (state) => ({ a: { b: { c: { d: { e: { f: { tableau: state.tableau } } } } } } })),
      changed(newGame, 9, (state) => ({ a: { b: { c: { tableau: state.tableau } } } })),
      changed(newGame, 10, (state) => ({ ...state, homeCells: [[{ rank: 1, suit: 'hearts' }]] })),
      ...run(newGame, range(11, 13)),
    ],
  },
  'generators: one yields too many, one of objects after one of names, one repeated': {
    boards: [
      ...run(generator.dealFreeCell, range(1, 3)),
      () =>
        (function* () {
          yield* generator.dealFreeCell(4);
          for (let k = 0; k < 20; k++) yield 'AS';
        })(),
      () =>
        (function* () {
          yield* deal(5).map(letters);
        })(),
      () => {
        const once = generator.dealFreeCell(6);
        return [once, once, once, once, once, once, once];
      },
      () => {
        const cols = columns(name)(7).map((col) => col[Symbol.iterator]());
        return { piles: cols, cells: new Set(), foundation: [].values() };
      },
      () => ({ cascades: columns(name)(8), freecells: (function* () { yield null; yield null; })() }),
      ...run(generator.dealFreeCell, range(9, 10)),
      () => new Set(cardsOf(rows(name)(11))),
    ],
  },
  // The learnt layout's reader, board by board: a game state, piles holding cards, iterables,
  // name fields, rank and suit values of another type than learnt; where a board differs, the full
  // reader must go on from that very step, reading nothing a second time.
  // Boards that fail keep the learnt layout: they come first after a run of the learnt shape.
  'layouts: a game state: another holder first, a holder read as nothing, parts holding cards': {
    boards: [
      ...run(newGame, range(1, 3)),
      // `tableau` a getter: nothing the first time it is read, a board after; `columns` holds deal 5
      () => {
        let reads = 0;
        const tableau = newGame(4).tableau;
        return { get tableau() { return reads++ ? tableau : null; }, columns: newGame(5).tableau, freecells: [] };
      },
      ...run(newGame, range(6, 8)),
      // a column of 8, 9 columns, a foundation holding a card
      changed(newGame, 9, (state) => void state.tableau[0].push(state.tableau[7].pop())),
      changed(newGame, 10, (state) => void state.tableau.push([])),
      changed(newGame, 11, (state) => void (state.foundations[2] = [{ rank: 1, suit: 'hearts' }])),
      // free cells a getter: empty the first time they are read, not after
      () => {
        let reads = 0;
        return { tableau: newGame(12).tableau, get freecells() { return reads++ ? ['AS'] : [null, null]; } };
      },
      // another deal under `cascades`, which is looked for before `tableau`
      changed(newGame, 13, (state) => ({ cascades: newGame(14).tableau, ...state })),
      ...run(newGame, range(15, 16)),
      // the tableau a Map, a column a Set, 7 rows
      changed(newGame, 17, (state) => void (state.tableau = new Map(state.tableau.map((col, k) => [k, col])))),
      ...run(newGame, range(18, 19)),
      changed(newGame, 20, (state) => void (state.tableau[3] = new Set(state.tableau[3]))),
      ...run(newGame, range(21, 22)),
      () => ({ tableau: rows(numbered(1))(23), freecells: [null], foundations: [] }),
      ...run(newGame, range(24, 25)),
    ],
  },
  'layouts: piles holding their cards: as a Set, a bare array, none, 8 of them, a getter': {
    boards: [
      ...run(piles.dealFreeCell, range(1, 3)),
      changed(piles.dealFreeCell, 4, (state) => void delete state.piles[1].cards),
      changed(piles.dealFreeCell, 5, (state) => void state.piles[0].cards.push(state.piles[7].cards.pop())),
      // a pile's cards a getter: its cards the first time they are read, none after
      changed(piles.dealFreeCell, 6, (state) => {
        const cards = state.piles[4].cards;
        let reads = 0;
        Object.defineProperty(state.piles[4], 'cards', { get: () => (reads++ ? [] : cards) });
      }),
      changed(piles.dealFreeCell, 7, (state) => void (state.piles[2].cards = new Set(state.piles[2].cards))),
      ...run(piles.dealFreeCell, range(8, 9)),
      changed(piles.dealFreeCell, 10, (state) => void (state.piles[5] = state.piles[5].cards)),
      ...run(piles.dealFreeCell, range(11, 12)),
    ],
  },
  'layouts: iterables: 51 and 53 cards, a Set, an array, a holder field beside an iterator': {
    boards: [
      ...run(generator.dealFreeCell, range(1, 3)),
      () =>
        (function* () {
          yield* [...generator.dealFreeCell(4)].slice(0, 51);
        })(),
      () =>
        (function* () {
          yield* generator.dealFreeCell(5);
          yield 'AS';
        })(),
      () => new Set(cardsOf(rows(name)(6))),
      () => cardsOf(rows(tens)(7)),
      () => ({ [Symbol.iterator]: () => generator.dealFreeCell(8), cascades: null }),
      ...run(generator.dealFreeCell, range(9, 10)),
    ],
  },
  'layouts: name fields: a getter, a number id beside a code, a code naming another card': {
    boards: [
      ...run(named.dealFreeCell, range(1, 3)),
      // an id getter: no card the first time it is read, the ace of spades after
      changed(named.dealFreeCell, 4, (cards) => {
        let reads = 0;
        Object.defineProperty(cards[5], 'id', { get: () => (reads++ ? 'AS' : 'junk') });
      }),
      changed(named.dealFreeCell, 5, (cards) => void (cards[7] = { id: 99, code: cards[7].id })),
      changed(named.dealFreeCell, 6, (cards) => void (cards[8] = { code: cards[8].id, id: cards[9].id })),
      ...run(named.dealFreeCell, range(7, 8)),
    ],
  },
  "layouts: values of another type than learnt: symbols, words, a word in a learnt word's place": {
    boards: [
      ...run(rows(letters), range(1, 3)),
      changed(rows(letters), 4, (board) => void (board[2][2].suit = '♣♦♥♠'[SUITS.indexOf(board[2][2].suit)])),
      changed(rows(letters), 5, (board) => void (board[0][0].suit = WORDS[SUITS.indexOf(board[0][0].suit)])),
      changed(rows(letters), 6, (board) => void (board[1][3].suit = 'coins')),
      ...run(rows(words), range(7, 9)),
      // 'coins' and 'clubs': the same first letter and length
      changed(rows(words), 10, (board) => void (board[0][1].suit = 'coins')),
      changed(rows(words), 11, (board) => void (board[0][1].rank = 'Q')),
      changed(rows(words), 12, (board) => void (board[5][5].rank = 12)),
      // a rank getter: 12 the first time it is read (a number among words), the right word after
      changed(rows(words), 13, (board) => {
        const card = board[3][3];
        let reads = 0;
        board[3][3] = { get rank() { return reads++ ? card.rank : 12; }, suit: card.suit };
      }),
      ...run(rows(words), range(14, 15)),
    ],
  },
  // A learnt reader compares a suit with the learnt board's spellings (ours) first.
  'layouts: suits as the learnt spellings: another spelling, a computed text, a swapped suit': {
    boards: [
      ...run(columns(numbered(1)), range(1, 3)),
      // one suit capitalised (a spelling of ours the learnt board did not use), one as 'club'
      changed(columns(numbered(1)), 4, (board) => void (board[0][0].suit = capitalised(board[0][0].suit))),
      changed(columns(numbered(1)), 5, (board) => void (board[7][5].suit = board[7][5].suit.slice(0, -1))),
      // a suit's word made at run time (not the literal's text), one with a space after it
      changed(columns(numbered(1)), 6, (board) => void (board[1][1].suit = [...board[1][1].suit].join(''))),
      changed(columns(numbered(1)), 7, (board) => void (board[2][2].suit += ' ')),
      // hearts as spades on one card: a card twice, one missing
      changed(columns(numbered(1)), 8, (board) => void (board[3][3].suit = board[3][3].suit === 'hearts' ? 'spades' : 'hearts')),
      // every suit capitalised, then both spellings on one board, then back
      ...run(columns((c) => ({ rank: c.rank + 1, suit: capitalised(WORDS[c.suit]) })), range(9, 11)),
      ...run(columns((c) => ({ rank: c.rank + 1, suit: c.rank % 2 ? WORDS[c.suit] : capitalised(WORDS[c.suit]) })), range(12, 14)),
      changed(columns(numbered(1)), 15, (board) => void (board[4][4].suit = 'Coins')),
      ...run(columns(numbered(1)), range(16, 18)),
      // suits as letters after words, then a word among letters
      ...run(columns(letters), range(19, 21)),
      changed(columns(letters), 22, (board) => void (board[5][2].suit = WORDS[SUITS.indexOf(board[5][2].suit)])),
      ...run(columns(numbered(1)), range(23, 24)),
    ],
  },
  'board text: rows as printed, and texts near them': {
    boards: [
      ...run(printedRows, range(1, 2)),
      () => printedRows(3) + '\n',
      () => printedRows(4).toLowerCase(),
      () => printedRows(5).replace(/\n/g, '\r\n'),
      () => printedRows(6).replace(' ', '  ').slice(0, 155),
      () => printedRows(7).replace(' ', ','),
      () => printedRows(8).replace(' ', '-'),
      () => printedRows(9).replace(' ', '\t'),
      () => printedRows(10).replace('\n', ' ').replace(' ', '\n'),
      () => printedRows(11).slice(0, 152) + printedRows(11).slice(0, 2),
      () => printedRows(12) + '\n\n',
      () => rows(tens)(13).map((row) => row.join(' ')).join('\n'),
      () => printedRows(14).replace(/T/g, '1'),
      ...run(printedRows, range(15, 16)),
    ],
  },
  'getters: a value that changes from one read to the next, a throwing getter, a text form': {
    boards: [
      ...run(rows(letters), range(1, 3)),
      // each card's rank a getter: the right rank the first time it is read, 'Z' after
      ...range(4, 6).map((n) =>
        changed(rows(letters), n, (board) =>
          board.map((row) =>
            row.map((c) => {
              let reads = 0;
              return { get rank() { return reads++ === 0 ? c.rank : 'Z'; }, suit: c.suit };
            }),
          ),
        ),
      ),
      // a rank that reads as 0-based on this board's every other card: 13 values no longer
      changed(flat(numbered(1)), 7, (cards) =>
        cards.map((c, k) => {
          let reads = 0;
          return { get rank() { return k % 2 && reads++ ? c.rank - 1 : c.rank; }, suit: c.suit };
        }),
      ),
      changed(rows(letters), 8, (board) => {
        board[5][5] = { get rank() { throw new Error('no rank'); }, suit: 'C' };
      }),
      ...run(toString.rowsOfCards, range(9, 10)),
      changed(toString.rowsOfCards, 11, (board) => void (board[2][2].toString = () => 'Joker')),
      ...run(toString.rowsOfCards, range(12, 13)),
      ...run(named.dealFreeCell, range(14, 15)),
      changed(named.dealFreeCell, 16, (cards) => void (cards[0].id = 7)),
      changed(named.dealFreeCell, 17, (cards) => void (cards[0].id = 'J of hearts')),
      ...run(named.dealFreeCell, range(18, 19)),
    ],
  },
};
