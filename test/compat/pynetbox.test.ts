// pynetbox (Debian's python3-pynetbox), unchanged, against the real server.
import { expect } from 'chai';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ADMIN_KEY, startServer, type TestServer } from '../support/server.js';

const script = fileURLToPath(new URL('../../../test/compat/pynetbox_smoke.py', import.meta.url));
// Debian's package lands in the system interpreter, which may not be the first python3 on PATH.
const python = ['/usr/bin/python3', 'python3'].find((p) => spawnSync(p, ['-c', 'import pynetbox'], { encoding: 'utf8' }).status === 0);
const hasPynetbox = python !== undefined;

describe('pynetbox compatibility', function () {
  this.timeout(60000);
  let srv: TestServer;
  before(async function () {
    if (!hasPynetbox) {
      if (process.env.CI) throw new Error('python3-pynetbox is not installed (.ci/run installs it)');
      console.log('    (skipped: python3-pynetbox not installed)');
      this.skip();
    }
    srv = await startServer();
  });
  after(async () => { await srv?.close(); });

  it('creates, filters, counts, pages, saves, reads choices and deletes through pynetbox', async () => {
    // Asynchronous: the server answering pynetbox runs in this very process.
    const r = await promisify(execFile)(python!, [script, srv.url, ADMIN_KEY], { encoding: 'utf8', timeout: 50000 }).catch((e) => e);
    expect(String(r.stderr) + String(r.stdout)).to.include('OK');
  });
});
