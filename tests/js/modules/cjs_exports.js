// CommonJS: module.exports with a dealer that uses a relative module.
const deck = require('./lib/deck');

function dealFreeCell(n) {
  return deck.rows(n);
}

module.exports = { dealFreeCell };

if (require.main === module) {
  console.log(dealFreeCell(Number(process.argv[2] || 1)));
}
