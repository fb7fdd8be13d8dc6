// CommonJS TypeScript: import = require, export =, a namespace.
import names = require('./names.json');

namespace FreeCell {
  export function order(n: number): string[] {
    const deck: string[] = [];
    for (let i = 0; i < 52; i++) deck.push(names.RANKS[i >> 2] + names.SUITS[i & 3]);
    const out: string[] = [];
    let s = n;
    for (let left = 52; left > 0; left--) {
      s = (Math.imul(214013, s) + 2531011) & 0x7fffffff;
      const k = (s >> 16) % left;
      [deck[k], deck[left - 1]] = [deck[left - 1], deck[k]];
      out.push(deck.pop() as string);
    }
    return out;
  }
}

export = {
  dealFreeCell(n: number): string {
    return FreeCell.order(n).join(' ');
  },
};
