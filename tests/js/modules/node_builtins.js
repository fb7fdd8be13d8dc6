// A CommonJS game engine as Node code writes it: built-in modules for paths, formatting, events,
// checks, bytes and query strings, all used while it loads and while it deals.
'use strict';
const path = require('path');
const util = require('util');
const EventEmitter = require('events');
const assert = require('assert');
const { StringDecoder } = require('string_decoder');
const { Buffer } = require('buffer');
const url = require('url');
const querystring = require('querystring');
const deck = require('./lib/deck');

const NAME = path.basename(__filename, path.extname(__filename));
assert.strictEqual(NAME, 'node_builtins');
assert.strictEqual(path.join('a', '..', 'b', './c.js'), 'b/c.js');
assert.ok(url.pathToFileURL(__filename).href.startsWith('file://'));
assert.strictEqual(querystring.parse('deal=5&seed=x').deal, '5');

const decoder = new StringDecoder('utf8');
const RANKS = decoder.write(Buffer.from('A23456789TJQK', 'utf8')) + decoder.end();
const SUITS = Buffer.from('43444853', 'hex').toString('latin1');

function Table() {
  EventEmitter.call(this);
  this.dealt = 0;
}
util.inherits(Table, EventEmitter);

class Game extends Table {
  deal(n) {
    const cards = deck.order(n).map((card) => util.format('%s%s', RANKS[RANKS.indexOf(card[0])], SUITS[SUITS.indexOf(card[1])]));
    const rows = [];
    for (let i = 0; i < 52; i += 8) rows.push(cards.slice(i, i + 8));
    this.emit('dealt', n, rows);
    return rows;
  }
}

const game = new Game();
let last = null;
game.on('dealt', (n, rows) => {
  last = rows;
});

module.exports.dealFreeCell = (n) => {
  game.deal(n);
  assert.deepStrictEqual(last.length, 7, util.inspect(last));
  return last;
};
