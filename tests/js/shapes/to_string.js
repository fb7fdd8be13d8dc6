// Card instances known by their text form ("Queen of Hearts"), in rows; and a board whose own
// text form prints the tableau.
const { deal } = require('./deal');

const NAMES = ['Ace', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Jack', 'Queen', 'King'];
const SUITS = ['Clubs', 'Diamonds', 'Hearts', 'Spades'];

class Card {
  constructor(c) {
    this.c = c;
  }
  toString() {
    return `${NAMES[this.c.rank]} of ${SUITS[this.c.suit]}`;
  }
}

function rowsOfCards(n) {
  const rows = [[], [], [], [], [], [], []];
  deal(n).forEach((c, p) => rows[p >> 3].push(new Card(c)));
  return rows;
}

class Board {
  constructor(n) {
    this.rows = null;
    this.lines = rowsOfCards(n).map((row) => row.map((card) => 'A23456789TJQK'[card.c.rank] + 'cdhs'[card.c.suit]).join(' '));
  }
  toString() {
    return this.lines.join('\n');
  }
}

module.exports = { rowsOfCards, printed: (n) => new Board(n) };
