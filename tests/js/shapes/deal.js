// Microsoft's deal as a game's engine writes it: the deck (ace of clubs, diamonds, hearts, spades,
// then the twos …) shuffled by the C runtime's rand(); `deal(n)` is the order cards are dealt in,
// each as { rank: 0 … 12, suit: 0 … 3 } (suits clubs, diamonds, hearts, spades).
'use strict';

function* msRand(seed) {
  let state = seed;
  for (;;) {
    state = (Math.imul(214013, state) + 2531011) & 0x7fffffff;
    yield state >> 16;
  }
}

function deal(n) {
  const deck = [];
  for (let i = 0; i < 52; i++) deck.push({ rank: i >> 2, suit: i & 3 });
  const rand = msRand(n);
  const dealt = [];
  for (let left = 52; left > 0; left--) {
    const k = rand.next().value % left;
    [deck[k], deck[left - 1]] = [deck[left - 1], deck[k]];
    dealt.push(deck.pop());
  }
  return dealt;
}

module.exports = { deal };
