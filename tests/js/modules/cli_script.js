#!/usr/bin/env node
// A command-line script: it deals the game its argument names (game 1 without one) and writes it
// to stdout as it loads, flushing with a callback; the harness calls its dealFreeCell.
'use strict';
function dealFreeCell(seed) {
  const deck = [];
  for (let i = 0; i < 52; i++) deck.push('A23456789TJQK'[i >> 2] + 'CDHS'[i & 3]);
  let s = seed;
  const out = [];
  for (let left = 52; left > 0; left--) {
    s = (s * 214013 + 2531011) & 0x7fffffff;
    const k = (s >> 16) % left;
    [deck[k], deck[left - 1]] = [deck[left - 1], deck[k]];
    out.push(deck.pop());
  }
  return out;
}

const game = parseInt(process.argv[2], 10) || 1;
const cards = dealFreeCell(game);
if (process.stdout.isTTY) process.stdout.write(`\x1b[1mGame #${game}\x1b[0m\n`);
for (let i = 0; i < 52; i += 8) process.stdout.write(cards.slice(i, i + 8).join(' ') + '\n');
process.stdout.write('', () => process.stderr.write('done\n'));
