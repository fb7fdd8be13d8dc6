// Compiles and runs, but defines no dealFreeCell.
const dealFreecell = (n) => n;
