// Correct, except that deal 7 throws and deal 8 recurses without end.
function dealFreeCell(n) {
  if (n === 7) throw new TypeError('no deal seven here');
  if (n === 8) return (function down(k) { return down(k + 1) + 1; })(0);
  return correct(n);
}
