// A background import whose server is killed (SIGKILL) mid-job, on a memory store with a directory and on
// every SQL backend: the store holds no row of the file (the rows and the job's end are one write), the
// job is still `running` with progress written, and the next server on the store runs it again from its
// stored file to `completed` with every row once.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKENDS, sqlDriver, type Backend } from '../e2e/conformance/backends.js';
import { distPath } from '../support/paths.js';
import { ADMIN_KEY, startServer } from '../support/server.js';
import { jobWhen, postFile, sitesCsv } from '../support/jobs.js';
import { tableModel } from '../../engine/sql/table-model.js';

const MAIN = distPath('server/main.js');
// Enough rows that the job is still running when it is seen with progress (an import of 3,000 sites took ~0.3 s).
const ROWS = 30_000;

/** `node dist/server/main.js` on `storage`, with its URL once it listens. */
function serve(storage: string, config: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      LOG_LEVEL: 'silent',
      PORT: '0',
      HOST: '127.0.0.1',
      STORAGE_URL: storage,
      CONFIG_FILE: config,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${err}`)));
  });
}

/** Sites in an SQL store, read with SQL (no server: one would run the job again). */
async function sqlSites(backend: Backend, url: string): Promise<number> {
  const driver = sqlDriver(backend, url);
  try {
    const d = await driver.connect();
    const r = await driver.query(`SELECT count(*) AS n FROM ${d.quote(tableModel('site').table)}`);
    return Number(r.rows[0].n);
  } finally {
    await driver.close();
  }
}

const label = (b: Backend) => (b.name === 'memory' ? 'memory:/dir' : b.name);

for (const backend of BACKENDS)
  describe(`a background import killed mid-job (${label(backend)})`, function () {
    this.timeout(300_000);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-jobs-'));
    const config = path.join(tmp, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ tokens: [{ key: ADMIN_KEY, permissions: ['*'] }] }));
    let storage = '';
    let drop = async () => {};
    before(async function () {
      const db = backend.driver === 'memory' ? { url: `memory:${tmp}/store`, drop } : await backend.url();
      if (!db) this.skip();
      storage = db!.url;
      drop = db!.drop;
    });
    after(async () => {
      await drop();
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    it('writes nothing of the file, and the next server runs the job again to completion', async () => {
      const first = await serve(storage, config);
      const exited = new Promise((res) => first.child.on('exit', res));
      let running: any;
      try {
        const posted = await postFile(`${first.url}/api/dcim/sites/?background=true`, sitesCsv('k', ROWS));
        expect(posted.status).to.equal(202);
        running = await jobWhen(posted.body.url, (j) => j.status.value === 'running' && j.progress.rows_done > 0);
      } finally {
        first.child.kill('SIGKILL');
      }
      await exited;
      expect(running.progress.rows_total).to.equal(ROWS);
      expect(running.progress.rows_done).to.be.below(ROWS);
      if (backend.driver !== 'memory') expect(await sqlSites(backend, storage), 'sites after the kill').to.equal(0);
      // memory:/dir: a site written before the kill would fail the run again (its slug is taken).

      const second = await startServer({ storage });
      try {
        const path = `/api/core/jobs/${running.id}/`;
        const done = await jobWhen(second.url + path);
        expect(done.status.value, JSON.stringify(done)).to.equal('completed');
        expect(done.data).to.deep.equal({ created: ROWS, updated: 0, unchanged: 0 });
        expect(done.started > running.started, 'started again').to.equal(true);
        expect((await second.req('GET', '/api/dcim/sites/?limit=1')).body.count).to.equal(ROWS);
        const slugs = await second.req('GET', `/api/dcim/sites/?slug=k-0&slug=k-${ROWS - 1}`);
        expect(slugs.body.count).to.equal(2);
      } finally {
        await second.close();
      }
    });
  });
