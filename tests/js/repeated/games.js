// What games return for a deal, each from deck.js's mistyped deck: card objects in columns, rows
// or one list, with fields of other names, inside a game state, as numbers, names, text forms, a
// generator, board text.
'use strict';
const { Card, newDeck, shuffle, deal } = require('./deck');

const RANKS = 'A23456789TJQK';
const SUIT_WORDS = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };
const SYMBOLS = { C: '♣', D: '♦', H: '♥', S: '♠' };
const value = (card) => RANKS.indexOf(card.rank) + 1; // 1 = ace … 13 = king

const inRows = (cards) => {
  const rows = [[], [], [], [], [], [], []];
  cards.forEach((card, i) => rows[Math.floor(i / 8)].push(card));
  return rows;
};

// 8 columns of { rank: 'K', suit: 'S' }.
const columns = (n) => deal(n);

// 7 rows of { value: 13, suit: 'spades' }.
const rowsOfValues = (n) => inRows(shuffle(n, newDeck()).map((c) => ({ value: value(c), suit: SUIT_WORDS[c.suit] })));

// The 52 cards in the order dealt.
const dealt = (n) => shuffle(n, newDeck());

// Fields no reader knows by name: { number: 1 … 13, kind: 'S' }, in columns.
const numberKind = (n) => deal(n).map((column) => column.map((c) => ({ number: value(c), kind: c.suit })));

// A game whose tableau is in a field of its own name, beside empty free cells and foundations.
class Game {
  constructor(n) {
    this.tableauPiles = deal(n);
    this.freeCellSlots = [null, null, null, null];
    this.foundationPiles = [[], [], [], []];
    this.moves = [];
  }
}

// Cards as numbers rank × 4 + suit, in a typed array (read with --cards rank-major --suits CDHS).
const cardNumbers = (n) => Uint8Array.from(shuffle(n, newDeck()), (c) => RANKS.indexOf(c.rank) * 4 + 'CDHS'.indexOf(c.suit));

// Rows of card names, ten written 10.
const names = (n) => inRows(shuffle(n, newDeck()).map((c) => (c.rank === 'T' ? '10' : c.rank) + c.suit));

// Card objects known only by their text form, 'K♠'.
class ShownCard {
  #card;
  constructor(card) {
    this.#card = card;
  }
  toString() {
    return (this.#card.rank === 'T' ? '10' : this.#card.rank) + SYMBOLS[this.#card.suit];
  }
}
const shownCards = (n) => inRows(shuffle(n, newDeck()).map((c) => new ShownCard(c)));

// A generator of the 52 cards.
function* dealing(n) {
  yield* shuffle(n, newDeck());
}

// The bug planted from deal 4 on only, after boards dealt right: a reader that has learnt from
// them how the game's boards are laid out reads this one too.
const rightDeck = () => [...RANKS].flatMap((rank) => [...'CDHS'].map((suit) => new Card(rank + suit)));
const columnsFromDeal4 = (n) => (n < 4 ? deal(n, rightDeck()) : deal(n));

// The board as text, a row a line.
const printed = (n) => inRows(dealt(n)).map((row) => row.map((c) => c.rank + c.suit).join(' ')).join('\n');

module.exports = { columns, rowsOfValues, dealt, numberKind, Game, cardNumbers, names, shownCards, dealing, columnsFromDeal4, printed };
