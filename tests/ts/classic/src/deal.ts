import { Deck } from '@engine/Deck';
import type { Dealt, Row } from '@models';
import type { Card } from '@components/Card';

interface Options {
  width: number;
}

const DEFAULTS: Options = { width: 8 };

export class FreeCellGame {
  readonly columns: Card[][];

  constructor(readonly deal: number, options: Partial<Options> = {}) {
    const { width } = { ...DEFAULTS, ...options };
    this.columns = Array.from({ length: width }, () => [] as Card[]);
    Deck.forDeal(deal)
      .dealOrder()
      .forEach((card, i) => this.columns[i % width].push(card));
  }

  snapshot(): Dealt {
    return { deal: this.deal, columns: this.columns.map((c) => c.map(String)) };
  }
}

export function dealCodes(deal: number): Row[] {
  const rows: string[][] = [];
  const { columns } = new FreeCellGame(deal).snapshot();
  for (let r = 0; r < 7; r++) rows.push(columns.map((c) => c[r]).filter((x): x is string => x !== undefined));
  return rows;
}
