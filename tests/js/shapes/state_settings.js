// Game states that keep their settings beside the cards: the table's dimensions (rows: 7,
// columns: 8), the number of free cells and a layout's name.  Numbers, flags and short names are
// no board and no cards in a free cell; an emptied stock is no board either.
const { deal } = require('./deal');

const names = (n) => deal(n).map((c) => 'A23456789TJQK'[c.rank] + 'CDHS'[c.suit]);

function withDimensions(n) {
  return { rows: 7, columns: 8, cards: names(n), foundations: [[], [], [], []] };
}

function withCounts(n) {
  const cascades = Array.from({ length: 8 }, () => []);
  names(n).forEach((card, p) => cascades[p % 8].push(card));
  return { layout: 'freecell', cells: 4, freeCells: [null, null, null, null], foundation: 0, cascades: cascades, deck: true };
}

// A Deck iterable over the cards it dealt, whose stock (`cards`) the dealing emptied.
class Deck {
  constructor(n) {
    this.cards = names(n).reverse();
    this.dealt = [];
    while (this.cards.length) this.dealt.push(this.cards.pop());
  }

  *[Symbol.iterator]() {
    yield* this.dealt;
  }
}

module.exports = { withDimensions, withCounts, shuffled: (n) => new Deck(n) };
