// An ES module by its package.json ("type": "module"), async, found with #dealGame.
import * as deck from './cards.js';

export async function dealGame(n) {
  await null;
  return deck.rows(n);
}
