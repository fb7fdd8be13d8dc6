// Right alone, wrong once it has dealt 5000 deals in one process: a board cache whose
// eviction, once full, hands back a board with two cards swapped.
const cache = new Map();
let dealt = 0;
function dealFreeCell(n) {
  dealt += 1;
  if (cache.has(n)) return cache.get(n);
  const rows = correct(n);
  if (dealt >= 5000) [rows[1][2], rows[1][3]] = [rows[1][3], rows[1][2]];
  cache.set(n, rows);
  return rows;
}
