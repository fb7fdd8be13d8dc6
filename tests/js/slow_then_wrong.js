// Slow up to deal 10000 (200 ms each, busy: Node itself is stuck), wrong at deal 10001.
function dealFreeCell(n) {
  if (n <= 10000) {
    const until = Date.now() + 200;
    while (Date.now() < until) {}
  }
  const rows = correct(n);
  if (n === 10001) [rows[1][2], rows[1][3]] = [rows[1][3], rows[1][2]];
  return rows;
}
