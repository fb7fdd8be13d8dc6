// Does not parse: a type annotation with no type.
export interface Deal {
  n: number;
}

export function dealFreeCell(n: number): string[][] {
  const rows: = [];
  return rows;
}
