// `export =` of a class whose static method deals, merged with a namespace; an abstract base
// class with a protected constructor: named with #Deal.of.
abstract class Shuffler {
  protected constructor(protected state: number) {}
  abstract next(): number;
}

class MsRand extends Shuffler {
  constructor(seed: number) {
    super(seed);
  }

  next(): number {
    this.state = (this.state * 214013 + 2531011) % 2 ** 31;
    return Math.floor(this.state / 2 ** 16);
  }
}

class Deal {
  static of(seed: number): string[][] {
    const rng = new MsRand(seed);
    const deck = Deal.Cards.fresh();
    const rows: string[][] = Array.from({ length: 7 }, () => []);
    for (let p = 0; p < 52; p++) {
      const left = 52 - p;
      const k = rng.next() % left;
      [deck[k], deck[left - 1]] = [deck[left - 1], deck[k]];
      rows[Math.floor(p / 8)].push(deck.pop()!);
    }
    return rows;
  }
}

namespace Deal {
  export namespace Cards {
    export const fresh = (): string[] => [...'A23456789TJQK'].flatMap((r) => [...'CDHS'].map((s) => r + s));
  }
}

export = Deal;
