// An ES module library: boards in other shapes than rows.
import { order } from './deck.js';

export const columns = (n) => {
  const cards = order(n);
  return Array.from({ length: 8 }, (_, c) => cards.filter((_, p) => p % 8 === c));
};

export function text(n) {
  const rows = [0, 8, 16, 24, 32, 40, 48].map((i) => order(n).slice(i, i + 8));
  return rows.map((row) => row.map((card) => card.replace('T', '10')).join(' ')).join('\n') + '\n';
}

export default order;
