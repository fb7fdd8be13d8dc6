// An ES module that awaits at its top level, as it sets its game up.
import { rows } from './lib/deck.js';

const settings = await Promise.resolve({ layout: 'rows' });

export function dealFreeCell(n) {
  return settings.layout === 'rows' ? rows(n) : null;
}
