// Globals modern Node and browser code uses without requiring anything: structuredClone to copy
// the fresh deck (and a Map of card images), queueMicrotask to defer, `global` for a shared
// registry, performance.now() to time a deal.
'use strict';
const FRESH = { cards: [], images: new Map(), made: new Date(0) };
for (let i = 0; i < 52; i++) {
  const name = 'A23456789TJQK'[i >> 2] + 'CDHS'[i & 3];
  FRESH.cards.push({ name, index: i });
  FRESH.images.set(name, `cards/${name}.svg`);
}
global.FreeCellRegistry = global.FreeCellRegistry || { dealt: 0 };

function dealFreeCell(seed) {
  const started = performance.now();
  const { cards, images } = structuredClone(FRESH);
  if (cards === FRESH.cards || images.get('AS') !== 'cards/AS.svg') return null;
  let s = seed;
  const out = [];
  for (let left = 52; left > 0; left--) {
    s = (Math.imul(214013, s) + 2531011) & 0x7fffffff;
    const k = (s >> 16) % left;
    [cards[k], cards[left - 1]] = [cards[left - 1], cards[k]];
    out.push(cards.pop().name);
  }
  return new Promise((resolve) =>
    queueMicrotask(() => {
      global.FreeCellRegistry.dealt++;
      resolve(performance.now() >= started ? out : null);
    }),
  );
}

module.exports = { dealFreeCell };
