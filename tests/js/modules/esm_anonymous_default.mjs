// An ES module whose default export is an anonymous function, named with #default.
import { rows } from './lib/deck.js';

export const helper = (n) => n;

export default function (n) {
  return rows(n);
}
