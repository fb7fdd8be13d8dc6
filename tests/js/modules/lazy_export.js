// A module whose export is a getter that throws until the game is set up (init() was never called).
let game = null;
exports.init = () => {
  game = { deal: (n) => n };
};
Object.defineProperty(exports, 'dealFreeCell', {
  enumerable: true,
  get() {
    if (game === null) throw new Error('FreeCell: call init() first');
    return game.deal;
  },
});
