// Webhooks isolated and safe (issue #34, item 3), on every backend with receivers on 127.0.0.1:
// a receiver that never answers holds only its webhook's share of the request slots; substituted
// header values cannot inject headers and framing headers cannot be set; every error of an attempt
// counts and is recorded, the attempt bound holds, and a failed delivery lets the object's later
// changes go; WEBHOOK_ALLOWED_HOSTS at create and at send; response bodies kept only when asked;
// X-Netinv-Webhook bounds the chains of writes made in answer to deliveries (no loop).
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { serverOn } from '../../support/backend-server.js';
import { ADMIN_KEY, type TestServer } from '../../support/server.js';
import { eventually, Receiver } from '../../support/webhook-receiver.js';
import { WebhookDispatcher, type DispatcherOptions } from '../../../app/webhooks/dispatcher.js';
import { sendWebhook } from '../../../app/webhooks/request.js';
import { parseAllowedHosts } from '../../../engine/changes/webhook-targets.js';
import { ConfigError, loadConfig } from '../../../server/config/load-config.js';
import type { Config } from '../../../server/config/defaults.js';

/** Retries close together: 100, 200, 400 ms between attempts. */
const FAST = { webhookMaxAttempts: 6, webhookRetryBaseMs: 100, webhookRetryMaxMs: 400, webhookTimeoutMs: 2000 };
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const helpers = (h: { srv: TestServer }) => ({
  hook: async (body: Record<string, unknown>) => {
    const res = await h.srv.req('POST', '/api/extras/webhooks/', { type_create: true, ...body });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as Record<string, any>;
  },
  deliveries: async (query: string) => {
    const res = await h.srv.req('GET', `/api/extras/webhook-deliveries/?limit=1000&ordering=seq&${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.results as Record<string, any>[];
  },
  /** A dispatcher of the server's store beside its own (stopped first), with other settings. */
  dispatcher: async (opts: Partial<DispatcherOptions>) => {
    await h.srv.running.webhooks.stop();
    const d = new WebhookDispatcher(h.srv.running.ctx.storage, h.srv.running.ctx.changes, {
      maxAttempts: 3,
      retryBaseMs: 100,
      retryMaxMs: 400,
      timeoutMs: 2000,
      ...opts,
    } as DispatcherOptions);
    d.start();
    return d;
  },
});

for (const backend of BACKENDS)
  describe(`webhook slots on ${backend.name}`, function () {
    this.timeout(90000);
    // A long time limit: the hanging requests hold their slots for the whole test.
    const h = serverOn(backend, { ...FAST, webhookTimeoutMs: 30000 });
    const { hook } = helpers(h);

    it('a receiver that never answers holds its share of the slots; another webhook keeps delivering', async () => {
      const dead = new Receiver();
      dead.silent = true;
      await dead.start();
      const live = await new Receiver().start();
      try {
        await hook({ name: 'dead', content_types: ['dcim.site'], payload_url: dead.url('/dead') });
        await hook({ name: 'live', content_types: ['dcim.region'], payload_url: live.url('/live') });
        for (let i = 0; i < 12; i++)
          expect((await h.srv.req('POST', '/api/dcim/sites/', { name: `hang${i}`, slug: `hang${i}` })).status).to.equal(
            201,
          );
        await eventually(() => dead.got.length >= 4, 20000, 'the dead receiver holding requests');
        await pause(500);
        const made: string[] = [];
        for (let i = 0; i < 10; i++)
          made.push((await h.srv.req('POST', '/api/dcim/regions/', { name: `live${i}`, slug: `live${i}` })).body.id);
        await eventually(() => live.got.length >= 10, 8000, 'the healthy webhook delivering its 10 changes');
        expect(
          live
            .bodies('/live')
            .map((b) => b.data.id)
            .sort(),
        ).to.deep.equal([...made].sort());
        // 8 slots shared by 2 enabled webhooks: the dead one never held more than 4 requests.
        expect(dead.got.length).to.equal(4);
      } finally {
        await dead.stop();
        await live.stop();
      }
    });
  });

for (const backend of BACKENDS)
  describe(`webhook headers and failures on ${backend.name}`, function () {
    this.timeout(90000);
    const h = serverOn(backend, FAST);
    const { hook, deliveries, dispatcher } = helpers(h);
    const rx = new Receiver();
    before(async () => {
      await rx.start();
    });
    after(async () => {
      await rx.stop();
    });

    it(
      'refuses Host, Content-Length, Transfer-Encoding and other framing headers in additional_headers, and a ' +
        'content type with CR/LF',
      async () => {
        for (const line of [
          'Host: evil.example',
          'Content-Length: 5',
          'transfer-encoding: chunked',
          'Connection: close',
          'X-Hook-Signature: x',
          'X-Netinv-Webhook: x',
        ]) {
          const res = await h.srv.req('POST', '/api/extras/webhooks/', {
            name: 'framing',
            content_types: ['dcim.site'],
            type_create: true,
            payload_url: rx.url('/f'),
            additional_headers: `X-Ok: 1\n${line}`,
          });
          expect(res.status, line).to.equal(400);
          expect(Object.keys(res.body)).to.deep.equal(['additional_headers']);
          expect(res.body.additional_headers[0]).to.include(line.slice(0, line.indexOf(':')));
        }
        const type = await h.srv.req('POST', '/api/extras/webhooks/', {
          name: 'framing',
          content_types: ['dcim.site'],
          type_create: true,
          payload_url: rx.url('/f'),
          http_content_type: 'text/plain\r\nHost: evil.example',
        });
        expect(type.status).to.equal(400);
        expect(Object.keys(type.body)).to.deep.equal(['http_content_type']);
      },
    );

    it(
      'a substituted value with CR, LF or another control character is refused: the delivery fails saying ' +
        'why, and the later changes go',
      async () => {
        const w = await hook({
          name: 'names',
          content_types: ['dcim.site'],
          type_update: true,
          payload_url: rx.url('/names'),
          additional_headers: 'X-Name: {{ data.name }}\nX-Seq: {{ seq }}',
        });
        const made: Record<string, string> = {};
        for (const [key, name] of [
          ['lf', 'L4\nHost: evil.example'],
          ['cr', 'L4\rX'],
          ['esc', 'L4\u001bX'],
        ]) {
          const s = await h.srv.req('POST', '/api/dcim/sites/', { name, slug: `inj-${key}` });
          expect(s.status, JSON.stringify(s.body)).to.equal(201);
          made[key] = s.body.id;
          // Later changes of the object, with a name that can go: sent in order once the first has failed.
          expect((await h.srv.req('PATCH', `/api/dcim/sites/${s.body.id}/`, { name: `fixed-${key}` })).status).to.equal(
            200,
          );
          expect(
            (await h.srv.req('PATCH', `/api/dcim/sites/${s.body.id}/`, { description: `then-${key}` })).status,
          ).to.equal(200);
        }
        await eventually(
          async () => {
            const l = await deliveries(`webhook=${w.id}`);
            return l.length === 9 && l.every((d) => d.status.value !== 'pending');
          },
          20000,
          'every delivery done',
        );
        const log = await deliveries(`webhook=${w.id}`);
        for (const id of Object.values(made)) {
          const mine = log.filter((d) => d.changed_object_id === id);
          expect(mine.map((d) => d.status.value)).to.deep.equal(['failed', 'delivered', 'delivered']);
          expect(mine[0]).to.include({ attempts: 1, response_status: null });
          expect(mine[0].error).to.match(/X-Name.*control character/);
        }
        const got = rx.got.filter((r) => r.path === '/names');
        expect(got).to.have.length(6);
        for (const r of got) {
          expect(r.headers.host).to.equal(`127.0.0.1:${rx.port}`);
          expect(r.headers['x-name']).to.match(/^fixed-/);
        }
        for (const [key, id] of Object.entries(made)) {
          const mine = got.map((r) => JSON.parse(r.body)).filter((b) => b.data.id === id);
          expect(mine.map((b) => b.data.description ?? '')).to.deep.equal(['', `then-${key}`]);
        }
      },
    );

    it(
      "every error an attempt throws counts as an attempt and is recorded; the bound holds; the object's " +
        'later changes go',
      async () => {
        await h.srv.running.webhooks.stop(); // the dispatcher below sends these
        const w = await hook({
          name: 'throws',
          content_types: ['dcim.manufacturer'],
          type_update: true,
          payload_url: rx.url('/throws'),
        });
        const m = await h.srv.req('POST', '/api/dcim/manufacturers/', { name: 'boom', slug: 'boom' });
        await h.srv.req('PATCH', `/api/dcim/manufacturers/${m.body.id}/`, { description: 'after 1' });
        await h.srv.req('PATCH', `/api/dcim/manufacturers/${m.body.id}/`, { description: 'after 2' });
        let thrown = 0;
        const d = await dispatcher({
          maxAttempts: 3,
          // The request of the create throws (as http.request does on a header it refuses); the others go.
          send: (url, method, headers, body, opts) => {
            if (JSON.parse(body).event === 'created') {
              thrown++;
              throw new Error('Invalid character in header content ["X-Test"]');
            }
            return sendWebhook(url, method, headers, body, opts);
          },
        });
        try {
          await eventually(
            async () => {
              const l = await deliveries(`webhook=${w.id}`);
              return l.length === 3 && l.every((x) => x.status.value !== 'pending');
            },
            20000,
            'every delivery done',
          );
          const [first, ...rest] = await deliveries(`webhook=${w.id}`);
          expect(first).to.include({
            attempts: 3,
            next_attempt_at: null,
            response_status: null,
            error: 'Invalid character in header content ["X-Test"]',
          });
          expect(first.status.value).to.equal('failed');
          expect(rest.map((x) => x.status.value)).to.deep.equal(['delivered', 'delivered']);
          expect(thrown).to.equal(3);
          expect(rx.bodies('/throws').map((b) => b.data.description)).to.deep.equal(['after 1', 'after 2']);
        } finally {
          await d.stop();
        }
      },
    );

    it('keeps no response body unless WEBHOOK_KEEP_RESPONSE', async () => {
      const w = await hook({ name: 'answers', content_types: ['dcim.platform'], payload_url: rx.url('/answers') });
      let d = await dispatcher({});
      try {
        await h.srv.req('POST', '/api/dcim/platforms/', { name: 'p1', slug: 'p1' });
        await eventually(
          async () => (await deliveries(`webhook=${w.id}&status=delivered`)).length === 1,
          20000,
          'delivered',
        );
        expect((await deliveries(`webhook=${w.id}`))[0]).to.include({ response_status: 200, response_excerpt: '' });
      } finally {
        await d.stop();
      }
      d = await dispatcher({ keepResponse: true });
      try {
        await h.srv.req('POST', '/api/dcim/platforms/', { name: 'p2', slug: 'p2' });
        await eventually(
          async () => (await deliveries(`webhook=${w.id}&status=delivered`)).length === 2,
          20000,
          'delivered',
        );
        expect((await deliveries(`webhook=${w.id}`))[1]).to.include({
          response_status: 200,
          response_excerpt: 'answer 200',
        });
      } finally {
        await d.stop();
      }
    });
  });

for (const backend of BACKENDS)
  describe(`WEBHOOK_ALLOWED_HOSTS on ${backend.name}`, function () {
    this.timeout(90000);
    const h = serverOn(backend, {
      ...FAST,
      webhookAllowedHosts: '10.0.0.0/8:8443, hooks.example.com, [fd00::/8], 192.0.2.7',
    } as Partial<Config>);
    const { hook, deliveries, dispatcher } = helpers(h);
    const rx = new Receiver();
    before(async () => {
      await rx.start();
    });
    after(async () => {
      await rx.stop();
    });

    it('refuses a payload_url outside the list at create and at change, naming payload_url', async () => {
      const base = { content_types: ['dcim.site'], type_create: true };
      for (const url of [
        'http://127.0.0.1:9000/x',
        'https://10.1.2.3/x',
        'http://localhost:8443/x',
        'http://[::1]/x',
        'http://hooks.example.org/x',
        'http://192.0.2.8/',
      ]) {
        const res = await h.srv.req('POST', '/api/extras/webhooks/', { ...base, name: 'refused', payload_url: url });
        expect(res.status, url).to.equal(400);
        expect(Object.keys(res.body), url).to.deep.equal(['payload_url']);
        expect(res.body.payload_url[0]).to.include('WEBHOOK_ALLOWED_HOSTS');
      }
      let n = 0;
      for (const url of [
        'http://10.1.2.3:8443/x',
        'https://HOOKS.example.com/x',
        'http://[fd00::1]:81/x',
        'http://192.0.2.7:1234/',
      ])
        await hook({ ...base, name: `ok${n++}`, payload_url: url });
      const w = await hook({ ...base, name: 'moved', payload_url: 'http://10.9.9.9:8443/' });
      const moved = await h.srv.req('PATCH', `/api/extras/webhooks/${w.id}/`, { payload_url: 'http://10.9.9.9:8444/' });
      expect(moved.status).to.equal(400);
      expect(Object.keys(moved.body)).to.deep.equal(['payload_url']);
    });

    it(
      'refuses at send: a delivery to a target outside the list fails saying why, a name is checked by the ' +
        'addresses it resolves to',
      async () => {
        // Webhooks stored under another list (here: made by a dispatcher of this store with another list).
        const storage = h.srv.running.ctx.storage;
        const repoint = async (w: Record<string, any>, url: string) => {
          const row = (await storage.get('webhook', w.id))!;
          await storage.apply([
            {
              op: 'update',
              resource: 'webhook',
              row: { ...row, payload_url: url, version: (row.version as number) + 1 },
              expectVersion: row.version as number,
            },
          ]);
        };
        await repoint(
          await hook({ name: 'by-name', content_types: ['dcim.region'], payload_url: 'http://192.0.2.7/' }),
          `http://localhost:${rx.port}/by-name`,
        );
        await repoint(
          await hook({ name: 'by-ip', content_types: ['dcim.region'], payload_url: 'http://192.0.2.7/' }),
          `http://127.0.0.1:${rx.port}/by-ip`,
        );
        let d = await dispatcher({ allowedHosts: parseAllowedHosts('10.0.0.0/8, 127.0.0.1:1') });
        try {
          await h.srv.req('POST', '/api/dcim/regions/', { name: 'sent-nowhere', slug: 'sent-nowhere' });
          await eventually(
            async () => (await deliveries('changed_object_type=dcim.region&status=failed')).length === 2,
            20000,
            'both failed',
          );
          for (const x of await deliveries('changed_object_type=dcim.region')) {
            expect(x).to.include({ attempts: 1, response_status: null });
            expect(x.error).to.include('WEBHOOK_ALLOWED_HOSTS');
          }
          expect(rx.got).to.have.length(0);
        } finally {
          await d.stop();
        }
        // localhost resolves to 127.0.0.1 (and maybe ::1, which the list leaves out): sent to 127.0.0.1.
        d = await dispatcher({ allowedHosts: parseAllowedHosts(`127.0.0.0/8:${rx.port}`) });
        try {
          await h.srv.req('POST', '/api/dcim/regions/', { name: 'sent', slug: 'sent' });
          await eventually(() => rx.got.length >= 2, 20000, 'both delivered');
          expect(rx.got.map((r) => r.path).sort()).to.deep.equal(['/by-ip', '/by-name']);
        } finally {
          await d.stop();
        }
      },
    );
  });

describe('WEBHOOK_ALLOWED_HOSTS in the configuration', () => {
  it('takes names and CIDRs with an optional port, and refuses anything else naming it', () => {
    const cfg = loadConfig([], {
      WEBHOOK_ALLOWED_HOSTS: 'hooks.example.com:443, 10.0.0.0/8, [fd00::/8]:8443, 192.0.2.1',
    });
    expect(cfg.webhookAllowedHosts).to.equal('hooks.example.com:443, 10.0.0.0/8, [fd00::/8]:8443, 192.0.2.1');
    expect(loadConfig([], {}).webhookAllowedHosts).to.equal('');
    expect(loadConfig([], {}).webhookMaxChain).to.equal(3);
    expect(loadConfig([], {}).webhookKeepResponse).to.equal(false);
    for (const bad of ['10.0.0.0/33', 'hooks.example.com:0', 'http://x/', 'a b', '10.0.0.0/8:99999', ',']) {
      expect(() => loadConfig([], { WEBHOOK_ALLOWED_HOSTS: bad }), bad).to.throw(ConfigError, /WEBHOOK_ALLOWED_HOSTS/);
    }
  });
});

/**
 * A receiver that writes back into the server on each delivery, as a webhook's receiver may: a POST naming the delivery
 * it answers.
 */
function writeBack(
  h: { srv: TestServer },
  rx: Receiver,
  write: (r: { path: string; body: any }) => { path: string; body: Record<string, unknown> } | null,
) {
  const made: string[] = [];
  rx.act = async (r) => {
    if (made.length >= 30) return; // a loop the test would see anyway: not let run on
    const w = write({ path: r.path, body: JSON.parse(r.body) });
    if (!w) return;
    const header = r.headers['x-netinv-webhook'];
    const res = await fetch(h.srv.url + w.path, {
      method: 'POST',
      body: JSON.stringify(w.body),
      headers: {
        Authorization: `Token ${ADMIN_KEY}`,
        'Content-Type': 'application/json',
        ...(header ? { 'X-Netinv-Webhook': String(header) } : {}),
      },
    });
    if (res.status === 201) made.push(((await res.json()) as { id: string }).id);
  };
  return made;
}

for (const backend of BACKENDS)
  describe(`webhook chains on ${backend.name}`, function () {
    this.timeout(90000);
    const h = serverOn(backend, FAST);
    const { hook, deliveries } = helpers(h);
    const rx = new Receiver();
    before(async () => {
      await rx.start();
    });
    after(async () => {
      await rx.stop();
      rx.act = null;
    });

    it('one webhook whose receiver writes back: the chain stops after WEBHOOK_MAX_CHAIN deliveries', async () => {
      let n = 0;
      const made = writeBack(h, rx, (r) =>
        r.path === '/echo' ? { path: '/api/dcim/sites/', body: { name: `echo${++n}`, slug: `echo${n}` } } : null,
      );
      const w = await hook({ name: 'echo', content_types: ['dcim.site'], payload_url: rx.url('/echo') });
      const seed = await h.srv.req('POST', '/api/dcim/sites/', { name: 'echo0', slug: 'echo0' });
      await eventually(
        async () => (await deliveries(`webhook=${w.id}&status=skipped`)).length === 1,
        20000,
        'a skipped delivery',
      );
      await pause(1000);
      expect(made).to.have.length(3 + 1); // chains of 1, 2, 3 deliveries deliver; the 4th change plans none
      const log = await deliveries(`webhook=${w.id}`);
      expect(log.map((d) => [d.status.value, d.chain])).to.deep.equal([
        ['delivered', 0],
        ['delivered', 1],
        ['delivered', 2],
        ['delivered', 3],
        ['skipped', 4],
      ]);
      expect(log.map((d) => d.changed_object_id)).to.deep.equal([seed.body.id, ...made]);
      expect(log[4].error).to.include('WEBHOOK_MAX_CHAIN');
      // Each write made in answer names the delivery it answers in its change record.
      for (let i = 0; i < made.length; i++) {
        const rec = (await h.srv.req('GET', `/api/extras/object-changes/?changed_object_id=${made[i]}`)).body
          .results[0];
        expect(rec.webhook_delivery).to.equal(log[i].id);
      }
      const seedRec = (await h.srv.req('GET', `/api/extras/object-changes/?changed_object_id=${seed.body.id}`)).body
        .results[0];
      expect(seedRec.webhook_delivery).to.equal(null);
      expect(rx.got.filter((r) => r.path === '/echo').map((r) => r.headers['x-netinv-webhook'])).to.deep.equal(
        log.slice(0, 4).map((d) => d.id),
      );
    });

    it('two webhooks in a ring (a site makes a region makes a site ...) stop as well', async () => {
      let n = 0;
      const made = writeBack(h, rx, (r) => {
        if (r.path === '/ring-a') return { path: '/api/dcim/regions/', body: { name: `ring${++n}`, slug: `ring${n}` } };
        if (r.path === '/ring-b') return { path: '/api/dcim/sites/', body: { name: `ring${++n}`, slug: `ring${n}` } };
        return null;
      });
      const a = await hook({ name: 'ring-a', content_types: ['dcim.site'], payload_url: rx.url('/ring-a') });
      const b = await hook({ name: 'ring-b', content_types: ['dcim.region'], payload_url: rx.url('/ring-b') });
      await h.srv.req('POST', '/api/dcim/sites/', { name: 'ring0', slug: 'ring0' });
      await eventually(
        async () => (await deliveries('status=skipped')).some((d) => d.webhook.id === a.id || d.webhook.id === b.id),
        20000,
        'a skipped delivery',
      );
      await pause(1000);
      expect(made).to.have.length(4); // region (1), site (2), region (3), site (4: its delivery skipped)
      const skipped = await deliveries(`webhook=${a.id}&status=skipped`);
      expect(skipped.map((d) => [d.changed_object_id, d.chain])).to.deep.equal([[made[3], 4]]);
      expect(await deliveries('status=pending')).to.have.length(0);
    });
  });

for (const backend of BACKENDS.filter((b) => b.name === 'memory' || b.name === 'postgres'))
  describe(`X-Netinv-Webhook with WEBHOOK_MAX_CHAIN=0 on ${backend.name}`, function () {
    this.timeout(60000);
    const h = serverOn(backend, { ...FAST, webhookMaxChain: 0 } as Partial<Config>);
    const { hook, deliveries } = helpers(h);
    const rx = new Receiver();
    before(async () => {
      await rx.start();
    });
    after(async () => {
      await rx.stop();
    });

    it('a write naming a delivery of this store plans none; a header naming no delivery is ignored', async () => {
      const w = await hook({ name: 'zero', content_types: ['dcim.site'], payload_url: rx.url('/zero') });
      const first = await h.srv.req('POST', '/api/dcim/sites/', { name: 'z0', slug: 'z0' });
      await eventually(
        async () => (await deliveries(`webhook=${w.id}&status=delivered`)).length === 1,
        20000,
        'delivered',
      );
      const [d0] = await deliveries(`webhook=${w.id}`);
      const answer = await h.srv.req('POST', '/api/dcim/sites/', { name: 'z1', slug: 'z1' }, undefined, {
        'X-Netinv-Webhook': d0.id,
      });
      const unknown = await h.srv.req('POST', '/api/dcim/sites/', { name: 'z2', slug: 'z2' }, undefined, {
        'X-Netinv-Webhook': randomUUID(),
      });
      const garbage = await h.srv.req('POST', '/api/dcim/sites/', { name: 'z3', slug: 'z3' }, undefined, {
        'X-Netinv-Webhook': 'not a delivery',
      });
      for (const r of [answer, unknown, garbage]) expect(r.status).to.equal(201);
      await eventually(
        async () =>
          (await deliveries(`webhook=${w.id}`)).length === 4 &&
          (await deliveries(`webhook=${w.id}&status=pending`)).length === 0,
        20000,
        'all planned and done',
      );
      const log = await deliveries(`webhook=${w.id}`);
      expect(log.map((d) => [d.changed_object_id, d.status.value, d.chain])).to.deep.equal([
        [first.body.id, 'delivered', 0],
        [answer.body.id, 'skipped', 1],
        [unknown.body.id, 'delivered', 0],
        [garbage.body.id, 'delivered', 0],
      ]);
      const rec = async (id: string) =>
        (await h.srv.req('GET', `/api/extras/object-changes/?changed_object_id=${id}`)).body.results[0];
      expect((await rec(answer.body.id)).webhook_delivery).to.equal(d0.id);
      expect((await rec(unknown.body.id)).webhook_delivery).to.equal(null);
      expect((await rec(garbage.body.id)).webhook_delivery).to.equal(null);
      // Deliveries keep order per object, not across objects: z2 and z3 may arrive either way.
      expect(
        rx
          .bodies('/zero')
          .map((b) => b.data.name)
          .sort(),
      ).to.deep.equal(['z0', 'z2', 'z3']);
    });
  });
