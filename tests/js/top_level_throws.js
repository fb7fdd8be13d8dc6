// Its top level throws while loading.
function dealFreeCell(n) { return n; }
undefinedHelper();
