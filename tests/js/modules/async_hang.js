// An async dealer whose deal 3 hangs after its first await.
const { rows } = require('./lib/deck');
exports.dealFreeCell = async (n) => {
  await null;
  if (n === 3) for (;;);
  return rows(n);
};
