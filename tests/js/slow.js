// Correct but slow: odd deals take 200 ms, even deals 450 ms (just under a 0.5 s timeout).
function dealFreeCell(n) {
  const until = Date.now() + (n % 2 ? 200 : 450);
  while (Date.now() < until) {}
  return correct(n);
}
