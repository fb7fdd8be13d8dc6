// CommonJS: exports.x, found with #dealGame.
const { rows } = require('./lib/deck');
exports.dealGame = (n) => rows(n);
exports.version = '1.0';
