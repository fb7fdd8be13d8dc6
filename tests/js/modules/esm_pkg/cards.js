// An ES module of the package (its package.json says "type": "module"): the deal as 7 rows.
const RANKS = 'A23456789TJQK';
const SUITS = 'CDHS';

export function order(n) {
  const deck = [];
  for (let i = 0; i < 52; i++) deck.push(RANKS[i >> 2] + SUITS[i & 3]);
  const out = [];
  let s = n;
  for (let left = 52; left > 0; left--) {
    s = (Math.imul(214013, s) + 2531011) & 0x7fffffff;
    const k = (s >> 16) % left;
    [deck[k], deck[left - 1]] = [deck[left - 1], deck[k]];
    out.push(deck.pop());
  }
  return out;
}

export const rows = (n) => {
  const cards = order(n);
  return [0, 8, 16, 24, 32, 40, 48].map((i) => cards.slice(i, i + 8));
};
