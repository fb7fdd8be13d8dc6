// Shapes shared by the game: types only, nothing at run time.
export interface Dealt {
  deal: number;
  columns: string[][];
}

export type Row = readonly string[];

export interface Shuffler {
  next(): number;
}
