// An async dealer whose deal 3 resolves to rows whose first row is a getter that never returns:
// the harness reads the settled value after the deal's step, and must time that out too.
const { rows } = require('./lib/deck');
exports.dealFreeCell = async (n) => {
  const board = rows(n);
  if (n === 3) Object.defineProperty(board, 0, { get() { for (;;); } });
  return board;
};
