// A FreeCell game class: `new FreeCellGame(seed)` holds the deal under `cascades`, each card an
// instance with a `face` and a one-letter suit, and private state behind getters.
const { deal } = require('./deal');

class PlayingCard {
  #face;
  #suit;
  constructor(face, suit) {
    this.#face = face;
    this.#suit = suit;
  }
  get face() {
    return this.#face;
  }
  get suit() {
    return this.#suit;
  }
}

class FreeCellGame {
  constructor(seed) {
    this.seed = seed;
    this.cascades = Array.from({ length: 8 }, () => []);
    deal(seed).forEach((c, p) => this.cascades[p % 8].push(new PlayingCard('A23456789TJQK'[c.rank], 'CDHS'[c.suit])));
    this.freeCells = new Array(4).fill(null);
    this.foundations = { clubs: [], diamonds: [], hearts: [], spades: [] };
  }
  isWon() {
    return false;
  }
}

module.exports = FreeCellGame;
