// An ES module: a named export, importing a CommonJS module and an ES module.
import { rows } from './lib/deck.js';
import order, { columns } from './lib/layout.mjs';

export function dealFreeCell(n) {
  if (n % 2) return rows(n);
  if (n % 3) return columns(n);
  return order(n);
}
