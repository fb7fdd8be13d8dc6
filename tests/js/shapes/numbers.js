// Encodings that do not say what they mean: suits as enum numbers (as TypeScript compiles a numeric
// enum, here in spades-hearts-diamonds-clubs order), and cards as numbers 0 … 51 in a typed array.
const { deal } = require('./deal');

var Suit;
(function (Suit) {
  Suit[(Suit['Spades'] = 0)] = 'Spades';
  Suit[(Suit['Hearts'] = 1)] = 'Hearts';
  Suit[(Suit['Diamonds'] = 2)] = 'Diamonds';
  Suit[(Suit['Clubs'] = 3)] = 'Clubs';
})(Suit || (Suit = {}));
const FROM_CDHS = [Suit.Clubs, Suit.Diamonds, Suit.Hearts, Suit.Spades];

function enumSuits(n) {
  const rows = [[], [], [], [], [], [], []];
  deal(n).forEach((c, p) => rows[p >> 3].push({ rank: c.rank + 1, suit: FROM_CDHS[c.suit] }));
  return rows;
}

// rank-major with suits in spades-hearts-diamonds-clubs order: card = rank * 4 + suit.
function cardNumbers(n) {
  return Uint8Array.from(deal(n), (c) => c.rank * 4 + FROM_CDHS[c.suit]);
}

// suit-major, 1-based: card = suit * 13 + rank + 1 (clubs, diamonds, hearts, spades).
function suitMajor(n) {
  return deal(n).map((c) => c.suit * 13 + c.rank + 1);
}

module.exports = { enumSuits, cardNumbers, suitMajor };
