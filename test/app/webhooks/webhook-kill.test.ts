// kill -9 during webhook delivery loses no delivery: a server process (server/main.js) is killed
// with SIGKILL while writes are acknowledged and their deliveries are on the wire (a slow receiver);
// after a restart on the same store every acknowledged write reaches the receiver, signed (at least
// once: a repeat is allowed, a miss is not). memory:/dir and every configured database.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { startProcess } from '../../support/process.js';
import { eventually, Receiver } from '../../support/webhook-receiver.js';

const KEY = 'hook-kill-key-0123456789';
const SECRET = 'kill-secret';

const call = (url: string, method: string, p: string, body?: unknown) =>
  fetch(url + p, {
    method,
    headers: { Authorization: `Token ${KEY}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

for (const backend of BACKENDS)
  describe(`webhook deliveries survive SIGKILL on ${backend.name}`, function () {
    this.timeout(120000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let dir = '';
    let cfg = '';
    const rx = new Receiver();
    before(async function () {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-hook-kill-'));
      cfg = path.join(dir, 'config.json');
      // Short time limit: a claim that died with the process is taken over 2 x 1 s + 1 s later.
      fs.writeFileSync(
        cfg,
        JSON.stringify({
          tokens: [{ key: KEY, permissions: ['*'] }],
          webhookTimeoutMs: 1000,
          webhookRetryBaseMs: 100,
          webhookRetryMaxMs: 500,
          webhookMaxAttempts: 50,
        }),
      );
      db =
        backend.name === 'memory'
          ? { url: `memory:${path.join(dir, 'data')}`, drop: async () => {} }
          : await backend.url();
      if (!db) {
        this.skip();
        return;
      }
      await rx.start();
    });
    after(async () => {
      await rx.stop();
      await db?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('every acknowledged write is delivered after a restart', async () => {
      rx.delayMs = 40; // each answer takes a while: deliveries are in flight when the kill comes
      let srv = await startProcess(db!.url, cfg);
      const w = await call(srv.url, 'POST', '/api/extras/webhooks/', {
        name: 'k',
        content_types: ['dcim.site'],
        type_create: true,
        payload_url: rx.url('/k'),
        secret: SECRET,
      });
      expect(w.status).to.equal(201);
      const acked: string[] = [];
      let stop = false;
      const clients = Array.from({ length: 3 }, async (_, c) => {
        for (let i = 0; !stop; i++) {
          try {
            const res = await call(srv.url, 'POST', '/api/dcim/sites/', { name: `k${c}-${i}`, slug: `k${c}-${i}` });
            if (res.status === 201) acked.push(((await res.json()) as { id: string }).id);
          } catch {
            return;
          }
        }
      });
      // Killed once some deliveries arrived and more writes are acknowledged than delivered.
      await eventually(() => rx.got.length >= 5 && acked.length > rx.got.length + 5, 30000, 'deliveries under way');
      srv.child.kill('SIGKILL');
      stop = true;
      await Promise.all(clients);
      const before = rx.got.length;
      expect(acked.length).to.be.greaterThan(before);
      rx.delayMs = 0;
      srv = await startProcess(db!.url, cfg);
      try {
        const ids = () => new Set(rx.bodies('/k').map((b) => b.data.id as string));
        await eventually(
          () => acked.every((id) => ids().has(id)),
          60000,
          `all ${acked.length} acknowledged creates delivered`,
        );
        for (const r of rx.got)
          expect(r.headers['x-hook-signature']).to.equal(createHmac('sha512', SECRET).update(r.body).digest('hex'));
        // Nothing is left pending: the log says each was delivered.
        await eventually(
          async () => {
            const res = await call(srv.url, 'GET', '/api/extras/webhook-deliveries/?status=pending&limit=1');
            return ((await res.json()) as { count: number }).count === 0;
          },
          30000,
          'no pending delivery',
        );
      } finally {
        srv.child.kill('SIGTERM');
      }
    });
  });
