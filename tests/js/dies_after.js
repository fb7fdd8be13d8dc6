// Correct alone, but it counts what it has dealt, and every process dies (the V8 heap exhausted,
// a fatal error) at its twentieth deal, whatever that deal is.
let dealt = 0;
function dealFreeCell(n) {
  dealt += 1;
  if (dealt === 20) {
    const hoard = [];
    for (;;) hoard.push(new Array(1 << 16).fill(n));
  }
  return correct(n);
}
