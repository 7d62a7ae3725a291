// READ_REPLICA=memory, differential (#19): three server processes with a memory replica and one
// without (SQL push-down, the reference) on one database. Random writes go through the replicas in
// turn; after each step the same random list queries go to every process, the replicas with
// X-Min-Change-Seq set to the last write's X-Change-Seq: ids in order and counts must be the
// reference's, and each replica says it answered from itself. REPLICA_PLANS (default 300; test:long
// takes DIFF_PLANS) queries per backend.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { startProcess } from '../../support/process.js';
import { call, KEY, RandomWorkload, seedReferences } from './random-workload.js';

const PLANS = Number(process.env.DIFF_PLANS ?? process.env.REPLICA_PLANS ?? 300);
const QUERIES_PER_STEP = 10;

for (const backend of BACKENDS.filter((b) => b.driver !== 'memory')) {
  describe(`memory replicas on ${backend.name}: answers equal SQL push-down`, function () {
    this.timeout(900000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    const procs: ChildProcess[] = [];
    let replicas: string[] = [];
    let reference = '';

    before(async function () {
      db = await backend.url();
      if (!db) {
        this.skip();
        return;
      }
      const cfg = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-rep-')), 'config.json');
      fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
      const ref = await startProcess(db.url, cfg);
      procs.push(ref.child);
      reference = ref.url;
      // Some rows before the replicas start: they load these, and follow the rest.
      await seedReferences(reference);
      for (let i = 0; i < 3; i++) {
        const p = await startProcess(db.url, cfg, { READ_REPLICA: 'memory' });
        procs.push(p.child);
        replicas.push(p.url);
      }
    });
    after(async () => {
      for (const c of procs) c.kill('SIGKILL');
      await db?.drop();
    });

    it(`${PLANS} random list queries after random writes through the replicas`, async () => {
      const work = new RandomWorkload(19, replicas);
      await work.compare(reference, replicas, PLANS, QUERIES_PER_STEP);
      const last = work.last;
      // The replicas report no lag once quiet.
      for (const url of replicas) {
        const s = await call(url, 'GET', '/api/status/', undefined, { 'X-Min-Change-Seq': String(last) });
        expect(s.body.replica_lag_seq).to.equal(0);
      }
    });
  });
}

for (const backend of BACKENDS.filter((b) => b.driver === 'postgres')) {
  describe(`a memory replica on ${backend.name}: own writes, X-Min-Change-Seq, configuration`, function () {
    this.timeout(120000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    const procs: ChildProcess[] = [];
    let a = '',
      b = '';
    before(async function () {
      db = await backend.url();
      if (!db) {
        this.skip();
        return;
      }
      const cfg = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-rep-')), 'config.json');
      fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
      for (const env of [{ READ_REPLICA: 'memory' }, { READ_REPLICA: 'memory' }]) {
        const p = await startProcess(db.url, cfg, env);
        procs.push(p.child);
        a ? (b = p.url) : (a = p.url);
      }
    });
    after(async () => {
      for (const c of procs) c.kill('SIGKILL');
      await db?.drop();
    });

    it('a process reads its own writes at once, from its replica', async () => {
      for (let i = 0; i < 20; i++) {
        const made = await call(a, 'POST', '/api/dcim/sites/', { name: `own ${i}`, slug: `own-${i}` });
        expect(made.status).to.equal(201);
        const got = await call(a, 'GET', `/api/dcim/sites/?slug=own-${i}`);
        expect(got.body.count, `own-${i}`).to.equal(1);
        expect(got.headers.get('x-read-source')).to.equal('replica');
        const patched = await call(a, 'PATCH', `/api/dcim/sites/${made.body.id}/`, { facility: `F${i}` });
        expect((await call(a, 'GET', `/api/dcim/sites/${made.body.id}/`)).body.facility).to.equal(`F${i}`);
        // Through the other process, X-Min-Change-Seq makes the same promise.
        const other = await call(b, 'GET', `/api/dcim/sites/${made.body.id}/`, undefined, {
          'X-Min-Change-Seq': patched.headers.get('x-change-seq')!,
        });
        expect(other.body.facility).to.equal(`F${i}`);
      }
    });

    it('a seq the replica cannot reach in time is answered from the database, and says so', async () => {
      const far = await call(a, 'GET', '/api/dcim/sites/?limit=1', undefined, { 'X-Min-Change-Seq': '999999999' });
      expect(far.status).to.equal(200);
      expect(far.headers.get('x-read-source')).to.equal('database');
      expect(
        (await call(a, 'GET', '/api/dcim/sites/?limit=1', undefined, { 'X-Min-Change-Seq': 'soon' })).status,
      ).to.equal(400);
      const status = await call(a, 'GET', '/api/status/');
      expect(status.body).to.include({ replica_lag_seq: 0, replica_lag_ms: 0 });
    });

    it('READ_REPLICA needs a database; a wrong value is refused at start with one line', async () => {
      const cfg = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-rep-')), 'config.json');
      fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
      for (const [storage, value, says] of [
        ['memory:', 'memory', /needs a database/],
        [db!.url, 'redis', /must be "memory"/],
      ] as const) {
        const err = await startProcess(storage, cfg, { READ_REPLICA: value }).then(
          (p) => {
            p.child.kill('SIGKILL');
            return null;
          },
          (e: Error) => e,
        );
        expect(err?.message).to.match(says);
      }
    });
  });
}

for (const backend of BACKENDS.filter((b) => b.driver === 'postgres')) {
  describe(`memory replicas on ${backend.name} under faults`, function () {
    this.timeout(300000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let cfg = '';
    const procs: ChildProcess[] = [];
    before(async function () {
      db = await backend.url();
      if (!db) {
        this.skip();
        return;
      }
      cfg = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-rep-')), 'config.json');
      fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
    });
    after(async () => {
      for (const c of procs) c.kill('SIGKILL');
      await db?.drop();
    });

    it(
      'converge when their LISTEN connections are dropped, ' + 'and a replica killed with SIGKILL comes back whole',
      async () => {
        const start = async () => {
          const p = await startProcess(db!.url, cfg, { READ_REPLICA: 'memory' });
          procs.push(p.child);
          return p;
        };
        const a = await start(),
          b = await start();
        const names = async (url: string, seq: number) => {
          const r = await call(url, 'GET', '/api/dcim/sites/?ordering=slug&limit=1000', undefined, {
            'X-Min-Change-Seq': String(seq),
          });
          expect(r.headers.get('x-read-source')).to.equal('replica');
          return r.body.results.map((s: { slug: string }) => s.slug);
        };
        let seq = 0;
        const write = async (i: number) => {
          const r = await call(a.url, 'POST', '/api/dcim/sites/', {
            name: `f${i}`,
            slug: `f${String(i).padStart(3, '0')}`,
          });
          expect(r.status).to.equal(201);
          seq = Number(r.headers.get('x-change-seq'));
        };
        for (let i = 0; i < 10; i++) await write(i);
        // Every LISTEN connection of the database is cut: followers fall back to reading the counter, then
        // listen again.
        const { Client } = (await import('pg')).default;
        const admin = new Client({ connectionString: db!.url });
        await admin.connect();
        const cut = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ` +
            `ILIKE 'LISTEN%'`,
        );
        await admin.end();
        expect(cut.rowCount).to.be.greaterThan(0);
        for (let i = 10; i < 20; i++) await write(i);
        const want = Array.from({ length: 20 }, (_, i) => `f${String(i).padStart(3, '0')}`);
        expect(await names(b.url, seq)).to.deep.equal(want);
        // A replica killed mid-stream and started again loads what it missed.
        b.child.kill('SIGKILL');
        const writes = Array.from({ length: 10 }, (_, k) => write(20 + k));
        await Promise.all(writes);
        const c = await start();
        expect(await names(c.url, seq)).to.deep.equal(
          Array.from({ length: 30 }, (_, i) => `f${String(i).padStart(3, '0')}`),
        );
        expect(await names(a.url, seq)).to.have.length(30);
      },
    );
  });
}
