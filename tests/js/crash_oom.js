// Correct, except that deal 5 allocates until the V8 heap is exhausted (a fatal error).
function dealFreeCell(n) {
  if (n === 5) {
    const hoard = [];
    for (;;) hoard.push(new Array(1 << 16).fill(n));
  }
  return correct(n);
}
