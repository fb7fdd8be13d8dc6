// Reads every board of every run (runs.js) two ways, and prints each board's outcomes as JSON:
// `fast`, as a driver reads a dealer's answers one after another (readRows, then read, by one
// reader that has read the run's boards before it); `full`, by a reader made afresh for that board
// alone, board text read without the fast way for rows as printed (rowsText); and `readFast`,
// whether the first was read the fast way (by readRows, or with all 52 cards read straight to
// their code).
//
//     node compare.js ANSWERS_JS RUNS_JS  →  { "run": [{ "fast": [...], "full": [...], "readFast": bool }, …], … }
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const [answersFile, runsFile] = process.argv.slice(2);
const source = fs.readFileSync(answersFile, 'utf8');
const answers = new vm.Script(source, { filename: 'answers.js' });
// The full reader reads board text without its fast way for rows as printed most often.
const ROWS_TEXT = 'const line = rowsText(text);';
if (source.split(ROWS_TEXT).length !== 2) throw new Error(`answers.js has no one "${ROWS_TEXT}" to switch off`);
const fullAnswers = new vm.Script(source.replace(ROWS_TEXT, 'const line = null;'), { filename: 'answers.js' });
const runs = require(path.resolve(runsFile));

const reader = (run, script) => {
  const r = script.runInThisContext();
  r.configure(run.cards || null, run.suits || null);
  return r;
};
const outcome = (got) =>
  typeof got === 'string' ? ['line', got] : got.text !== undefined ? ['text', got.text] : got.refused !== undefined ? ['refused', got.refused] : ['invalid', got.invalid];
const threw = (err) => ['threw', err instanceof Error ? err.message : String(err)];

const out = {};
for (const [name, run] of Object.entries(runs)) {
  const fast = reader(run, answers);
  out[name] = run.boards.map((board) => {
    let first;
    let readFast = false;
    try {
      const line = fast.readRows(board());
      first = line !== null ? ['line', line] : null;
      readFast = line !== null;
    } catch (err) {
      first = threw(err);
    }
    if (first === null) {
      try {
        first = outcome(fast.read(board()));
        readFast = fast.hits() === 52;
      } catch (err) {
        first = threw(err);
      }
    }
    let full;
    try {
      full = outcome(reader(run, fullAnswers).read(board()));
    } catch (err) {
      full = threw(err);
    }
    return { fast: first, full, readFast };
  });
}
process.stdout.write(JSON.stringify(out));
