// An ES module importing built-ins by their `node:` names, as current Node code does.
import path from 'node:path';
import { EventEmitter, once } from 'node:events';
import { format, promisify } from 'node:util';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Buffer } from 'node:buffer';
import { rows } from './lib/deck.js';

const here = path.dirname(fileURLToPath(import.meta.url));
assert.equal(path.basename(here), 'modules');

const bus = new EventEmitter();
const dealAfter = promisify((n, done) => done(null, rows(n)));

export async function dealFreeCell(n) {
  const got = once(bus, 'deal');
  bus.emit('deal', n);
  const [m] = await got;
  const board = await dealAfter(m);
  assert.equal(format('%d cards', board.flat().length), '52 cards');
  return board.map((row) => row.map((card) => Buffer.from(card).toString()));
}
