// Correct, except that deal 3 hoards typed arrays, which live outside the V8 heap.
function dealFreeCell(n) {
  if (n === 3) {
    const hoard = [];
    for (;;) hoard.push(new Float64Array(1 << 22).fill(n));
  }
  return correct(n);
}
