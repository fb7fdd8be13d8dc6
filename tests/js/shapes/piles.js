// Columns as Pile objects holding their cards, in a Set-free game state under `piles`; card
// ranks are words, suits one capital letter.
const { deal } = require('./deal');

const WORDS = ['ace', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'jack', 'queen', 'king'];

class Pile {
  constructor() {
    this.cards = [];
  }
}

function dealFreeCell(n) {
  const piles = Array.from({ length: 8 }, () => new Pile());
  deal(n).forEach((c, p) => piles[p % 8].cards.push({ rank: WORDS[c.rank], suit: 'CDHS'[c.suit] }));
  return { piles, cells: [], foundation: [] };
}

module.exports = { dealFreeCell, asSet: (n) => new Set(deal(n).map((c) => 'A23456789TJQK'[c.rank] + 'CDHS'[c.suit])) };
