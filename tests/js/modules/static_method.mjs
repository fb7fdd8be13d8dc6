// A dealer that is a static method of an exported class, using `this` for the class's other
// statics: named with #FreeCell.deal.
export class FreeCell {
  static RANKS = 'A23456789TJQK';
  static SUITS = 'CDHS';

  static deck() {
    return Array.from({ length: 52 }, (_, i) => this.RANKS[i >> 2] + this.SUITS[i & 3]);
  }

  static deal(seed) {
    const deck = this.deck();
    let s = seed >>> 0;
    const out = [];
    for (let left = 52; left > 0; left--) {
      s = (Math.imul(s, 214013) + 2531011) >>> 0;
      const k = ((s >>> 16) & 0x7fff) % left;
      [deck[k], deck[left - 1]] = [deck[left - 1], deck[k]];
      out.push(deck.pop());
    }
    const rows = [];
    while (out.length) rows.push(out.splice(0, 8));
    return rows;
  }
}
