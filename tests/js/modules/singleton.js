// A module whose export is one instance of its dealer class: the method uses `this`, as it does
// when the game calls dealer.dealFreeCell(n).
'use strict';
class FreeCellDealer {
  constructor() {
    this.ranks = 'A23456789TJQK';
    this.suits = 'CDHS';
  }

  fresh() {
    const deck = [];
    for (let i = 0; i < 52; i++) deck.push(this.ranks[i >> 2] + this.suits[i & 3]);
    return deck;
  }

  dealFreeCell(seed) {
    const deck = this.fresh();
    let s = seed;
    const out = [];
    for (let left = 52; left > 0; left--) {
      s = (s * 214013 + 2531011) & 0x7fffffff;
      const k = (s >> 16) % left;
      [deck[k], deck[left - 1]] = [deck[left - 1], deck[k]];
      out.push(deck.pop());
    }
    return out;
  }
}

module.exports = new FreeCellDealer();
