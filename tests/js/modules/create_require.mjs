// An ES module reading JSON and CommonJS through createRequire(import.meta.url).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { RANKS, SUITS } = require('./lib/names.json');
const deck = require('./lib/deck');

export function dealFreeCell(n) {
  const board = deck.rows(n);
  for (const row of board) for (const card of row) if (!RANKS.includes(card[0]) || !SUITS.includes(card[1])) return null;
  return board;
}
