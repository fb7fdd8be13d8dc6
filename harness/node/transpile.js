'use strict';
// freecell-harness: TypeScript sources to JavaScript with TypeScript's own transpileModule, for
// harness/node/typescript.py.  Runs no dealer code: it parses text and prints text.  Started
// under Node's permission model, reading only this file and the typescript package.
//   stdin:  {"typescript": "<package dir>", "files": [{"name", "text", "commonjs", "options"}]}
//   stdout: {"files": [{"code", "map", "errors": [{"line", "message"}]}]}   (in the same order)
const fs = require('fs');
const path = require('path');

const request = JSON.parse(fs.readFileSync(0, 'utf8'));
const ts = require(path.join(request.typescript, 'lib', 'typescript.js'));

const files = request.files.map((file) => {
  const compilerOptions = {
    ...file.options,
    target: ts.ScriptTarget.ES2022,
    module: file.commonjs ? ts.ModuleKind.CommonJS : ts.ModuleKind.ESNext,
    esModuleInterop: true,
    sourceMap: true,
    inlineSourceMap: false,
    removeComments: true,
    isolatedModules: true,
    importHelpers: false,
    noEmitHelpers: false,
  };
  const out = ts.transpileModule(file.text, { compilerOptions, fileName: file.name, reportDiagnostics: true });
  const errors = (out.diagnostics || [])
    .filter((d) => d.category === ts.DiagnosticCategory.Error)
    .map((d) => ({
      line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : null,
      message: ts.flattenDiagnosticMessageText(d.messageText, ' '),
    }));
  return { code: out.outputText, map: out.sourceMapText || '', errors };
});
fs.writeSync(1, JSON.stringify({ version: ts.version, files }));
