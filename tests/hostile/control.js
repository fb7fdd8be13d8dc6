// Correct, except that deal 3 throws an error whose text sets the terminal's title, clears it and rings.
function dealFreeCell(n) {
  if (n === 3) {
    console.error("\x1b]0;owned\x07\x1b[2J");
    throw new Error("deal \x1b[31m3\x1b[0m\x07 is \x9b2J cursed");
  }
  return correct(n);
}
