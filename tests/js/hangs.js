// Correct, except that deal 3 never returns.
function dealFreeCell(n) {
  if (n === 3) for (;;) {}
  return correct(n);
}
