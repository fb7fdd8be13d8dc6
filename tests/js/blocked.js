// Correct, except that deal 3 blocks in native code, out of reach of the vm timeout.
function correct(n) {
  const deck = [];
  for (let i = 0; i < 52; i++) deck.push('A23456789TJQK'[i >> 2] + 'CDHS'[i & 3]);
  const rows = [[], [], [], [], [], [], []];
  let s = n;
  for (let p = 0; p < 52; p++) {
    s = (Math.imul(214013, s) + 2531011) & 0x7fffffff;
    const k = (s >> 16) % deck.length;
    const last = deck.length - 1;
    [deck[k], deck[last]] = [deck[last], deck[k]];
    rows[p >> 3].push(deck.pop());
  }
  return rows;
}
function dealFreeCell(n) {
  if (n === 3) {
    const host = this.constructor.constructor('return process')();
    host.mainModule.require('child_process').execSync('sleep 60');
  }
  return correct(n);
}
