// Writes that race lose nothing: two clients changing different fields of one object both keep
// their change, a delete's cascade does not undo a concurrent change, two tree moves cannot close a
// loop, and If-Match turns a client's stale read-modify-write into a 412. On SQL the two clients
// talk to two server processes on one database; memory (one process owns it) takes both on one.
// RACE_ROUNDS (default 40; `npm run test:long` 1000) rounds each.
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKENDS } from '../conformance/backends.js';
import { startProcess } from '../../support/process.js';
import { startServer, type TestServer } from '../../support/server.js';

const KEY = 'race-key-0123456789';
const ROUNDS = Number(process.env.RACE_ROUNDS ?? 40);

interface Answer {
  status: number;
  body: any;
  etag: string | null;
}

async function call(
  url: string,
  method: string,
  p: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(url + p, {
    method,
    headers: { Authorization: `Token ${KEY}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null), etag: res.headers.get('etag') };
}

for (const backend of BACKENDS) {
  describe(`racing writes on ${backend.name}`, function () {
    this.timeout(180000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    const procs: ChildProcess[] = [];
    let inProcess: TestServer | null = null;
    let a = '',
      b = '';

    before(async function () {
      db = await backend.url();
      if (!db) {
        this.skip();
        return;
      }
      if (backend.driver === 'memory') {
        inProcess = await startServer({ storage: db.url, tokens: [{ key: KEY, permissions: ['*'] }] });
        a = b = inProcess.url;
        return;
      }
      const cfg = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-race-')), 'config.json');
      fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
      const [p, q] = [await startProcess(db.url, cfg), await startProcess(db.url, cfg)];
      procs.push(p.child, q.child);
      [a, b] = [p.url, q.url];
    });
    after(async () => {
      for (const c of procs) c.kill('SIGTERM');
      await inProcess?.close();
      await new Promise((r) => setTimeout(r, 300));
      await db?.drop();
    });

    it(`PATCHes of different fields of one site at once keep both (${ROUNDS} rounds)`, async () => {
      let lost = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const s = await call(a, 'POST', '/api/dcim/sites/', { name: `p${i}`, slug: `p${i}` });
        expect(s.status).to.equal(201);
        const [x, y] = await Promise.all([
          call(a, 'PATCH', `/api/dcim/sites/${s.body.id}/`, { description: `d${i}` }),
          call(b, 'PATCH', `/api/dcim/sites/${s.body.id}/`, { facility: `f${i}` }),
        ]);
        expect([x.status, y.status]).to.deep.equal([200, 200]);
        const got = (await call(a, 'GET', `/api/dcim/sites/${s.body.id}/`)).body;
        if (got.description !== `d${i}` || got.facility !== `f${i}`) lost++;
      }
      expect(lost, 'rounds that lost a change').to.equal(0);
    });

    it(`a delete that sets references to null does not undo a change made at once (${ROUNDS} rounds)`, async () => {
      let lost = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const r = await call(a, 'POST', '/api/dcim/regions/', { name: `r${i}`, slug: `r${i}` });
        const s = await call(a, 'POST', '/api/dcim/sites/', { name: `c${i}`, slug: `c${i}`, region: r.body.id });
        const [del, patch] = await Promise.all([
          call(a, 'DELETE', `/api/dcim/regions/${r.body.id}/`),
          call(b, 'PATCH', `/api/dcim/sites/${s.body.id}/`, { description: `kept ${i}` }),
        ]);
        expect(del.status).to.equal(204);
        const got = (await call(b, 'GET', `/api/dcim/sites/${s.body.id}/`)).body;
        // Whichever ran first, the PATCH's description stays and the region is null.
        expect(patch.status).to.equal(200);
        if (patch.status === 200 && got.description !== `kept ${i}`) lost++;
        expect(got.region, 'the deleted region is no longer referenced').to.equal(null);
      }
      expect(lost).to.equal(0);
    });

    it(`two moves that would close a loop in the region tree: one is refused (${ROUNDS} rounds)`, async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const r1 = await call(a, 'POST', '/api/dcim/regions/', { name: `t${i}a`, slug: `t${i}a` });
        const r2 = await call(a, 'POST', '/api/dcim/regions/', { name: `t${i}b`, slug: `t${i}b` });
        const moves = await Promise.all([
          call(a, 'PATCH', `/api/dcim/regions/${r1.body.id}/`, { parent: r2.body.id }),
          call(b, 'PATCH', `/api/dcim/regions/${r2.body.id}/`, { parent: r1.body.id }),
        ]);
        expect(moves.map((m) => m.status).sort()).to.deep.equal([200, 400]);
        const p1 = (await call(a, 'GET', `/api/dcim/regions/${r1.body.id}/`)).body.parent;
        const p2 = (await call(a, 'GET', `/api/dcim/regions/${r2.body.id}/`)).body.parent;
        expect(p1 !== null && p2 !== null, 'a loop').to.equal(false);
      }
    });

    it('ETag on reads and writes; If-Match with a stale version is a 412 and changes nothing', async () => {
      const s = await call(a, 'POST', '/api/dcim/sites/', { name: 'etag', slug: 'etag' });
      expect(s.etag).to.equal('"1"');
      const got = await call(b, 'GET', `/api/dcim/sites/${s.body.id}/`);
      expect(got.etag).to.equal('"1"');
      const ok = await call(
        a,
        'PATCH',
        `/api/dcim/sites/${s.body.id}/`,
        { description: 'one' },
        { 'If-Match': got.etag! },
      );
      expect(ok.status).to.equal(200);
      expect(ok.etag).to.equal('"2"');
      const late = await call(
        b,
        'PATCH',
        `/api/dcim/sites/${s.body.id}/`,
        { description: 'two' },
        { 'If-Match': got.etag! },
      );
      expect(late.status).to.equal(412);
      expect(late.body.code).to.equal('precondition_failed');
      expect(
        (await call(b, 'PUT', `/api/dcim/sites/${s.body.id}/`, { name: 'etag', slug: 'etag' }, { 'If-Match': 'W/"2"' }))
          .status,
        'a weak tag never matches',
      ).to.equal(412);
      expect((await call(b, 'GET', `/api/dcim/sites/${s.body.id}/`)).body.description).to.equal('one');
      expect(
        (await call(b, 'DELETE', `/api/dcim/sites/${s.body.id}/`, undefined, { 'If-Match': '"1"' })).status,
      ).to.equal(412);
      expect((await call(b, 'GET', `/api/dcim/sites/${s.body.id}/`)).status).to.equal(200);
      expect(
        (await call(b, 'DELETE', `/api/dcim/sites/${s.body.id}/`, undefined, { 'If-Match': '"7", "2"' })).status,
      ).to.equal(204);
    });

    it('If-Match races: of several writers holding one version, exactly one succeeds', async () => {
      const s = await call(a, 'POST', '/api/dcim/sites/', { name: 'im', slug: 'im' });
      const outs = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          call(
            i % 2 ? a : b,
            'PATCH',
            `/api/dcim/sites/${s.body.id}/`,
            { description: `w${i}` },
            { 'If-Match': '"1"' },
          ),
        ),
      );
      expect(outs.filter((o) => o.status === 200)).to.have.length(1);
      expect(outs.filter((o) => o.status === 412)).to.have.length(7);
    });
  });
}
