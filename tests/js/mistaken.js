// Test dealers that each make one known mistake (see tests/dealers/mistaken.py, their Python twin).
// The test helper appends `function dealFreeCell(n) { return dealWith(n, 'wraps'); }` (or another
// mistake).  Returns rows of 8, 8, 8, 8, 8, 8, 4 cards.
function dealWith(n, mistake) {
  let seed = n;
  if (mistake === 'wraps') seed = n & 0x7fffffff;
  if (mistake === 'truncated_16_bit') seed = (n << 16) >> 16;
  if (mistake === 'clamped') seed = Math.min(n, 32000);
  if (mistake === 'off_by_one') seed = n + 1;
  if (mistake === 'other_deal') seed = n + 1000;
  if (mistake === 'non_deterministic' && n > 32000) seed = 1 + Math.floor(Math.random() * 2147483646);
  const suits = mistake === 'suit_order' ? 'SHDC' : 'CDHS';
  const deck = [];
  for (const r of 'A23456789TJQK') for (const s of suits) deck.push(r + s);
  let state = seed;
  const next = () => {
    if (mistake === 'state_32_bits') {
      state = (Math.imul(214013, state) + 2531011) >>> 0;
      return state >>> 16;
    }
    state = (Math.imul(214013, state) + 2531011) & 0x7fffffff;
    if (mistake === 'unshifted') return state;
    return state >> 16;
  };
  const dealt = [];
  while (deck.length) {
    const left = deck.length;
    const r = next();
    const k = mistake === 'modulus' ? (left > 1 ? r % (left - 1) : 0) : r % left;
    [deck[k], deck[left - 1]] = [deck[left - 1], deck[k]];
    dealt.push(deck.pop());
  }
  if (mistake === 'swapped_cards' && n % 2 === 1) [dealt[10], dealt[11]] = [dealt[11], dealt[10]];
  if (mistake === 'reversed') dealt.reverse();
  if (mistake === 'transposed') {
    const columns = [7, 7, 7, 7, 6, 6, 6, 6].map((size) => dealt.splice(0, size));
    return [0, 1, 2, 3, 4, 5, 6].map((r) => columns.filter((c) => r < c.length).map((c) => c[r]));
  }
  const rows = [];
  for (let i = 0; i < 52; i += 8) rows.push(dealt.slice(i, i + 8));
  return rows;
}
