// An ES module that does not compile.
export function dealFreeCell(n) {
  return [n,, n) ;
}
