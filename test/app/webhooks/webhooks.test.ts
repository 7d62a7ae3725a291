// Webhooks on every backend, delivered to receivers on 127.0.0.1: signed bodies in order per
// object, a receiver down for a while gets everything once it is back, one answering 500 is retried
// and then failed with the delivery log saying so; templates and headers; the write-only secret.
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { serverOn } from '../../support/backend-server.js';
import { startServer, type TestServer } from '../../support/server.js';
import { eventually, Receiver } from '../../support/webhook-receiver.js';
import { WebhookDispatcher } from '../../../app/webhooks/dispatcher.js';

const SECRET = 'hook-secret-0123456789';
const sign = (body: string, secret = SECRET) => createHmac('sha512', secret).update(body).digest('hex');
/** Retries close together: 100, 200, 400, 400, 400 ms between the 6 attempts. */
const FAST = { webhookMaxAttempts: 6, webhookRetryBaseMs: 100, webhookRetryMaxMs: 400, webhookTimeoutMs: 2000 };

for (const backend of BACKENDS)
  describe(`webhooks on ${backend.name}`, function () {
    this.timeout(90000);
    const h = serverOn(backend, FAST);
    const rx = new Receiver();
    before(async () => {
      await rx.start();
    });
    after(async () => {
      await rx.stop();
    });

    const hook = async (body: Record<string, unknown>) => {
      const res = await h.srv.req('POST', '/api/extras/webhooks/', {
        type_create: true,
        type_update: true,
        type_delete: true,
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body as Record<string, any>;
    };
    const deliveries = async (query: string) => {
      const res = await h.srv.req('GET', `/api/extras/webhook-deliveries/?limit=1000&${query}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.results as Record<string, any>[];
    };

    it('the secret is write-only: never answered, never in a change record; a PATCH without it keeps it', async () => {
      const w = await hook({
        name: 'sites',
        content_types: ['dcim.site'],
        payload_url: rx.url('/sites'),
        secret: SECRET,
        additional_headers: 'X-Team: netops',
      });
      expect(w).to.not.have.property('secret');
      expect(w).to.include({
        name: 'sites',
        payload_url: rx.url('/sites'),
        enabled: true,
        http_content_type: 'application/json',
        ssl_verification: true,
      });
      expect(w.http_method).to.deep.equal({ value: 'POST', label: 'POST' });
      const options = await h.srv.req('OPTIONS', '/api/extras/webhooks/');
      expect(options.body.actions.POST.secret).to.include({ write_only: true, read_only: false, max_length: 255 });
      const one = await h.srv.req('GET', `/api/extras/webhooks/${w.id}/`);
      expect(one.body).to.not.have.property('secret');
      const patched = await h.srv.req('PATCH', `/api/extras/webhooks/${w.id}/`, {
        http_content_type: 'application/json; charset=utf-8',
      });
      expect(patched.status).to.equal(200);
      const list = await h.srv.req('GET', '/api/extras/webhooks/?limit=100');
      const log = await h.srv.req('GET', `/api/extras/object-changes/?changed_object_id=${w.id}&ordering=seq`);
      expect(log.body.results.map((c: any) => c.action.value)).to.deep.equal(['create', 'update']);
      expect(log.body.results[0].changed_object_type).to.equal('extras.webhook');
      for (const text of [JSON.stringify(list.body), JSON.stringify(log.body)]) {
        expect(text).to.not.include(SECRET);
        expect(text).to.not.include('"secret"');
      }
    });

    it(
      'refuses unknown content types, no action, a URL that ' + 'is not http(s) and a header line without a name',
      async () => {
        const bad = await h.srv.req('POST', '/api/extras/webhooks/', {
          name: 'bad',
          content_types: ['dcim.nothing'],
          payload_url: 'ftp://x',
          additional_headers: 'no colon here',
        });
        expect(bad.status).to.equal(400);
        expect(Object.keys(bad.body).sort()).to.deep.equal([
          'additional_headers',
          'content_types',
          'payload_url',
          'type_create',
        ]);
        expect(
          (
            await h.srv.req('POST', '/api/extras/webhooks/', {
              name: 'bad',
              type_create: true,
              payload_url: 'http://127.0.0.1/',
            })
          ).body,
        ).to.have.property('content_types');
      },
    );

    it('delivers every change signed, with the default body, in order per object', async () => {
      const a = await h.srv.req('POST', '/api/dcim/sites/', { name: 'a1', slug: 'a1' }, undefined, {
        'X-Request-Id': 'hook-req-1',
      });
      const b = await h.srv.req('POST', '/api/dcim/sites/', { name: 'b1', slug: 'b1' });
      for (let i = 0; i < 5; i++) {
        await h.srv.req('PATCH', `/api/dcim/sites/${a.body.id}/`, { description: `a${i}` });
        await h.srv.req('PATCH', `/api/dcim/sites/${b.body.id}/`, { description: `b${i}` });
      }
      await h.srv.req('DELETE', `/api/dcim/sites/${b.body.id}/`);
      await h.srv.req('POST', '/api/dcim/regions/', { name: 'r1', slug: 'r1' }); // not a site: not sent
      await eventually(() => rx.bodies('/sites').length >= 13, 20000, '13 deliveries');
      await new Promise((r) => setTimeout(r, 300));
      const got = rx.got.filter((r) => r.path === '/sites');
      expect(got).to.have.length(13);
      for (const r of got) {
        expect(r.method).to.equal('POST');
        expect(r.headers['x-hook-signature']).to.equal(sign(r.body));
        expect(r.headers['x-team']).to.equal('netops');
        expect(r.headers['content-type']).to.equal('application/json; charset=utf-8');
      }
      const bodies = got.map((r) => JSON.parse(r.body));
      const first = bodies.find((x) => x.data.id === a.body.id && x.event === 'created')!;
      expect(Object.keys(first).sort()).to.deep.equal([
        'change_id',
        'data',
        'event',
        'model',
        'request_id',
        'seq',
        'snapshots',
        'timestamp',
        'username',
      ]);
      expect(first).to.include({ model: 'site', username: 'from config', request_id: 'hook-req-1' });
      expect(first.data).to.include({ name: 'a1', slug: 'a1' });
      expect(first.snapshots).to.deep.equal({ prechange: null, postchange: first.data });
      const rec = await h.srv.req('GET', `/api/extras/object-changes/?seq=${first.seq}`);
      expect(rec.body.results[0].id).to.equal(first.change_id);
      for (const id of [a.body.id, b.body.id]) {
        const mine = bodies.filter((x) => x.data.id === id);
        expect(mine.map((x) => x.seq)).to.deep.equal([...mine.map((x) => x.seq)].sort((p, q) => p - q));
      }
      const ofB = bodies.filter((x) => x.data.id === b.body.id);
      expect(ofB.map((x) => x.event)).to.deep.equal([
        'created',
        'updated',
        'updated',
        'updated',
        'updated',
        'updated',
        'deleted',
      ]);
      expect(ofB[2].snapshots.prechange.description).to.equal('b0');
      expect(ofB[2].snapshots.postchange.description).to.equal('b1');
      expect(ofB[6].snapshots.postchange).to.equal(null);
      // The delivery log: one row per change, delivered, filterable by webhook, status and change.
      const log = await deliveries('webhook=sites');
      expect(log).to.have.length(13);
      expect(
        log.every((d) => d.status.value === 'delivered' && d.attempts === 1 && d.response_status === 200),
      ).to.equal(true);
      expect(await deliveries('webhook=sites&status=pending')).to.have.length(0);
      const byChange = await deliveries(`change=${first.change_id}`);
      expect(byChange).to.have.length(1);
      expect(byChange[0]).to.include({
        seq: first.seq,
        changed_object_type: 'dcim.site',
        changed_object_id: a.body.id,
      });
      expect(byChange[0].request_excerpt).to.include('"event":"created"');
      expect(byChange[0].webhook).to.include({ name: 'sites' });
      expect((await h.srv.req('POST', '/api/extras/webhook-deliveries/', {})).status).to.equal(405);
    });

    it('a receiver down for a while gets every change, in order, once it is back', async () => {
      const down = await new Receiver().start();
      const port = down.port;
      await down.stop();
      await hook({
        name: 'regions-down',
        content_types: ['dcim.region'],
        type_update: false,
        type_delete: false,
        payload_url: `http://127.0.0.1:${port}/down`,
      });
      const made: string[] = [];
      for (let i = 0; i < 4; i++)
        made.push((await h.srv.req('POST', '/api/dcim/regions/', { name: `down${i}`, slug: `down${i}` })).body.id);
      await eventually(
        async () => {
          const d = await deliveries('webhook=regions-down');
          return d.length === 4 && d.some((x) => x.attempts >= 1);
        },
        10000,
        'a failed attempt',
      );
      const waiting = await deliveries('webhook=regions-down&status=pending');
      expect(waiting).to.have.length(4);
      expect(waiting.some((d) => d.error !== '' && d.response_status === null)).to.equal(true);
      await new Promise((r) => setTimeout(r, 300));
      await down.start(port);
      try {
        await eventually(
          async () => (await deliveries('webhook=regions-down&status=delivered')).length === 4,
          20000,
          'all 4 delivered',
        );
        const ids = down.bodies('/down').map((x) => x.data.id);
        expect([...new Set(ids)].sort()).to.deep.equal([...made].sort());
      } finally {
        await down.stop();
      }
    });

    it('a receiver answering 500 is retried up to the bound, then the delivery is failed and says why', async () => {
      const bad = await new Receiver().start();
      bad.status = 500;
      try {
        const w = await hook({ name: 'tags-500', content_types: ['extras.tag'], payload_url: bad.url('/err') });
        await h.srv.req('POST', '/api/extras/tags/', { name: 'T500', slug: 't500' });
        await eventually(async () => (await deliveries(`webhook=${w.id}&status=failed`)).length === 1, 20000, 'failed');
        const [d] = await deliveries(`webhook=${w.id}`);
        expect(d).to.include({
          attempts: FAST.webhookMaxAttempts,
          response_status: 500,
          error: 'HTTP 500',
          response_excerpt: '',
          next_attempt_at: null,
        });
        expect(bad.got).to.have.length(FAST.webhookMaxAttempts);
        // Retries were spaced out (doubling from 100 ms, at most 400).
        const gaps = bad.got.slice(1).map((r, i) => r.at - bad.got[i].at);
        expect(gaps.every((g) => g >= 80)).to.equal(true);
      } finally {
        await bad.stop();
      }
    });

    it('renders a body template and header templates; a webhook takes only changes made after it', async () => {
      const before = await h.srv.req('POST', '/api/ipam/vlans/', { vid: 10, name: 'before' });
      expect(before.status).to.equal(201);
      await hook({
        name: 'vlans-template',
        content_types: ['ipam.vlan'],
        payload_url: rx.url('/tpl'),
        http_method: 'PUT',
        http_content_type: 'text/plain',
        body_template:
          '{{ event }} {{ model }} {{ data.name }} vid={{ data.vid }} seq={{ seq }} name={{ data.name | tojson ' +
          '}} none=[{{ data.nothing }}]',
        additional_headers: 'X-Event: {{ event }}\nX-Seq: {{ seq }}',
      });
      const v = await h.srv.req('POST', '/api/ipam/vlans/', { vid: 20, name: 'after' });
      await eventually(() => rx.got.some((r) => r.path === '/tpl'), 20000, 'the template delivery');
      await new Promise((r) => setTimeout(r, 300));
      const got = rx.got.filter((r) => r.path === '/tpl');
      expect(got).to.have.length(1);
      const seq = Number(v.headers.get('x-change-seq'));
      expect(got[0].method).to.equal('PUT');
      expect(got[0].body).to.equal(`created vlan after vid=20 seq=${seq} name="after" none=[]`);
      expect(got[0].headers).to.include({ 'x-event': 'created', 'x-seq': String(seq), 'content-type': 'text/plain' });
      expect(got[0].headers).to.not.have.property('x-hook-signature'); // no secret, no signature
    });

    it('a disabled webhook plans nothing; deleting a webhook deletes its deliveries', async () => {
      const w = await hook({
        name: 'off',
        content_types: ['dcim.manufacturer'],
        payload_url: rx.url('/off'),
        enabled: false,
      });
      await h.srv.req('POST', '/api/dcim/manufacturers/', { name: 'M1', slug: 'm1' });
      const on = await hook({ name: 'on', content_types: ['dcim.manufacturer'], payload_url: rx.url('/on') });
      await h.srv.req('POST', '/api/dcim/manufacturers/', { name: 'M2', slug: 'm2' });
      await eventually(
        async () => (await deliveries(`webhook=${on.id}&status=delivered`)).length === 1,
        20000,
        'on delivered',
      );
      expect(await deliveries(`webhook=${w.id}`)).to.have.length(0);
      expect(rx.got.filter((r) => r.path === '/off')).to.have.length(0);
      expect((await h.srv.req('DELETE', `/api/extras/webhooks/${on.id}/`)).status).to.equal(204);
      expect((await deliveries('')).filter((d) => d.webhook.id === on.id)).to.have.length(0);
    });
  });

// Two processes on one database share the work: no record is planned twice, no delivery sent twice
// (no process dies here, so every change arrives exactly once), and the order per object holds.
for (const backend of BACKENDS.filter((b) => b.name !== 'memory'))
  describe(`webhooks from two processes on ${backend.name}`, function () {
    this.timeout(90000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    const servers: TestServer[] = [];
    const rx = new Receiver();
    before(async function () {
      db = await backend.url();
      if (!db) {
        this.skip();
        return;
      }
      for (let i = 0; i < 2; i++) servers.push(await startServer({ storage: db.url, ...FAST }));
      rx.delayMs = 5;
      await rx.start();
    });
    after(async () => {
      for (const s of servers) await s.close();
      await rx.stop();
      await db?.drop();
    });

    it('every change is delivered exactly once, in order per object', async () => {
      const [a, b] = servers;
      const w = await a.req('POST', '/api/extras/webhooks/', {
        name: 'both',
        content_types: ['dcim.site'],
        type_create: true,
        type_update: true,
        payload_url: rx.url('/both'),
        secret: SECRET,
      });
      expect(w.status).to.equal(201);
      const sites: string[] = [];
      for (let i = 0; i < 6; i++)
        sites.push(
          (await (i % 2 ? a : b).req('POST', '/api/dcim/sites/', { name: `two${i}`, slug: `two${i}` })).body.id,
        );
      // Both processes write changes to the same objects at once.
      await Promise.all(
        [a, b].map(async (srv, k) => {
          for (let round = 0; round < 5; round++)
            for (const id of sites)
              expect(
                (await srv.req('PATCH', `/api/dcim/sites/${id}/`, { description: `p${k}-${round}` })).status,
              ).to.equal(200);
        }),
      );
      const changes = (
        await a.req('GET', '/api/extras/object-changes/?changed_object_type=dcim.site&limit=1000&ordering=seq')
      ).body.results as Record<string, any>[];
      expect(changes).to.have.length(6 + 60);
      await eventually(() => rx.got.length >= changes.length, 60000, `${changes.length} deliveries`);
      await new Promise((r) => setTimeout(r, 500));
      const bodies = rx.bodies('/both');
      expect(bodies.map((x) => x.change_id).sort()).to.deep.equal(changes.map((c) => c.id).sort());
      for (const r of rx.got) expect(r.headers['x-hook-signature']).to.equal(sign(r.body));
      for (const id of sites) {
        const seqs = bodies.filter((x) => x.data.id === id).map((x) => x.seq);
        expect(seqs, id).to.deep.equal([...seqs].sort((p, q) => p - q));
      }
    });
  });

// Retention keeps what a delivery still needs: with CHANGELOG_MAX_ROWS=1, the records of deliveries
// pending for a receiver that is down stay through a prune, and are sent in full once it is back.
for (const backend of BACKENDS.filter((b) => b.name === 'memory' || b.name === 'postgres'))
  describe(`webhooks and change log retention on ${backend.name}`, function () {
    this.timeout(60000);
    const h = serverOn(backend, { ...FAST, webhookMaxAttempts: 50, changelogMaxRows: 1 });

    it('never prunes a record whose delivery is pending', async () => {
      const down = await new Receiver().start();
      const port = down.port;
      await down.stop();
      const w = await h.srv.req('POST', '/api/extras/webhooks/', {
        name: 'keep',
        content_types: ['dcim.site'],
        type_create: true,
        payload_url: `http://127.0.0.1:${port}/keep`,
      });
      expect(w.status).to.equal(201);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push((await h.srv.req('POST', '/api/dcim/sites/', { name: `keep${i}`, slug: `keep${i}` })).body.id);
      const pending = async () =>
        (await h.srv.req('GET', '/api/extras/webhook-deliveries/?status=pending&limit=100')).body.results as Record<
          string,
          any
        >[];
      await eventually(async () => (await pending()).length === 3, 10000, '3 pending');
      // newer records, not webhook ones
      await h.srv.req('POST', '/api/dcim/regions/', { name: 'later', slug: 'later' });
      await h.srv.req('POST', '/api/dcim/regions/', { name: 'later2', slug: 'later2' });
      await h.srv.running.ctx.retention.prune();
      for (const d of await pending()) {
        const rec = await h.srv.req('GET', `/api/extras/object-changes/${d.change}/`);
        expect(rec.status, `record ${d.seq} kept`).to.equal(200);
      }
      // What came before the oldest pending delivery's record went (the tokens, the webhook's creation).
      const oldest = Math.min(...(await pending()).map((d) => d.seq));
      const all = (await h.srv.req('GET', '/api/extras/object-changes/?limit=1000')).body.results as Record<
        string,
        any
      >[];
      expect(all.map((c) => c.seq).sort((p, q) => p - q)).to.deep.equal([
        oldest,
        oldest + 1,
        oldest + 2,
        oldest + 3,
        oldest + 4,
      ]);
      await down.start(port);
      try {
        await eventually(() => down.bodies('/keep').length >= 3, 20000, '3 deliveries');
        expect(
          down
            .bodies('/keep')
            .map((b) => b.data.id)
            .sort(),
        ).to.deep.equal([...ids].sort());
        // Once delivered, their records may go, and the deliveries with them.
        const log = async () =>
          (await h.srv.req('GET', '/api/extras/webhook-deliveries/?webhook=keep&limit=100')).body.results as Record<
            string,
            any
          >[];
        await eventually(async () => (await log()).every((d) => d.status.value === 'delivered'), 10000, 'delivered');
        await h.srv.req('POST', '/api/dcim/regions/', { name: 'later3', slug: 'later3' });
        await eventually(
          async () => {
            await h.srv.running.ctx.retention.prune();
            return (await h.srv.req('GET', '/api/extras/object-changes/?limit=10')).body.count === 1;
          },
          10000,
          'pruned to one record',
        );
        expect(await h.srv.running.webhooks.pruneDeliveries()).to.equal(3);
        expect(await log()).to.have.length(0);
      } finally {
        await down.stop();
      }
    });
  });

// https:// receivers: with ssl_verification a self-signed certificate is refused (and the delivery
// log says why), without it the request goes through.
describe('webhooks to https:// receivers', function () {
  this.timeout(60000);
  const h = serverOn(BACKENDS[0], { ...FAST, webhookMaxAttempts: 2 });
  let rx: Receiver;
  before(async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-hook-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          path.join(dir, 'k.pem'),
          '-out',
          path.join(dir, 'c.pem'),
          '-subj',
          '/CN=127.0.0.1',
          '-days',
          '1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { stdio: 'ignore' },
      );
    } catch {
      this.skip();
      return;
    }
    rx = await new Receiver({
      key: fs.readFileSync(path.join(dir, 'k.pem'), 'utf8'),
      cert: fs.readFileSync(path.join(dir, 'c.pem'), 'utf8'),
    }).start();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  after(async () => {
    await rx?.stop();
  });

  it('verifies the certificate unless ssl_verification is false', async () => {
    for (const [name, verify] of [
      ['strict', true],
      ['lax', false],
    ] as const) {
      const w = await h.srv.req('POST', '/api/extras/webhooks/', {
        name,
        content_types: ['extras.tag'],
        type_create: true,
        payload_url: rx.url(`/${name}`),
        ssl_verification: verify,
      });
      expect(w.status, JSON.stringify(w.body)).to.equal(201);
    }
    await h.srv.req('POST', '/api/extras/tags/', { name: 'tls', slug: 'tls' });
    const log = async (name: string) =>
      (await h.srv.req('GET', `/api/extras/webhook-deliveries/?webhook=${name}`)).body.results[0] as
        Record<string, any> | undefined;
    await eventually(
      async () => (await log('lax'))?.status.value === 'delivered' && (await log('strict'))?.status.value === 'failed',
      20000,
      'lax delivered, strict failed',
    );
    expect((await log('strict'))!.error).to.match(/certificate/i);
    expect(rx.got.map((r) => r.path)).to.deep.equal(['/lax']);
  });
});

// A planner that lags (here: none runs while the changes are made, then one starts) plans each record
// against the webhook as it was when the record was written: made by then, enabled, its types.
for (const backend of BACKENDS.filter((b) => b.name === 'memory' || b.name === 'postgres'))
  describe(`webhooks planned late on ${backend.name}`, function () {
    this.timeout(60000);
    const h = serverOn(backend, FAST);
    const rx = new Receiver();
    before(async () => {
      await rx.start();
    });
    after(async () => {
      await rx.stop();
    });

    it('takes each change as the webhook was then, not as it is when planned', async () => {
      await h.srv.running.webhooks.stop();
      const patch = async (body: Record<string, unknown>) =>
        expect((await h.srv.req('PATCH', `/api/extras/webhooks/${w.body.id}/`, body)).status).to.equal(200);
      const make = async (what: 'manufacturers' | 'platforms', name: string) =>
        expect((await h.srv.req('POST', `/api/dcim/${what}/`, { name, slug: name })).status).to.equal(201);
      await make('manufacturers', 'before-hook');
      const w = await h.srv.req('POST', '/api/extras/webhooks/', {
        name: 'late',
        content_types: ['dcim.manufacturer'],
        type_create: true,
        payload_url: rx.url('/late'),
        enabled: false,
      });
      expect(w.status).to.equal(201);
      await make('manufacturers', 'while-disabled');
      await patch({ enabled: true });
      await make('manufacturers', 'sent-1');
      await patch({ content_types: ['dcim.platform'] });
      await make('manufacturers', 'not-its-type-now');
      await make('platforms', 'sent-2');
      await patch({ enabled: false });
      await make('platforms', 'disabled-again');
      await patch({ enabled: true });
      await make('platforms', 'sent-3');
      const late = new WebhookDispatcher(h.srv.running.ctx.storage, h.srv.running.ctx.changes, {
        maxAttempts: 3,
        retryBaseMs: 100,
        retryMaxMs: 400,
        timeoutMs: 2000,
      });
      late.start();
      try {
        await eventually(() => rx.bodies('/late').length >= 3, 20000, '3 deliveries');
        await new Promise((r) => setTimeout(r, 300));
        expect(
          rx
            .bodies('/late')
            .map((b) => b.data.name)
            .sort(),
        ).to.deep.equal(['sent-1', 'sent-2', 'sent-3']); // different objects: any order
      } finally {
        await late.stop();
      }
    });

    it('an object with many deliveries waiting does not hide the others behind it', async () => {
      // Windows of 3: the 12 waiting for `hot` fill four of them, yet `cold` (written after) goes.
      const hot = (await h.srv.req('POST', '/api/dcim/sites/', { name: 'hot', slug: 'hot' })).body.id;
      const w = await h.srv.req('POST', '/api/extras/webhooks/', {
        name: 'busy',
        content_types: ['dcim.site'],
        type_create: true,
        type_update: true,
        payload_url: rx.url('/busy'),
      });
      expect(w.status).to.equal(201);
      for (let i = 0; i < 12; i++) await h.srv.req('PATCH', `/api/dcim/sites/${hot}/`, { description: `hot ${i}` });
      const cold = (await h.srv.req('POST', '/api/dcim/sites/', { name: 'cold', slug: 'cold' })).body.id;
      // hot's receiver end is down
      rx.answer = (r) => (r.path === '/busy' && JSON.parse(r.body).data.id === hot ? 503 : 200);
      const late = new WebhookDispatcher(h.srv.running.ctx.storage, h.srv.running.ctx.changes, {
        maxAttempts: 50,
        retryBaseMs: 100,
        retryMaxMs: 400,
        timeoutMs: 2000,
        sendWindow: 3,
      });
      late.start();
      try {
        await eventually(() => rx.bodies('/busy').some((b) => b.data.id === cold), 20000, 'cold delivered');
        const hots = rx.bodies('/busy').filter((b) => b.data.id === hot);
        expect(hots.length).to.be.greaterThan(0);
        expect(new Set(hots.map((b) => b.seq)).size).to.equal(1); // hot's first change is retried, its later ones wait
      } finally {
        await late.stop();
        rx.answer = null;
      }
    });
  });

// With READ_REPLICA=memory the dispatcher still reads the database (a replica may lag): changes
// made right after a webhook is created all reach it.
for (const backend of BACKENDS.filter((b) => b.name === 'postgres'))
  describe(`webhooks with a memory replica on ${backend.name}`, function () {
    this.timeout(60000);
    const h = serverOn(backend, { ...FAST, readReplica: 'memory' });
    const rx = new Receiver();
    before(async () => {
      await rx.start();
    });
    after(async () => {
      await rx.stop();
    });

    it('delivers every change made right after the webhook was created', async () => {
      const w = await h.srv.req('POST', '/api/extras/webhooks/', {
        name: 'replica',
        content_types: ['dcim.site'],
        type_create: true,
        payload_url: rx.url('/replica'),
        secret: SECRET,
      });
      expect(w.status).to.equal(201);
      const made = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          h.srv.req('POST', '/api/dcim/sites/', { name: `rep${i}`, slug: `rep${i}` }),
        ),
      );
      const ids = made.map((r) => r.body.id as string).sort();
      await eventually(() => rx.bodies('/replica').length >= 20, 20000, '20 deliveries');
      expect(
        rx
          .bodies('/replica')
          .map((b) => b.data.id)
          .sort(),
      ).to.deep.equal(ids);
      for (const r of rx.got) expect(r.headers['x-hook-signature']).to.equal(sign(r.body));
    });

    it(
      'delivers what another process writes right after it creates a webhook (the replica here may not hold ' +
        'it yet)',
      async () => {
        const other = await startServer({ storage: h.srv.running.ctx.config.storage, ...FAST });
        try {
          await other.running.webhooks.stop(); // only this process (the replica's) plans and sends
          const want: string[] = [];
          for (let k = 0; k < 8; k++) {
            const w = await other.req('POST', '/api/extras/webhooks/', {
              name: `fresh${k}`,
              content_types: ['dcim.region'],
              type_create: true,
              payload_url: rx.url(`/fresh${k}`),
            });
            expect(w.status).to.equal(201);
            const r = await other.req('POST', '/api/dcim/regions/', { name: `fresh${k}`, slug: `fresh${k}` });
            want.push(`/fresh${k}`);
            expect(r.status).to.equal(201);
          }
          // Webhook k takes the regions k..7: 8 + 7 + ... + 1 deliveries.
          await eventually(
            () => want.every((p, k) => rx.got.filter((g) => g.path === p).length >= 8 - k),
            20000,
            'every fresh webhook served',
          );
        } finally {
          await other.close();
        }
      },
    );
  });
