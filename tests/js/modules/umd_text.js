// A UMD bundle (AMD, CommonJS or a browser global), whose dealer returns one line of text.
(function (root, factory) {
  if (typeof define === 'function' && define.amd) define([], factory);
  else if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.FreeCell = factory();
}(this, function () {
  var names = 'A23456789TJQK';
  function deal(n) {
    var deck = [], out = [], s = n;
    for (var i = 0; i < 52; i++) deck.push(names[i >> 2] + 'CDHS'[i & 3]);
    for (var left = 52; left > 0; left--) {
      s = (Math.imul(214013, s) + 2531011) & 0x7fffffff;
      var k = (s >> 16) % left, t = deck[k];
      deck[k] = deck[left - 1];
      deck[left - 1] = t;
      out.push(deck.pop());
    }
    return out.join(' ');
  }
  return { deal: deal };
}));
