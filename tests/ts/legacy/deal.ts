// An older TypeScript style in a .ts file: import = require, export =, a class decorator
// (experimentalDecorators), a class field under ES5 semantics, a string continued with a backslash.
import names = require('./names.json');

const BANNER = 'FreeCell \
deals';

function sealed<T extends new (...args: any[]) => object>(ctor: T): T {
  Object.seal(ctor.prototype);
  return ctor;
}

@sealed
class Dealer {
  dealt = 0;

  constructor(
    private readonly ranks: string,
    private readonly suits: string,
  ) {}

  order(n: number): string[] {
    this.dealt++;
    const deck: string[] = [];
    for (let i = 0; i < 52; i++) deck.push(this.ranks[i >> 2] + this.suits[i & 3]);
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

const dealer = new Dealer(names.RANKS, names.SUITS);

export = {
  banner: BANNER,
  dealFreeCell(n: number): string[][] | null {
    if (BANNER !== 'FreeCell deals') return null;
    const cards = dealer.order(n);
    return [0, 8, 16, 24, 32, 40, 48].map((i) => cards.slice(i, i + 8));
  },
};
