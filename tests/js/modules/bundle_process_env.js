// A bundle configured from the environment when it loads.
const settings = { debug: false };
settings.debug = process.env.DEBUG === '1';
exports.dealFreeCell = (n) => n;
