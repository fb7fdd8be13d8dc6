// An object of methods that call each other through `this` (the style before classes), exported
// whole; the dealer is named with #deal.
var FreeCell = {
  RANKS: 'A23456789TJQK',
  SUITS: 'CDHS',
  seed: 0,
  rand: function () {
    this.seed = (this.seed * 214013 + 2531011) & 0x7fffffff;
    return this.seed >> 16;
  },
  deal: function (n) {
    var deck = [];
    var out = [];
    for (var i = 0; i < 52; i++) deck.push(this.RANKS[i >> 2] + this.SUITS[i & 3]);
    this.seed = n;
    for (var left = 52; left > 0; left--) {
      var k = this.rand() % left;
      var t = deck[k];
      deck[k] = deck[left - 1];
      deck[left - 1] = t;
      out.push(deck.pop());
    }
    return out;
  },
};
module.exports = FreeCell;
