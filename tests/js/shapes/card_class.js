// A game's Card class (ranks 1 … 13, suits as words) and a game state: the tableau as 8 columns,
// free cells and foundations empty.
const { deal } = require('./deal');

const SUITS = ['clubs', 'diamonds', 'hearts', 'spades'];

class Card {
  constructor(rank, suit) {
    this.rank = rank; // 1 = ace … 13 = king
    this.suit = suit;
    this.faceUp = true;
  }
}

function newGame(n) {
  const tableau = [[], [], [], [], [], [], [], []];
  deal(n).forEach((c, p) => tableau[p % 8].push(new Card(c.rank + 1, SUITS[c.suit])));
  return { tableau, freecells: [null, null, null, null], foundations: [[], [], [], []], moves: 0 };
}

module.exports = { newGame };
