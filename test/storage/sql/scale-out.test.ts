// Two server processes on one database stay consistent: no per-process state goes stale.
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { startProcess } from '../../support/process.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKENDS } from '../../e2e/conformance/backends.js';

const KEY = 'scale-key-0123456789';

async function call(url: string, method: string, p: string, body?: unknown) {
  const res = await fetch(url + p, {
    method,
    headers: { Authorization: `Token ${KEY}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

for (const backend of BACKENDS.filter((b) => b.name !== 'memory')) {
  describe(`two server processes on one ${backend.name} database`, function () {
    this.timeout(60000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    const procs: { child: ChildProcess; url: string }[] = [];
    before(async function () {
      db = await backend.url();
      if (!db) {
        console.log(`    (skipped: ${backend.name} not configured)`);
        this.skip();
      }
      const cfg = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-scale-')), 'config.json');
      fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
      procs.push(await startProcess(db.url, cfg));
      procs.push(await startProcess(db.url, cfg));
    });
    after(async () => {
      for (const p of procs) p.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      await db?.drop();
    });

    it('a custom field created through one is filterable through the other at once', async () => {
      const [a, b] = procs;
      await call(b.url, 'GET', '/api/dcim/sites/?name=x'); // warm b's caches first
      expect((await call(b.url, 'GET', '/api/dcim/sites/?cf_floor=1')).status).to.equal(400);
      expect(
        (
          await call(a.url, 'POST', '/api/extras/custom-fields/', {
            name: 'floor',
            type: 'integer',
            content_types: ['dcim.site'],
          })
        ).status,
      ).to.equal(201);
      expect(
        (await call(a.url, 'POST', '/api/dcim/sites/', { name: 's1', slug: 's1', custom_fields: { floor: 1 } })).status,
      ).to.equal(201);
      const res = await call(b.url, 'GET', '/api/dcim/sites/?cf_floor=1');
      expect(res.status).to.equal(200);
      expect(res.body.results.map((s: { name: string }) => s.name)).to.deep.equal(['s1']);
    });

    it('a token created through one works on the other, and revoking it locks it out on both', async () => {
      const [a, b] = procs;
      const t = await call(a.url, 'POST', '/api/users/tokens/', { permissions: ['dcim.view_site'] });
      const get = (u: string) =>
        fetch(`${u}/api/dcim/sites/`, { headers: { Authorization: `Token ${t.body.key}` } }).then((r) => r.status);
      expect(await get(b.url)).to.equal(200);
      await call(b.url, 'DELETE', `/api/users/tokens/${t.body.id}/`);
      expect(await get(a.url)).to.equal(401);
    });

    // Token checks are answered from each process's memory; the change log tells it to forget.
    // PostgreSQL announces every commit (NOTIFY), but the announcement reaches the other process
    // on its own connection, a moment after the writer's answer: it refuses as soon as that arrives
    // (well under the bound; reported below). MySQL and MariaDB announce nothing: the other
    // process reads the log within TOKEN_RECHECK_MS (250 ms by default). Either way: the bound.
    const refusedWithin = async (check: () => Promise<number>, refused: number): Promise<number> => {
      const t0 = performance.now();
      for (;;) {
        const status = await check();
        if (status === refused) return performance.now() - t0;
        expect(performance.now() - t0).to.be.below(250 + 500);
        await new Promise((r) => setTimeout(r, 5));
      }
    };

    it(
      'a token deleted through one, checked a moment before by the other, is refused by the other within the ' +
        'bound',
      async () => {
        const [a, b] = procs;
        const t = await call(a.url, 'POST', '/api/users/tokens/', { permissions: ['dcim.view_site'] });
        const get = (u: string) =>
          fetch(`${u}/api/dcim/sites/`, { headers: { Authorization: `Token ${t.body.key}` } }).then((r) => r.status);
        for (let i = 0; i < 3; i++) expect(await get(b.url)).to.equal(200); // answered from b's memory now
        expect((await call(a.url, 'DELETE', `/api/users/tokens/${t.body.id}/`)).status).to.equal(204);
        const ms = await refusedWithin(() => get(b.url), 401);
        console.log(
          `      (${backend.name}: refused by the other process ${ms.toFixed(1)} ms after the delete answered)`,
        );
        expect(await get(a.url)).to.equal(401);
      },
    );

    it("a configured token's permissions changed by another process's start apply on the first process", async () => {
      const [a] = procs;
      const key = 'narrowed-key-0123456789';
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-scale-'));
      const write = (name: string, permissions: string[]) => {
        const f = path.join(dir, name);
        fs.writeFileSync(
          f,
          JSON.stringify({
            tokens: [
              { key: KEY, permissions: ['*'] },
              { key, permissions },
            ],
          }),
        );
        return f;
      };
      const c = await startProcess(db!.url, write('wide.json', ['*']));
      c.child.kill('SIGTERM');
      const post = () =>
        fetch(`${a.url}/api/extras/tags/`, {
          method: 'POST',
          headers: { Authorization: `Token ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `t${Math.random()}`, slug: `t${Date.now()}${Math.floor(Math.random() * 1e6)}` }),
        }).then((r) => r.status);
      expect(await post()).to.equal(201);
      const d = await startProcess(db!.url, write('narrow.json', ['dcim.view_site']));
      try {
        await refusedWithin(post, 403);
      } finally {
        d.child.kill('SIGTERM');
      }
    });

    it('events on one entity sent to both processes are serialized', async () => {
      const [a, b] = procs;
      await call(a.url, 'POST', '/api/v1/entities/race/create', { machine_name: 'order_flow' });
      const pay = {
        trigger: 'pay',
        expected_state: 'created',
        context: { amount: 5, currency: 'EUR', payment_ref: 'r' },
      };
      const results = await Promise.all(
        Array.from({ length: 16 }, (_, i) => call(i % 2 ? a.url : b.url, 'POST', '/api/v1/entities/race/events', pay)),
      );
      expect(results.filter((r) => r.status === 200)).to.have.length(1);
      const hist = await call(b.url, 'GET', '/api/v1/entities/race/history');
      expect(hist.body.count).to.equal(2);
      const many = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(i % 2 ? a.url : b.url, 'POST', '/api/v1/entities/race/events', {
            trigger: 'cancel',
            context: { cancel_reason: 'test' },
          }),
        ),
      );
      const accepted = many.filter((r) => r.status === 200).length;
      expect(accepted).to.equal(1); // cancel leads to a terminal state: only the first can be taken
      expect((await call(a.url, 'GET', '/api/v1/entities/race/history')).body.count).to.equal(3);
    });
  });
}

// Starting together on a fresh database: the configured tokens and the machine files are installed
// by whichever process gets there first; the other takes them as they are.
for (const backend of BACKENDS.filter((b) => b.name !== 'memory')) {
  describe(`two server processes starting at once on a fresh ${backend.name} database`, function () {
    this.timeout(120000);
    const ROUNDS = Number(process.env.START_ROUNDS ?? 3);
    it(
      `both start, ${ROUNDS} times out of ${ROUNDS}; identical machine definitions posted at once are all ` +
        `accepted`,
      async function () {
        const cfg = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-start-')), 'config.json');
        fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
        for (let i = 0; i < ROUNDS; i++) {
          const db = await backend.url();
          if (!db) {
            this.skip();
            return;
          }
          const started = await Promise.allSettled([startProcess(db.url, cfg), startProcess(db.url, cfg)]);
          try {
            expect(
              started.map((s) => (s.status === 'fulfilled' ? 'up' : String(s.reason))),
              `round ${i}`,
            ).to.deep.equal(['up', 'up']);
            const [a, b] = started.map((s) => (s as PromiseFulfilledResult<{ url: string }>).value.url);
            const def = {
              meta: { machine_name: `twin_${i}`, version: '1.0.0' },
              states: [
                { name: 'a', type: 'initial' },
                { name: 'b', type: 'terminal' },
              ],
              transitions: [{ trigger: 't', source: 'a', dest: 'b' }],
            };
            const posts = await Promise.all(
              Array.from({ length: 12 }, (_, k) => call(k % 2 ? a : b, 'POST', '/api/v1/machines', def)),
            );
            expect(posts.map((p) => p.status).filter((s) => s !== 200 && s !== 201)).to.deep.equal([]);
            expect(posts.filter((p) => p.status === 201)).to.have.length(1);
          } finally {
            for (const s of started) if (s.status === 'fulfilled') s.value.child.kill('SIGTERM');
            await new Promise((r) => setTimeout(r, 300));
            await db.drop();
          }
        }
      },
    );
  });
}
