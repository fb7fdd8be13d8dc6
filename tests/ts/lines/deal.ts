// Types, blank lines and comments before the line that throws: the error names the .ts line.

/** What a deal is. */
export interface Deal {
  n: number;
  rows: string[][];
}

type Numbered = Pick<Deal, 'n'>;

abstract class Base {
  protected constructor(protected readonly limit: number) {}
}

class Checker extends Base {
  constructor() {
    super(0);
  }

  check(deal: Numbered): void {
    if (deal.n > this.limit) throw new RangeError(`deal ${deal.n} is not dealt here`);
  }
}

export function dealFreeCell(n: number): string[][] {
  new Checker().check({ n });
  return [];
}
