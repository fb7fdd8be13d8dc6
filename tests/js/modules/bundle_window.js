// A web game's bundle: it starts the game when it loads.
var Game = { deal: function (n) { return n; } };
window.addEventListener('load', function () {
  Game.deal(1);
});
