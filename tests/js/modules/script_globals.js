// A plain script: globals, no modules.
var ROWS = 7;
function dealFreeCell(n) {
  var cards = [];
  var deck = [];
  for (var i = 0; i < 52; i++) deck.push('A23456789TJQK'[i >> 2] + 'CDHS'[i & 3]);
  var s = n;
  for (var left = 52; left > 0; left--) {
    s = (Math.imul(214013, s) + 2531011) & 0x7fffffff;
    var k = (s >> 16) % left;
    var t = deck[k]; deck[k] = deck[left - 1]; deck[left - 1] = t;
    cards.push(deck.pop());
  }
  var rows = [];
  for (var r = 0; r < ROWS; r++) rows.push(cards.slice(r * 8, r * 8 + 8));
  return rows;
}
