// A generator of 52 card names, ten written 10 and suits as symbols.
const { deal } = require('./deal');

const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];

function* dealFreeCell(n) {
  for (const c of deal(n)) yield RANKS[c.rank] + '♣♦♥♠'[c.suit];
}

module.exports = { dealFreeCell };
