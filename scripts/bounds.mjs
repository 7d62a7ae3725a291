// Size bounds (#35): a line at most 120 characters in every .ts file, tests included; a file at most 450
// lines and a function at most 80 in source (every .ts file not under test/ or ui/test/). Plain
// JavaScript over TypeScript's own parser, so it runs before anything is built; `npm run lint` runs it.
//   node scripts/bounds.mjs [--project DIR]      prints every place over a bound, exits 1 if any
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { sourceFiles } from './source-files.mjs';

export const BOUNDS = { fileLines: 450, functionLines: 80, lineChars: 120 };

/** Tests may hold long files and functions (a table of cases, a scenario); their lines are bounded too. */
export const isTest = (file) => /^(ui\/)?test\//.test(file);

/** Places over a bound in one file's text (`file` relative to the root, forward slashes): [{ line, what }]. */
export function overBounds(file, text, ts) {
  const out = [];
  const lines = text.split('\n');
  const source = !isTest(file);
  if (source && lines.length > BOUNDS.fileLines)
    out.push({ line: 1, what: `file of ${lines.length} lines (at most ${BOUNDS.fileLines})` });
  lines.forEach((l, i) => {
    if (l.length > BOUNDS.lineChars)
      out.push({ line: i + 1, what: `line of ${l.length} characters (at most ${BOUNDS.lineChars})` });
  });
  if (source) out.push(...longFunctions(file, text, ts));
  return out.sort((x, y) => x.line - y.line);
}

/** Functions (declarations, methods, arrows) over the bound, by the lines from their start to their end. */
function longFunctions(file, text, ts) {
  const out = [];
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

/** Every place over a bound under the project at `root`, as `file:line: what`. */
export function boundsProblems(root) {
  // TypeScript from this script's own install, so a project without node_modules (a test's) is measured too.
  const ts = createRequire(import.meta.url)('typescript');
  const out = [];
  for (const file of sourceFiles(root))
    for (const o of overBounds(file, fs.readFileSync(path.join(root, file), 'utf8'), ts))
      out.push(`${file}:${o.line}: ${o.what}`);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--project');
  const root = path.resolve(at >= 0 ? args[at + 1] : process.cwd());
  const places = boundsProblems(root);
  for (const p of places) console.log(p);
  console.log(`bounds: ${places.length} place(s) over`);
  process.exit(places.length ? 1 : 0);
}
