// An ES module whose default export is an object of functions, one of them the dealer, using `this`.
import { order } from './lib/deck.js';

export default {
  width: 8,
  dealFreeCell(seed) {
    const cards = order(seed);
    const rows = [];
    for (let i = 0; i < 52; i += this.width) rows.push(cards.slice(i, i + this.width));
    return rows;
  },
};
