// A TypeScript dealer with the classic slip: the suits in alphabetical order of their names
// ("Clubs, Diamonds, Hearts, Spades" is right; this deals Hearts before Diamonds).
enum Suit {
  Clubs = 'C',
  Hearts = 'H',
  Diamonds = 'D',
  Spades = 'S',
}

const SUITS = Object.values(Suit);

export function dealFreeCell(n: number): string[][] {
  const deck: string[] = [];
  for (const rank of 'A23456789TJQK') for (const suit of SUITS) deck.push(rank + suit);
  const out: string[] = [];
  let s = n;
  for (let left = 52; left > 0; left--) {
    s = (Math.imul(214013, s) + 2531011) & 0x7fffffff;
    const k = (s >> 16) % left;
    [deck[k], deck[left - 1]] = [deck[left - 1], deck[k]];
    out.push(deck.pop() as string);
  }
  return [0, 8, 16, 24, 32, 40, 48].map((i) => out.slice(i, i + 8));
}
