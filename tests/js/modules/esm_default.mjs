// An ES module whose dealer is its default export, returning board text with 10 for ten.
import { text } from './lib/layout.mjs';

export default function (n) {
  return text(n);
}
