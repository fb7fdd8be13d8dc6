/*! A bundle in the style webpack builds for a React app: its runtime reads process.env.NODE_ENV
 * as it loads, and so do the modules inside it. */
(function (modules) {
  var cache = {};
  function __webpack_require__(id) {
    if (cache[id]) return cache[id].exports;
    var module = (cache[id] = { exports: {} });
    modules[id].call(module.exports, module, module.exports, __webpack_require__);
    return module.exports;
  }
  if (process.env.NODE_ENV !== 'production') {
    console.warn('You are running a development build.');
  }
  module.exports = __webpack_require__('./src/index.js');
})({
  './src/deal.js': function (module, exports) {
    'use strict';
    var DEBUG = process.env.NODE_ENV === 'development' || !!process.env.DEBUG;
    function order(n) {
      var deck = [];
      for (var i = 0; i < 52; i++) deck.push('A23456789TJQK'[i >> 2] + 'CDHS'[i & 3]);
      var out = [];
      var s = n;
      for (var left = 52; left > 0; left--) {
        s = (Math.imul(214013, s) + 2531011) & 0x7fffffff;
        var k = (s >> 16) % left;
        var t = deck[k];
        deck[k] = deck[left - 1];
        deck[left - 1] = t;
        out.push(deck.pop());
      }
      if (DEBUG) console.log('dealt', n);
      return out;
    }
    exports.order = order;
  },
  './src/index.js': function (module, exports, __webpack_require__) {
    'use strict';
    var deal = __webpack_require__('./src/deal.js');
    exports.dealFreeCell = function (n) {
      var cards = deal.order(n);
      return [0, 8, 16, 24, 32, 40, 48].map(function (i) {
        return cards.slice(i, i + 8);
      });
    };
  },
});
