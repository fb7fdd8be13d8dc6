// A playing card, as a UI component library would model it.
export enum Suit {
  Clubs = 'C',
  Diamonds = 'D',
  Hearts = 'H',
  Spades = 'S',
}

export enum Rank {
  Ace = 1,
  Two,
  Three,
  Four,
  Five,
  Six,
  Seven,
  Eight,
  Nine,
  Ten,
  Jack,
  Queen,
  King,
}

const RANK_LETTERS: Record<Rank, string> = {
  [Rank.Ace]: 'A', [Rank.Two]: '2', [Rank.Three]: '3', [Rank.Four]: '4', [Rank.Five]: '5',
  [Rank.Six]: '6', [Rank.Seven]: '7', [Rank.Eight]: '8', [Rank.Nine]: '9', [Rank.Ten]: 'T',
  [Rank.Jack]: 'J', [Rank.Queen]: 'Q', [Rank.King]: 'K',
};

export class Card {
  constructor(
    public readonly rank: Rank,
    public readonly suit: Suit,
  ) {}

  get code(): string {
    return `${RANK_LETTERS[this.rank]}${this.suit}`;
  }

  toString(): string {
    return this.code;
  }
}
