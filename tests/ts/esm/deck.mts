// NodeNext style: imports name the emitted .mjs file; a default export, a namespace import.
import * as random from './rng.mjs';
import type { Board } from './types.mjs';

type Suit = 'C' | 'D' | 'H' | 'S';
const SUITS: readonly Suit[] = ['C', 'D', 'H', 'S'] as const;
const RANKS = 'A23456789TJQK' as const;

export default function deal(n: number): Board {
  const deck: string[] = [];
  for (const rank of RANKS) for (const suit of SUITS) deck.push(rank + suit);
  const rand = random.msRand(n);
  const order: string[] = [];
  while (deck.length) {
    const k = rand.next().value % deck.length;
    [deck[k], deck[deck.length - 1]] = [deck[deck.length - 1], deck[k]];
    order.push(deck.pop()!);
  }
  const rows: string[][] = [];
  for (let i = 0; i < 52; i += 8) rows.push(order.slice(i, i + 8));
  return rows;
}
