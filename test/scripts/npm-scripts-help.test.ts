// Every npm script that runs a command answers --help with its usage (exit 0) and refuses an
// unknown flag at once, naming it (exit 2), before it opens a store or runs anything.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoPath } from '../support/paths.js';

const ROOT = repoPath('');
const SCRIPTS = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;

/** The script's command without the build before it, as a shell runs it from the project's folder. */
const command = (name: string): string => SCRIPTS[name].replace(/^node scripts\/build\.mjs --if-stale && /, '');
const RUNS = Object.keys(SCRIPTS).filter((name) => /^node (--\S+ )*dist\//.test(command(name)));

function run(name: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // The environment of a new user: no STORAGE_URL, nothing configured.
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
    execFile(
      'sh',
      ['-c', `${command(name)} "$@"`, 'sh', ...args],
      { cwd: ROOT, env, timeout: 20000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('npm scripts: --help and unknown flags', function () {
  this.timeout(60000);

  it('covers every script that runs a command', () => {
    expect(RUNS).to.include.members([
      'start',
      'migrate',
      'copy',
      'journal',
      'docs',
      'bench',
      'bench:data',
      'bench:http',
      'bench:lifecycle',
      'bench:store',
      'bench:allocation',
      'bench:stream',
      'bench:writes',
      'bench:replica',
    ]);
  });

  for (const name of RUNS) {
    it(`${name}: --help prints its usage and exits 0; --no-such-flag exits 2 naming it`, async () => {
      const [help, bad] = await Promise.all([run(name, '--help'), run(name, '--no-such-flag')]);
      expect(help.code, help.stderr).to.equal(0);
      expect(help.stdout).to.match(new RegExp(`^usage: npm (run )?${name.replace(':', '\\:')} --`));
      expect(help.stdout).to.contain('-h, --help');
      expect(bad.code).to.equal(2);
      expect(bad.stdout).to.equal('');
      expect(bad.stderr.trim()).to.match(
        new RegExp(`^${name}: unknown option --no-such-flag(;[^\\n]*)? \\(--help lists the options\\)$`),
      );
    });
  }
});
