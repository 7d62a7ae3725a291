// pynetbox (Debian's python3-pynetbox), unchanged, against the real server: the everyday calls
// (pynetbox_smoke.py), what NetBox automation relies on (pynetbox_netbox.py) and IP allocation
// (pynetbox_allocation.py), on every backend, with uuid and with integer ids.
import { expect } from 'chai';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { BACKENDS } from '../conformance/backends.js';
import { ADMIN_KEY, startServer, type TestServer } from '../../support/server.js';
import { repoPath } from '../../support/paths.js';
import { ID_STYLES } from '../../../engine/schema/id-style.js';

const script = (name: string) => repoPath(`test/e2e/compat/${name}`);
// Debian's package lands in the system interpreter, which may not be the first python3 on PATH.
const python = ['/usr/bin/python3', 'python3'].find(
  (p) => spawnSync(p, ['-c', 'import pynetbox'], { encoding: 'utf8' }).status === 0,
);
const hasPynetbox = python !== undefined;

/** Runs a pynetbox script against the server; asynchronous, as the server answering it runs in this very process. */
export async function runPynetbox(name: string, srv: TestServer): Promise<string> {
  const r = await promisify(execFile)(python!, [script(name), srv.url, ADMIN_KEY], {
    encoding: 'utf8',
    timeout: 50000,
  }).catch((e) => e);
  return String(r.stderr) + String(r.stdout);
}

for (const backend of BACKENDS)
  for (const idStyle of ID_STYLES)
    describe(`pynetbox compatibility on ${backend.name}, ${idStyle} ids`, function () {
      this.timeout(60000);
      let srv: TestServer;
      let drop: () => Promise<void> = async () => {};
      before(async function () {
        if (!hasPynetbox) {
          if (process.env.CI) throw new Error('python3-pynetbox is not installed (.ci/run installs it)');
          console.log('    (skipped: python3-pynetbox not installed)');
          this.skip();
        }
        const db = await backend.url();
        if (!db) {
          this.skip();
          return;
        }
        drop = db.drop;
        srv = await startServer({ storage: db.url, idStyle });
      });
      after(async () => {
        await srv?.close();
        await drop();
      });

      it('creates, filters, counts, pages, saves, reads choices and deletes through pynetbox', async () => {
        expect(await runPynetbox('pynetbox_smoke.py', srv)).to.include('OK');
      });

      it('bulk updates and deletes on list URLs through pynetbox', async () => {
        expect(await runPynetbox('pynetbox_netbox.py', srv)).to.include('OK');
      });

      it('lists and allocates prefixes and IP addresses through available_prefixes / available_ips', async () => {
        const out = await runPynetbox('pynetbox_allocation.py', srv);
        expect(out, out).to.include('OK');
      });
    });
