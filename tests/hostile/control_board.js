// Correct, except that deal 3's first card carries a terminal title and a bell.
function dealFreeCell(n) {
  const rows = correct(n);
  if (n === 3) rows[0][0] = "\x1b]0;owned\x07" + rows[0][0];
  return rows;
}
