// Returns a Promise of 52 cards.
const { order } = require('./lib/deck');
async function dealFreeCell(n) {
  return order(n);
}
module.exports = { dealFreeCell };
