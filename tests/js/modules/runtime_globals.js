// Globals modern Node and browser code uses without requiring anything: structuredClone to copy
// the fresh deck (and a Map of suit symbols), queueMicrotask to finish setting up after loading,
// `global` for a shared registry, performance.now() to time a deal.
'use strict';
const FRESH = { cards: [], symbols: new Map([['C', '♣'], ['D', '♦'], ['H', '♥'], ['S', '♠']]), made: new Date(0) };
for (let i = 0; i < 52; i++) FRESH.cards.push('A23456789TJQK'[i >> 2] + 'CDHS'[i & 3]);
global.FreeCellRegistry = global.FreeCellRegistry || { dealt: 0, ready: false };
queueMicrotask(() => {
  global.FreeCellRegistry.ready = true;
});

function dealFreeCell(seed) {
  const started = performance.now();
  const { cards, symbols } = structuredClone(FRESH);
  if (cards === FRESH.cards || symbols === FRESH.symbols || symbols.get('S') !== '♠') return null;
  let s = seed;
  const out = [];
  for (let left = 52; left > 0; left--) {
    s = (Math.imul(214013, s) + 2531011) & 0x7fffffff;
    const k = (s >> 16) % left;
    [cards[k], cards[left - 1]] = [cards[left - 1], cards[k]];
    out.push(cards.pop());
  }
  global.FreeCellRegistry.dealt++;
  return global.FreeCellRegistry.ready && performance.now() >= started ? out : null;
}

module.exports = { dealFreeCell };
