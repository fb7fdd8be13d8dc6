import { Card, Rank, Suit } from '@components/Card';
import type { Shuffler } from '@models';
import { MsRandom } from './MsRandom';

const SUIT_ORDER: Suit[] = [Suit.Clubs, Suit.Diamonds, Suit.Hearts, Suit.Spades];

export class Deck {
  readonly #cards: Card[] = [];

  private constructor(private readonly rng: Shuffler) {
    for (let rank = Rank.Ace; rank <= Rank.King; rank++) {
      for (const suit of SUIT_ORDER) this.#cards.push(new Card(rank, suit));
    }
  }

  static forDeal(deal: number): Deck {
    return new Deck(new MsRandom(deal));
  }

  /** The cards in the order they are dealt onto the tableau. */
  dealOrder(): Card[] {
    const cards = [...this.#cards];
    const out: Card[] = [];
    while (cards.length) {
      const k = this.rng.next() % cards.length;
      [cards[k], cards[cards.length - 1]] = [cards[cards.length - 1], cards[k]];
      out.push(cards.pop() as Card);
    }
    return out;
  }
}
