// `npm run lint`: the checks CI runs before the tests. Plain JavaScript: it runs before anything is compiled.
//  0. Formatting: Prettier's check over the tree (.prettierrc.json, 120 columns).
//  1. The type check of every source and test (tsc --noEmit), so a type error fails CI on its own line.
//  2. No new double casts: `as unknown as` (which silences the type checker entirely) may appear
//     only where scripts/cast-ledger.json already counts it, file by file; a new one fails naming
//     its line, and a file that dropped one is told to lower its count (the ledger only shrinks).
//  3. The size bounds (scripts/bounds.mjs): a line at most 120 characters in every .ts file; a file at
//     most 450 lines and a function at most 80 outside test/ and ui/test/. The first places over are
//     named; `--report` names every one.
//  4. The layers (scripts/layers.mjs): server -> app -> storage -> engine, no import the other way,
//     and no I/O module loaded by the engine.
//   node scripts/lint.mjs [--project DIR] [--no-types] [--report]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { boundsProblems } from './bounds.mjs';
import { sourceFiles } from './source-files.mjs';
import { layerProblems } from './layers.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--project');
const root = path.resolve(at >= 0 ? args[at + 1] : process.cwd());
const DOUBLE_CAST = /\bas unknown as\b/g;
/** Places over the size bounds named without --report. */
const SHOWN_PLACES = 20;
const LEDGER = path.join(root, 'scripts', 'cast-ledger.json');

/** Problems with double casts: new ones (file:line) and ledger counts that can come down. */
function castProblems() {
  const ledger = fs.existsSync(LEDGER) ? JSON.parse(fs.readFileSync(LEDGER, 'utf8')) : {};
  const failures = [];
  const lower = [];
  const seen = new Set();
  for (const file of sourceFiles(root)) {
    const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
    const hits = [];
    lines.forEach((line, i) => {
      for (const _ of line.matchAll(DOUBLE_CAST)) hits.push(i + 1);
    });
    const allowed = ledger[file] ?? 0;
    if (hits.length) seen.add(file);
    if (hits.length > allowed)
      failures.push(
        `${file}:${hits.join(',')}: ${hits.length} \`as unknown as\` (the ledger allows ${allowed}); type the value instead, or say why in a comment and raise scripts/cast-ledger.json in the same commit`,
      );
    else if (hits.length < allowed)
      lower.push(`${file}: ${hits.length} \`as unknown as\` now, the ledger says ${allowed}: lower it`);
  }
  for (const file of Object.keys(ledger))
    if (!seen.has(file) && !fs.existsSync(path.join(root, file)))
      lower.push(`${file}: gone, remove it from the ledger`);
  return { failures, lower };
}

let failed = false;
if (!args.includes('--no-types')) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', path.join(root, 'tsconfig.json')], {
    stdio: 'inherit',
  });
  if (r.status !== 0) {
    console.error('lint: the type check failed');
    failed = true;
  }
}
const prettier = createRequire(import.meta.url).resolve('prettier/bin/prettier.cjs');
const fmt = spawnSync(process.execPath, [prettier, '--check', '--log-level', 'warn', root], {
  stdio: 'inherit',
  cwd: root,
});
if (fmt.status !== 0) {
  console.error('lint: files above are not formatted (npm run format writes them)');
  failed = true;
}
const casts = castProblems();
for (const f of casts.failures) console.error(`lint: ${f}`);
for (const l of casts.lower) console.error(`lint: ${l}`);
if (casts.failures.length || casts.lower.length) failed = true;
const places = boundsProblems(root);
if (places.length) {
  const shown = args.includes('--report') ? places : places.slice(0, SHOWN_PLACES);
  for (const p of shown) console.error(`lint: ${p}`);
  const more = places.length - shown.length;
  console.error(
    `lint: ${places.length} place(s) over the size bounds` +
      (more ? ` (${more} more not shown: node scripts/lint.mjs --report names every one)` : ''),
  );
  failed = true;
}
const layers = layerProblems(root, sourceFiles(root));
for (const l of layers) console.error(`lint: ${l}`);
if (layers.length) failed = true;
if (!failed) console.log('lint: types, formatting, casts, size bounds and layers ok');
process.exit(failed ? 1 : 0);
