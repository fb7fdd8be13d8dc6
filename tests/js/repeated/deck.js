// A small FreeCell game's deck and deal: the 52 cards typed out in the order Microsoft's deal
// takes them (aces, twos … kings, each in clubs, diamonds, hearts, spades), made into card
// objects, shuffled with the C runtime's rand() and dealt out one card to a column in turn.
//
// The bug planted: one card is mistyped.  The king of diamonds is typed 'KS', so that the king
// of spades is in the deck twice and the king of diamonds not at all (tests/test_node_repeated.py).
'use strict';

const TYPED = [
  'AC', 'AD', 'AH', 'AS',
  '2C', '2D', '2H', '2S',
  '3C', '3D', '3H', '3S',
  '4C', '4D', '4H', '4S',
  '5C', '5D', '5H', '5S',
  '6C', '6D', '6H', '6S',
  '7C', '7D', '7H', '7S',
  '8C', '8D', '8H', '8S',
  '9C', '9D', '9H', '9S',
  'TC', 'TD', 'TH', 'TS',
  'JC', 'JD', 'JH', 'JS',
  'QC', 'QD', 'QH', 'QS',
  'KC', 'KS', 'KH', 'KS',
];

class Card {
  constructor(name) {
    this.rank = name[0]; // 'A', '2' … '9', 'T', 'J', 'Q', 'K'
    this.suit = name[1]; // 'C', 'D', 'H', 'S'
  }
}

const newDeck = () => TYPED.map((name) => new Card(name));

function msRand(seed) {
  let state = seed;
  return () => {
    state = (Math.imul(214013, state) + 2531011) & 0x7fffffff;
    return state >> 16;
  };
}

// The deck's cards in the order they are dealt: the i-th goes to column i % 8.
function shuffle(n, deck) {
  const rand = msRand(n);
  const left = deck.slice();
  const dealt = [];
  while (left.length > 0) {
    const k = rand() % left.length;
    dealt.push(left[k]);
    left[k] = left[left.length - 1];
    left.pop();
  }
  return dealt;
}

// The tableau: 8 columns, each from the top card down.
function deal(n, deck = newDeck()) {
  const columns = [[], [], [], [], [], [], [], []];
  shuffle(n, deck).forEach((card, i) => columns[i % 8].push(card));
  return columns;
}

module.exports = { Card, newDeck, shuffle, deal };
