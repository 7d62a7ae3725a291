// `npm run lint` (scripts/lint.mjs): a new double cast fails naming its line; the ledger of the
// ones there are only shrinks; a place over the size bounds fails naming it. Checked on a small
// project of its own (the type check left out).
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoPath } from '../support/paths.js';

const ROOT = repoPath('');
const LINT = path.join(ROOT, 'scripts/lint.mjs');
/** The project's Prettier settings, so the small project is checked as the tree is (JSON left alone). */
const copyPrettierConfig = (dir: string) => {
  for (const f of ['.prettierrc.json', '.prettierignore']) fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
};
/** Spelled apart, so this file holds none itself. */
const CAST = ['as', 'unknown', 'as'].join(' ');

type Write = (rel: string, text: string) => void;

/**
 * A small project in a folder of its own that lint runs on: made (the Prettier settings copied,
 * then `setup`) before each test, or once before all of them, and removed after.
 */
function lintProject(prefix: string, when: 'each' | 'once', setup: (write: Write) => void) {
  let dir = '';
  const lint = (...more: string[]) =>
    spawnSync(process.execPath, [LINT, '--no-types', '--project', dir, ...more], { encoding: 'utf8' });
  const write: Write = (rel, text) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  (when === 'each' ? beforeEach : before)(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    copyPrettierConfig(dir);
    setup(write);
  });
  (when === 'each' ? afterEach : after)(() => fs.rmSync(dir, { recursive: true, force: true }));
  return { lint, write };
}

describe('lint: double casts are counted against a ledger', function () {
  this.timeout(30000);
  const { lint, write } = lintProject('netinv-lint-', 'once', (write) => {
    write('tsconfig.json', JSON.stringify({ include: ['src/**/*.ts'] }));
    write('scripts/cast-ledger.json', JSON.stringify({ 'src/old.ts': 1 }));
    write('src/old.ts', `export const x = 1 ${CAST} string; // known\n`);
    write('src/clean.ts', 'export const y: number = 2;\n');
  });

  it('passes with the casts the ledger counts', () => {
    const r = lint();
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.include('types, formatting, casts, size bounds and layers ok');
  });

  it('fails on a new one, naming the file and line', () => {
    write('src/clean.ts', `export const y: number = 2;\nexport const z = y ${CAST} string[];\n`);
    const r = lint();
    expect(r.status).to.equal(1);
    expect(r.stderr).to.match(/src\/clean\.ts:2: 1 `as unknown\x20as` \(the ledger allows 0\)/);
    write('src/clean.ts', 'export const y: number = 2;\n');
  });

  it('asks for the ledger to come down when one goes', () => {
    write('src/old.ts', 'export const x = "1";\n');
    const r = lint();
    expect(r.status).to.equal(1);
    expect(r.stderr).to.match(/src\/old\.ts: 0 `as unknown\x20as` now, the ledger says 1: lower it/);
  });
});

describe('lint: the size bounds', function () {
  this.timeout(30000);
  const { lint, write } = lintProject('netinv-bounds-', 'each', (write) =>
    write('tsconfig.json', JSON.stringify({ include: ['src/**/*.ts', 'test/**/*.ts'] })),
  );
  /** A function of `n` lines, formatted as Prettier leaves it. */
  const longFunction = (n: number) =>
    `export function f(): number {\n  let x = 0;\n${'  x++;\n'.repeat(n - 4)}  return x;\n}\n`;
  /** A string longer than a line may be, which Prettier does not break (its line 2). */
  const longLine = `export const s =\n  '${'x'.repeat(130)}';\n`;

  it('fails on a line over 120 characters, in a test as well, naming it', () => {
    write('test/a.test.ts', longLine);
    const r = lint();
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include('test/a.test.ts:2: line of 135 characters (at most 120)');
  });

  it('bounds functions and files in source, not in tests', () => {
    write('test/b.test.ts', longFunction(90));
    const inTest = lint();
    expect(inTest.status, inTest.stderr).to.equal(0);
    write('src/b.ts', longFunction(90));
    const r = lint();
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include('src/b.ts:1: function f of 90 lines (at most 80)');
    write('src/b.ts', longFunction(80));
    expect(lint().status).to.equal(0);
  });

  it('names the first places, and every one with --report', () => {
    for (let i = 0; i < 25; i++) write(`src/l${i}.ts`, longLine);
    const r = lint();
    expect(r.status).to.equal(1);
    expect(r.stderr.match(/: line of 135 characters/g)).to.have.length(20);
    expect(r.stderr).to.include('25 place(s) over the size bounds (5 more not shown');
    const all = lint('--report');
    expect(all.stderr.match(/: line of 135 characters/g)).to.have.length(25);
  });
});

describe('lint: dependencies point one way (server -> app -> storage -> engine)', function () {
  this.timeout(30000);
  const { lint, write } = lintProject('netinv-layers-', 'each', (write) => {
    write('tsconfig.json', JSON.stringify({ include: ['engine/**/*.ts', 'storage/**/*.ts', 'app/**/*.ts'] }));
    write('engine/plan.ts', 'export const plan = 1;\n');
    write('storage/store.ts', "import { plan } from '../engine/plan.js';\nexport const store = plan;\n");
    write('app/service.ts', "import { store } from '../storage/store.js';\nexport const service = store;\n");
  });

  it('passes imports that point down, fails one that points up, naming it', () => {
    expect(lint().status).to.equal(0);
    write('storage/store.ts', "import { service } from '../app/service.js';\nexport const store = service;\n");
    const r = lint();
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include("storage/store.ts:1: storage/ imports app/ ('../app/service.js'), against the layers");
  });

  it('fails an engine module that loads an I/O module', () => {
    write('engine/plan.ts', "import fs from 'node:fs';\nexport const plan = fs.existsSync('x') ? 1 : 0;\n");
    const r = lint();
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include("engine/plan.ts:1: engine/ loads 'node:fs': the engine does no I/O");
  });
});
