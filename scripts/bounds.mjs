// Size bounds every source file keeps (#35): a file at most 450 lines, a function at most 80, a line at
// most 120 characters. Plain JavaScript over TypeScript's own parser, so it runs before anything is built.
//   node scripts/bounds.mjs [--project DIR]      prints every place over a bound, exits 1 if any
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

export const BOUNDS = { fileLines: 450, functionLines: 80, lineChars: 120 };

/** Places over a bound in one file's text: [{ line, what }]. */
export function overBounds(file, text, ts) {
  const out = [];
  const lines = text.split('\n');
  if (lines.length > BOUNDS.fileLines)
    out.push({ line: 1, what: `file of ${lines.length} lines (at most ${BOUNDS.fileLines})` });
  lines.forEach((l, i) => {
    if (l.length > BOUNDS.lineChars)
      out.push({ line: i + 1, what: `line of ${l.length} characters (at most ${BOUNDS.lineChars})` });
  });
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.end).line;
      const n = end - start + 1;
      if (n > BOUNDS.functionLines)
        out.push({
          line: start + 1,
          what: `function ${functionName(node, ts)} of ${n} lines (at most ${BOUNDS.functionLines})`,
        });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function functionName(node, ts) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name))
    return parent.name.text;
  return '(anonymous)';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--project');
  const root = path.resolve(at >= 0 ? args[at + 1] : process.cwd());
  const ts = createRequire(path.join(root, 'package.json'))('typescript');
  const { sourceFiles } = await import('./source-files.mjs');
  let n = 0;
  for (const file of sourceFiles(root)) {
    for (const o of overBounds(file, fs.readFileSync(path.join(root, file), 'utf8'), ts)) {
      console.log(`${file}:${o.line}: ${o.what}`);
      n++;
    }
  }
  console.log(`bounds: ${n} place(s) over`);
  process.exit(n ? 1 : 0);
}
