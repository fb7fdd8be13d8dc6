// CommonJS: the module is the function.
const { rows } = require('./lib/deck.js');
module.exports = function deal(n) {
  return rows(n);
};
