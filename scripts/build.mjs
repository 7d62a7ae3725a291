// Compiles the TypeScript sources to dist/ (tsc -p tsconfig.json), bundles the web UI (ui/main.ts ->
// dist/ui-bundle/app.js and its chunks with esbuild, when the project has one) and leaves a stamp there.
// `--if-stale`: compiles only when a source is newer than the stamp, so `npm start` and the other
// scripts start at once on a current build. `--clean`: removes the output folder first, so nothing
// compiled from a deleted or renamed source (an old test's copy) is left to run. Plain JavaScript:
// it runs before anything is compiled.
//   node scripts/build.mjs [--if-stale | --clean] [--project DIR]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const args = process.argv.slice(2);
const ifStale = args.includes('--if-stale');
const clean = args.includes('--clean');
const at = args.indexOf('--project');
const root = path.resolve(at >= 0 ? args[at + 1] : process.cwd());
const config = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.json'), 'utf8'));
const outDir = path.join(root, config.compilerOptions?.outDir ?? 'dist');
const stamp = path.join(outDir, '.build-stamp');

/** The folders the build reads: the first segment of each `include` pattern. */
const sourceDirs = [...new Set((config.include ?? []).map((p) => p.split('/')[0]))].map((d) => path.join(root, d));

/** The newest change under the sources: files and folders (a deleted or renamed file changes its folder's time). */
function newest(dir, best = { ms: 0, file: '' }) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return best;
  }
  const own = fs.statSync(dir).mtimeMs;
  if (own > best.ms) best = { ms: own, file: dir };
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) best = newest(p, best);
    else if (e.name.endsWith('.ts')) {
      const ms = fs.statSync(p).mtimeMs;
      if (ms > best.ms) best = { ms, file: p };
    }
  }
  return best;
}

function staleBecause() {
  let built;
  try {
    built = fs.statSync(stamp).mtimeMs;
  } catch {
    return 'no build yet';
  }
  let src = { ms: 0, file: '' };
  for (const f of ['tsconfig.json', 'package-lock.json']) {
    try {
      const ms = fs.statSync(path.join(root, f)).mtimeMs;
      if (ms > src.ms) src = { ms, file: path.join(root, f) };
    } catch {
      /* absent */
    }
  }
  for (const d of sourceDirs) src = newest(d, src);
  return src.ms > built ? `${path.relative(root, src.file) || '.'} changed` : null;
}

const why = ifStale ? staleBecause() : 'asked';
if (why === null) process.exit(0);
if (ifStale) console.error(`build: compiling (${why})`);
// The stamp takes the time the compile started: a source saved during it counts as newer.
const started = new Date();
if (clean) fs.rmSync(outDir, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.json')], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
const ui = path.join(root, 'ui', 'main.ts');
if (fs.existsSync(ui)) {
  const esbuild = createRequire(import.meta.url).resolve('esbuild/bin/esbuild');
  // Split: what only some pages use (the import preview's CSV and YAML parsers) is a chunk loaded when asked.
  // The folder is emptied first so chunks of an older build do not pile up.
  fs.rmSync(path.join(outDir, 'ui-bundle'), { recursive: true, force: true });
  const b = spawnSync(
    esbuild,
    [
      ui,
      '--bundle',
      '--format=esm',
      '--target=es2022',
      '--minify',
      '--sourcemap',
      '--splitting',
      `--outdir=${path.join(outDir, 'ui-bundle')}`,
      '--entry-names=app',
      '--chunk-names=chunk-[hash]',
      '--log-level=warning',
    ],
    { stdio: 'inherit' },
  );
  if (b.status !== 0) process.exit(b.status ?? 1);
}
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(stamp, `${started.toISOString()}\n`);
fs.utimesSync(stamp, started, started);
