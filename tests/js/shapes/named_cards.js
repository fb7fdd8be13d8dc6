// Cards as records with a card-name field beside rank and suit (a card-name field is preferred),
// dealt as one list of 52; ranks are values with the ace high (2 … 14).
const { deal } = require('./deal');

function dealFreeCell(n) {
  return deal(n).map((c) => ({
    id: 'A23456789TJQK'[c.rank] + '♣♦♥♠'[c.suit],
    value: c.rank === 0 ? 14 : c.rank + 1,
    suit: '♣♦♥♠'[c.suit],
  }));
}

module.exports = { dealFreeCell };
