// Game objects that keep their board under names of their own, beside the whole deck in its
// unshuffled order (a field of 52 cards that is not the deal), and cards whose rank and suit
// fields have other names (`value` 1 … 13, `kind` 0 … 3).
'use strict';
const { deal } = require('./deal');

const RANKS = 'A23456789TJQK';
const SUITS = 'CDHS';

class Card {
  constructor(rank, suit) {
    this.rank = RANKS[rank];
    this.suit = SUITS[suit];
  }
}

// allCards first, suit by suit as a deck is printed; the deal in tableauPiles, 8 columns.
class Game {
  constructor(n) {
    this.allCards = [];
    for (let s = 0; s < 4; s++) for (let r = 0; r < 13; r++) this.allCards.push(new Card(r, s));
    this.tableauPiles = Array.from({ length: 8 }, () => []);
    deal(n).forEach((c, p) => this.tableauPiles[p % 8].push(new Card(c.rank, c.suit)));
    this.freeCellSlots = [null, null, null, null];
    this.moveCount = 0;
  }
}

// Only 52-card fields: the unshuffled deck (rank by rank) and the dealing order.
function flatDeal(n) {
  const sorted = [];
  for (let r = 0; r < 13; r++) for (let s = 0; s < 4; s++) sorted.push(RANKS[r] + SUITS[s]);
  return { sortedDeck: sorted, dealOrder: deal(n).map((c) => RANKS[c.rank] + SUITS[c.suit]), seed: n };
}

// Cards as { value: 1 … 13, kind: 0 … 3 } in rows: bare-number suits (--suits needed).
function valueKind(n) {
  const rows = Array.from({ length: 7 }, () => []);
  deal(n).forEach((c, p) => rows[Math.floor(p / 8)].push({ kind: c.suit, value: c.rank + 1 }));
  return rows;
}

// Cards as { value: 1 … 13, kind: 'C' … } : letters say the suit.
function valueKindLetters(n) {
  return deal(n).map((c) => ({ kind: SUITS[c.suit], value: c.rank + 1 }));
}

// Card names as some C and Java games print them, value first: ' 1s' (the ace), '11d' (the jack).
function valueFirst(n) {
  const rows = Array.from({ length: 7 }, () => []);
  deal(n).forEach((c, p) => rows[Math.floor(p / 8)].push(`${String(c.rank + 1).padStart(2)}${'cdhs'[c.suit]}`));
  return rows;
}

module.exports = { Game, newGame: (n) => new Game(n), flatDeal, valueKind, valueKindLetters, valueFirst };
