// Classes compiled to ES5, as a game's built JavaScript has them: functions with methods on their
// prototype, to be called with `new`.  FreeCellGame as TypeScript writes it for target ES5 (a
// game state under `cascades`), Board as Babel does (its constructor refuses a call without new).
'use strict';
const { deal } = require('./deal');

var FreeCellGame = /** @class */ (function () {
  function FreeCellGame(seed) {
    this.seed = seed;
    this.cascades = [[], [], [], [], [], [], [], []];
    this.dealCards();
  }
  FreeCellGame.prototype.dealCards = function () {
    var _this = this;
    deal(this.seed).forEach(function (c, p) {
      _this.cascades[p % 8].push('A23456789TJQK'[c.rank] + 'CDHS'[c.suit]);
    });
  };
  return FreeCellGame;
})();

function _classCallCheck(a, n) {
  if (!(a instanceof n)) throw new TypeError('Cannot call a class as a function');
}
function _defineProperties(e, r) {
  for (var t = 0; t < r.length; t++) {
    var o = r[t];
    (o.enumerable = o.enumerable || !1), (o.configurable = !0), 'value' in o && (o.writable = !0), Object.defineProperty(e, o.key, o);
  }
}
function _createClass(e, r, t) {
  return r && _defineProperties(e.prototype, r), t && _defineProperties(e, t), Object.defineProperty(e, 'prototype', { writable: !1 }), e;
}
var Board = /*#__PURE__*/ (function () {
  function Board(seed) {
    _classCallCheck(this, Board);
    var cards = deal(seed).map(function (c) {
      return { rank: c.rank + 1, suit: ['clubs', 'diamonds', 'hearts', 'spades'][c.suit] };
    });
    this.rows = [];
    for (var r = 0; r < 52; r += 8) this.rows.push(cards.slice(r, r + 8));
  }
  return _createClass(Board, [
    {
      key: 'isSolved',
      value: function isSolved() {
        return false;
      },
    },
  ]);
})();

module.exports = { FreeCellGame: FreeCellGame, Board: Board };
