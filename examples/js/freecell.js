// Microsoft FreeCell deals (classic dialect) as 8 columns, fc-solve style (": " before each column).
//   node freecell.js N    print deal N
//   node freecell.js      read deal numbers from stdin, one per line
"use strict";
const RANKS = "A23456789TJQK", SUITS = "CDHS";

function deal(n) {
  const deck = Array.from({ length: 52 }, (_, i) => i);
  const dealt = [];
  let state = n;
  for (let left = 52; left > 0; left--) {
    // 214013 * state < 2^53, so the product is exact in a double.
    state = (214013 * state + 2531011) % 2147483648;
    const k = Math.floor(state / 65536) % left;
    dealt.push(deck[k]);
    deck[k] = deck[left - 1];
  }
  const name = (c) => RANKS[Math.floor(c / 4)] + SUITS[c % 4];
  const columns = [];
  for (let c = 0; c < 8; c++) {
    const col = [];
    for (let p = c; p < 52; p += 8) col.push(name(dealt[p]));
    columns.push(": " + col.join(" "));
  }
  return columns.join("\n") + "\n";
}

function number(text) {
  const n = Number(text.trim());
  if (!Number.isInteger(n) || n < 1 || n > 2147483647) {
    process.stderr.write(`not a deal number (1 ... 2147483647): ${text}\n`);
    process.exit(2);
  }
  return n;
}

if (process.argv.length > 2) {
  process.stdout.write(deal(number(process.argv[2])));
} else {
  let pending = "";
  process.stdin.on("data", (chunk) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop();
    process.stdout.write(lines.filter((l) => l.trim()).map((l) => deal(number(l))).join(""));
  });
  process.stdin.on("end", () => {
    if (pending.trim()) process.stdout.write(deal(number(pending)));
  });
}
