import { RANKS, SUITS } from './cards';

// TypeScript 5 decorators (the standard ones: the emitted code starts with the compiler's helpers),
// an auto-accessor and `satisfies`; the decorated class is exported by an `export { … }` the
// compiler writes after it.
function validated<This, R>(method: (this: This, seed: number) => R, context: ClassMethodDecoratorContext<This>) {
  return function (this: This, seed: number): R {
    if (!Number.isSafeInteger(seed) || seed < 1) throw new RangeError(`${String(context.name)}: no deal ${seed}`);
    return method.call(this, seed);
  };
}

export class Dealer {
  accessor dealt = 0;

  @validated
  deal(seed: number): string[] {
    this.dealt++;
    const deck = RANKS.flatMap((rank) => SUITS.map((suit) => rank + suit));
    const out: string[] = [];
    let s = seed;
    for (let left = 52; left > 0; left--) {
      s = (Math.imul(214013, s) + 2531011) & 0x7fffffff;
      const k = (s >> 16) % left;
      [deck[k], deck[left - 1]] = [deck[left - 1], deck[k]];
      out.push(deck.pop()!);
    }
    return out;
  }
}

const dealer = new Dealer();

export const dealFreeCell = (seed: number) => dealer.deal(seed);
