// Declarations only: no JavaScript behind them.
export type Board = string[][];
