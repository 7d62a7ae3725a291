// `npm run lint` (scripts/lint.mjs): a new double cast fails naming its line; the ledger of the
// ones there are only shrinks. Checked on a small project of its own (the type check left out).
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LINT = path.join(ROOT, 'scripts/lint.mjs');
/** Spelled apart, so this file holds none itself. */
const CAST = ['as', 'unknown', 'as'].join(' ');

describe('lint: double casts are counted against a ledger', function () {
  this.timeout(30000);
  let dir = '';
  const lint = () => spawnSync(process.execPath, [LINT, '--no-types', '--project', dir], { encoding: 'utf8' });
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-lint-'));
    write('tsconfig.json', JSON.stringify({ include: ['src/**/*.ts'] }));
    write('scripts/cast-ledger.json', JSON.stringify({ 'src/old.ts': 1 }));
    write('src/old.ts', `export const x = 1 ${CAST} string; // known\n`);
    write('src/clean.ts', 'export const y: number = 2;\n');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('passes with the casts the ledger counts', () => {
    const r = lint();
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.include('types and casts ok');
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
