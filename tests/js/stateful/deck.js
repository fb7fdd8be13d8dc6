// A dealer whose deck is a module-level array that each call appends to (104 cards at the second).
'use strict';
const deck = [];
function dealFreeCell(n) {
  for (const r of 'A23456789TJQK') for (const s of 'CDHS') deck.push(r + s);
  const cards = deck.slice();
  let state = n;
  const dealt = [];
  for (let left = cards.length; left > 0; left--) {
    state = (214013 * state + 2531011) % 2147483648;
    const k = Math.floor(state / 65536) % left;
    [cards[k], cards[left - 1]] = [cards[left - 1], cards[k]];
    dealt.push(cards.pop());
  }
  return dealt;
}
module.exports = { dealFreeCell };
