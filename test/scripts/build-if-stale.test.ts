// `npm start` and the other scripts compile only when a source changed since the last build
// (scripts/build.mjs --if-stale); `npm test` always compiles, into an emptied dist/. Checked on a one-file project.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoPath } from '../support/paths.js';

const ROOT = repoPath('');
const BUILD = path.join(ROOT, 'scripts/build.mjs');

function build(project: string, ...flags: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [BUILD, ...flags, '--project', project], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe('build: compiles only what changed since the last build', function () {
  this.timeout(60000); // a compile of one file without the standard library: a second or two
  let dir = '';
  const out = () => path.join(dir, 'dist/src/a.js');
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-build-'));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          outDir: 'dist',
          rootDir: '.',
          types: [],
          lib: ['ES5'],
        },
        include: ['src/**/*.ts'],
      }),
    );
    fs.writeFileSync(path.join(dir, 'src/a.ts'), 'export const a: number = 1;\n');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('compiles when there is no build, not again while nothing changed, again once a source changed', () => {
    const first = build(dir, '--if-stale');
    expect(first.status).to.equal(0);
    expect(first.stderr).to.match(/compiling \(no build yet\)/);
    expect(fs.readFileSync(out(), 'utf8')).to.include('a = 1');
    const builtAt = fs.statSync(out()).mtimeMs;

    const second = build(dir, '--if-stale');
    expect(second.status).to.equal(0);
    expect(second.stderr).to.equal('');
    expect(fs.statSync(out()).mtimeMs).to.equal(builtAt);

    fs.writeFileSync(path.join(dir, 'src/a.ts'), 'export const a: number = 2;\n');
    const later = new Date(Date.now() + 2000); // past the stamp whatever the clock's resolution
    fs.utimesSync(path.join(dir, 'src/a.ts'), later, later);
    const third = build(dir, '--if-stale');
    expect(third.status).to.equal(0);
    expect(third.stderr).to.match(/compiling \(src\/a\.ts changed\)/);
    expect(fs.readFileSync(out(), 'utf8')).to.include('a = 2');
  });

  it('a failed compile leaves the build stale, so the next start tries again', () => {
    fs.writeFileSync(path.join(dir, 'src/a.ts'), 'export const a: number = "not a number";\n');
    const later = new Date(Date.now() + 4000);
    fs.utimesSync(path.join(dir, 'src/a.ts'), later, later);
    expect(build(dir, '--if-stale').status).to.not.equal(0);
    expect(build(dir, '--if-stale').stderr).to.match(/compiling \(src\/a\.ts changed\)/);
  });

  it('--clean removes what a deleted source left in the build', () => {
    fs.writeFileSync(path.join(dir, 'src/a.ts'), 'export const a: number = 3;\n');
    fs.writeFileSync(path.join(dir, 'src/gone.ts'), 'export const gone = 1;\n');
    expect(build(dir).status).to.equal(0);
    const left = path.join(dir, 'dist/src/gone.js');
    expect(fs.existsSync(left)).to.equal(true);
    fs.rmSync(path.join(dir, 'src/gone.ts'));
    expect(build(dir).status).to.equal(0);
    expect(fs.existsSync(left), 'a plain build keeps the old output').to.equal(true);
    expect(build(dir, '--clean').status).to.equal(0);
    expect(fs.existsSync(left)).to.equal(false);
    expect(fs.readFileSync(out(), 'utf8')).to.include('a = 3');
  });

  it('npm start and the scripts that run the build check it; npm test compiles every time, from a clean build', () => {
    const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<
      string,
      string
    >;
    expect(scripts.prestart).to.equal('node scripts/build.mjs --if-stale');
    expect(scripts.pretest).to.equal('node scripts/build.mjs --clean');
    expect(scripts.build).to.equal('node scripts/build.mjs');
    for (const [name, cmd] of Object.entries(scripts)) {
      if (name !== 'start' && /node (--\S+ )*dist\//.test(cmd))
        expect(cmd, name).to.match(/^node scripts\/build\.mjs --if-stale && /);
    }
  });
});
