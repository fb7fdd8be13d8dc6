// A CommonJS module whose export is the dealing function itself, named with #default.
'use strict';
const { rows } = require('./lib/deck');

module.exports = function (n) {
  return rows(n);
};
