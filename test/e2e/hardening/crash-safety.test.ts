// SIGKILL while clients write: after a restart every acknowledged write is there and nothing
// half-written is (memory:/dir journal; PostgreSQL and MySQL transactions). SIGTERM drains.
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { startProcess } from '../../support/process.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKENDS } from '../conformance/backends.js';

const KEY = 'crash-key-0123456789';

const post = (url: string, p: string, body: unknown) =>
  fetch(url + p, {
    method: 'POST',
    headers: { Authorization: `Token ${KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

for (const backend of BACKENDS) {
  describe(`crash safety on ${backend.name}`, function () {
    this.timeout(60000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let dir = '';
    let cfg = '';
    before(async function () {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-crash-'));
      cfg = path.join(dir, 'config.json');
      fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
      db =
        backend.name === 'memory'
          ? { url: `memory:${path.join(dir, 'data')}`, drop: async () => {} }
          : await backend.url();
      if (!db) {
        console.log(`    (skipped: ${backend.name} not configured)`);
        this.skip();
      }
    });
    after(async () => {
      await db?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('keeps every acknowledged write after SIGKILL mid-stream, and nothing half-written', async () => {
      let srv = await startProcess(db!.url, cfg);
      const acked: string[] = [];
      let stop = false;
      // Four clients create sites with tags (a multi-row write each) until the kill.
      await post(srv.url, '/api/extras/tags/', { name: 'T', slug: 't' });
      const clients = Array.from({ length: 4 }, async (_, c) => {
        for (let i = 0; !stop; i++) {
          const name = `c${c}-${i}`;
          try {
            const res = await post(srv.url, '/api/dcim/sites/', { name, slug: name, tags: ['t'] });
            if (res.status === 201) acked.push(name);
          } catch {
            return;
          }
        }
      });
      // Killed once writes are flowing (some acknowledged), however slow the machine is today.
      for (const until = Date.now() + 20_000; acked.length <= 10 && Date.now() < until;)
        await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 200));
      srv.child.kill('SIGKILL');
      stop = true;
      await Promise.all(clients);
      expect(acked.length).to.be.greaterThan(10);
      srv = await startProcess(db!.url, cfg);
      try {
        const res = await fetch(`${srv.url}/api/dcim/sites/?limit=1000`, {
          headers: { Authorization: `Token ${KEY}` },
        });
        const sites = (await res.json()).results as { name: string; tags: unknown[] }[];
        const names = new Set(sites.map((s) => s.name));
        for (const n of acked) expect(names.has(n), n).to.equal(true);
        for (const s of sites) expect(s.tags, s.name).to.have.length(1);
      } finally {
        srv.child.kill('SIGTERM');
      }
    });

    it('SIGTERM lets in-flight requests finish and exits cleanly', async () => {
      const srv = await startProcess(db!.url, cfg);
      const inflight = Array.from({ length: 10 }, (_, i) =>
        post(srv.url, '/api/dcim/sites/', { name: `term-${i}`, slug: `term-${i}` })
          .then((r) => r.status)
          .catch(() => 0),
      );
      await new Promise((r) => setTimeout(r, 5));
      const exited = new Promise<number | null>((r) => srv.child.on('exit', (code) => r(code)));
      srv.child.kill('SIGTERM');
      const statuses = await Promise.all(inflight);
      expect(await exited).to.equal(0);
      // Every request the server accepted got its full answer.
      for (const s of statuses) expect([0, 201]).to.include(s);
    });
  });
}
