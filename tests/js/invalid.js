// Correct, except for a few deals whose output is not a board (see test_node_adapter.py).
function dealFreeCell(n) {
  const rows = correct(n);
  const flat = [].concat(...rows);
  switch (n) {
    case 1: return Array.from({ length: 8 }, (_, c) => flat.filter((_, p) => p % 8 === c));  // columns
    case 2: rows[3][5] = rows[0][0]; return rows;  // a card twice
    case 3: rows[2][2] = 7; return rows;  // not a string
    case 4: return rows.map((row) => row.map((card) => card.replace('T', '10')));  // '10' for ten
    case 5: return flat;  // no rows at all
    case 6: return undefined;
    case 9: rows[6].push('XX'); return rows;  // a short row grown
    default: return rows;
  }
}
