// The real entry point (`node dist/server/main.js`, what `npm start` runs): config from a file and
// the environment, one clear line and a non-zero exit for every bad configuration.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { distPath } from '../support/paths.js';

const MAIN = distPath('server/main.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-start-'));

function run(
  env: Record<string, string>,
  args: string[] = [],
  untilLine?: RegExp,
): Promise<{ code: number | null; out: string; err: string; kill(): void }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '',
      err = '';
    const done = (code: number | null) => resolve({ code, out, err, kill: () => child.kill('SIGTERM') });
    child.stdout.on('data', (d) => {
      out += d;
      if (untilLine?.test(out)) done(null);
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) => done(code));
  });
}

describe('startup (server/main.js)', function () {
  this.timeout(30000);
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('serves with PORT, HOST, STORAGE_URL, DEMO_DATA=false and CONFIG_FILE holding two tokens', async () => {
    const cfg = path.join(tmp, 'config.json');
    fs.writeFileSync(
      cfg,
      JSON.stringify({
        tokens: [
          { key: 'first-key-0123456789', permissions: ['*'] },
          { key: 'second-key-0123456789', permissions: ['dcim.view_site'] },
        ],
      }),
    );
    const r = await run(
      { PORT: '0', HOST: '127.0.0.1', STORAGE_URL: 'memory:', DEMO_DATA: 'false', CONFIG_FILE: cfg },
      [],
      /listening on (\S+)/,
    );
    try {
      const url = /listening on (\S+)/.exec(r.out)![1];
      expect(r.out).to.not.include('admin token');
      const sites = await fetch(`${url}/api/dcim/sites/`, {
        headers: { Authorization: 'Token second-key-0123456789' },
      });
      expect(sites.status).to.equal(200);
      expect((await sites.json()).count).to.equal(0);
      const devices = await fetch(`${url}/api/dcim/devices/`, {
        headers: { Authorization: 'Token second-key-0123456789' },
      });
      expect(devices.status).to.equal(403);
    } finally {
      r.kill();
    }
  });

  it('prints an admin token once when none is configured', async () => {
    const r = await run({ PORT: '0', DEMO_DATA: 'false' }, [], /admin token \(shown once\): ([0-9a-f]+)/);
    try {
      const url = /listening on (\S+)/.exec(r.out)![1];
      const key = /admin token \(shown once\): ([0-9a-f]+)/.exec(r.out)![1];
      expect((await fetch(`${url}/api/dcim/sites/`, { headers: { Authorization: `Token ${key}` } })).status).to.equal(
        200,
      );
    } finally {
      r.kill();
    }
  });

  const bad: [string, Record<string, string>, string[], RegExp][] = [
    ['an unknown storage scheme', { STORAGE_URL: 'redis://x' }, [], /unknown storage scheme/],
    ['an unreadable config file', {}, ['--config', path.join(tmp, 'missing.json')], /cannot read .*missing\.json/],
    ['a config file that is not JSON', { CONFIG_FILE: path.join(tmp, 'bad.json') }, [], /is not valid JSON/],
    ['a bad PORT', { PORT: 'http' }, [], /PORT must be a whole number/],
    [
      'an unreachable database',
      { STORAGE_URL: 'postgres://postgres@127.0.0.1:1/test' },
      [],
      /cannot connect to PostgreSQL/,
    ],
    [
      'a bad machine definition file',
      { MACHINES_DIR: path.join(tmp, 'machines') },
      [],
      /machine file .*broken\.yaml: .*initial.*;/,
    ],
  ];
  for (const [what, env, args, message] of bad) {
    it(`stops on ${what} with one line naming the problem`, async () => {
      fs.writeFileSync(path.join(tmp, 'bad.json'), '{"port": ');
      fs.mkdirSync(path.join(tmp, 'machines'), { recursive: true });
      fs.writeFileSync(
        path.join(tmp, 'machines', 'broken.yaml'),
        'meta: {machine_name: Bad, version: "1"}\nstates: [{name: a, type: stable}]\ntransitions: [{trigger: ' +
          'go, source: a, dest: nowhere}]\n',
      );
      const r = await run({ PORT: '0', ...env }, args);
      expect(r.code).to.not.equal(0);
      expect(r.err.trim().split('\n')).to.have.length(1);
      expect(r.err).to.match(message);
    });
  }
});
