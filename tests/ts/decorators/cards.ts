type Suit = 'C' | 'D' | 'H' | 'S';

export const SUITS = ['C', 'D', 'H', 'S'] satisfies Suit[];
export const RANKS = [...'A23456789TJQK'];
