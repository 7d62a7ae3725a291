// NetBox's integer ids (ID_STYLE=integer), over HTTP on every backend: ids are JSON numbers in
// answers, nested references and change records; references are written as numbers; paths,
// `<fk>_id`, `id` and `start=` take integers (anything else: 404 for a path, 400 naming the
// parameter); a plain reference filter matches the slug only; ids order as numbers and are never
// handed out twice. And a uuid store refuses integers the same way.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/server-on.js';
import { ADMIN_KEY, type TestServer } from '../support/server.js';
import { SseClient } from '../support/sse-client.js';
import { eventually, Receiver } from '../support/webhook-receiver.js';

type Obj = Record<string, any>;

async function made(srv: TestServer, path: string, body: unknown): Promise<Obj> {
  const r = await srv.req('POST', path, body);
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  return r.body;
}

async function listed(srv: TestServer, path: string): Promise<Obj> {
  const r = await srv.req('GET', path);
  expect(r.status, `${path}: ${JSON.stringify(r.body)}`).to.equal(200);
  return r.body;
}

for (const backend of BACKENDS) {
  describe(`integer ids on ${backend.name}`, function () {
    this.timeout(60000);
    const srv = serverOn(backend, undefined, { idStyle: 'integer' });

    it('serves ids as numbers, in objects, nested references, urls and tags', async () => {
      const tag = await made(srv, '/api/extras/tags/', { name: 'Core', slug: 'core' });
      const region = await made(srv, '/api/dcim/regions/', { name: 'EU', slug: 'eu' });
      expect(region.id).to.be.a('number');
      const site = await made(srv, '/api/dcim/sites/', { name: 'AMS', slug: 'ams', region: region.id, tags: [tag.id] });
      expect(site.id).to.be.a('number');
      expect(site.url).to.match(new RegExp(`/api/dcim/sites/${site.id}/$`));
      expect(site.region.id).to.equal(region.id);
      expect(site.tags.map((t: Obj) => t.id)).to.deep.equal([tag.id]);
      const got = await listed(srv, `/api/dcim/sites/${site.id}/`);
      expect(got.id).to.equal(site.id);
      const nested = await made(srv, '/api/dcim/sites/', { name: 'FRA', slug: 'fra', region: { id: region.id } });
      expect(nested.region.id).to.equal(region.id);
      expect(nested.id).to.be.greaterThan(site.id);
    });

    it('answers 404 for a path id that is not an integer, 400 naming the filter', async () => {
      expect((await srv.req('GET', '/api/dcim/sites/abc/')).status).to.equal(404);
      expect((await srv.req('GET', '/api/dcim/sites/00000000-0000-4000-8000-000000000000/')).status).to.equal(404);
      expect((await srv.req('GET', '/api/dcim/sites/99999999/')).status).to.equal(404);
      for (const q of ['region_id=abc', 'id=abc', 'region_id=00000000-0000-4000-8000-000000000000']) {
        const r = await srv.req('GET', `/api/dcim/sites/?${q}`);
        expect(r.status, q).to.equal(400);
        expect(Object.keys(r.body), q).to.deep.equal([q.split('=')[0]]);
      }
      const bad = await srv.req('POST', '/api/dcim/sites/', { name: 'X', slug: 'x', region: 'abc' });
      expect(bad.status).to.equal(400);
      expect(bad.body).to.have.property('region');
    });

    it('matches a plain reference by slug only, ids through <fk>_id', async () => {
      const a = await made(srv, '/api/dcim/regions/', { name: 'A', slug: 'reg-a' });
      // A region whose slug is the other's id: `region=<that id>` names it, never the other.
      const b = await made(srv, '/api/dcim/regions/', { name: 'B', slug: String(a.id) });
      const sa = await made(srv, '/api/dcim/sites/', { name: 'SA', slug: 'sa', region: a.id });
      const sb = await made(srv, '/api/dcim/sites/', { name: 'SB', slug: 'sb', region: b.id });
      const byRef = await listed(srv, `/api/dcim/sites/?region=${a.id}`);
      expect(byRef.results.map((s: Obj) => s.id)).to.deep.equal([sb.id]);
      const byId = await listed(srv, `/api/dcim/sites/?region_id=${a.id}`);
      expect(byId.results.map((s: Obj) => s.id)).to.deep.equal([sa.id]);
      const bySlug = await listed(srv, '/api/dcim/sites/?region=reg-a');
      expect(bySlug.results.map((s: Obj) => s.id)).to.deep.equal([sa.id]);
      const byIdFilter = await listed(srv, `/api/dcim/sites/?id=${sa.id}&id=${sb.id}`);
      expect(byIdFilter.count).to.equal(2);
    });

    it('orders ids as numbers and pages with start=', async () => {
      const made12: number[] = [];
      for (let i = 0; i < 12; i++)
        made12.push((await made(srv, '/api/ipam/vlans/', { vid: 100 + i, name: `v${i}` })).id);
      const all = await listed(srv, '/api/ipam/vlans/?ordering=id&limit=100');
      const ids = all.results.map((v: Obj) => v.id);
      expect(ids).to.deep.equal([...ids].sort((x: number, y: number) => x - y));
      const from = made12[8];
      const page = await listed(srv, `/api/ipam/vlans/?start=${from}&limit=2`);
      expect(page.results.map((v: Obj) => v.id)).to.deep.equal([made12[8], made12[9]]);
      expect(page.next).to.contain(`start=${made12[10]}`);
      const desc = await listed(srv, '/api/ipam/vlans/?ordering=-id&limit=1');
      expect(desc.results[0].id).to.equal(made12[11]);
      expect((await srv.req('GET', '/api/ipam/vlans/?start=abc')).status).to.equal(400);
    });

    it('never hands out an id twice, even after a delete of the highest', async () => {
      const x = await made(srv, '/api/dcim/manufacturers/', { name: 'M1', slug: 'm1' });
      expect((await srv.req('DELETE', `/api/dcim/manufacturers/${x.id}/`)).status).to.equal(204);
      const y = await made(srv, '/api/dcim/manufacturers/', { name: 'M2', slug: 'm2' });
      expect(y.id).to.be.greaterThan(x.id);
    });

    it('takes numeric ids in bulk writes, and serves change records with numeric object ids', async () => {
      const [p, q] = (
        await srv.req('POST', '/api/dcim/platforms/', [
          { name: 'P1', slug: 'p1' },
          { name: 'P2', slug: 'p2' },
        ])
      ).body as Obj[];
      const patched = await srv.req('PATCH', '/api/dcim/platforms/', [
        { id: p.id, description: 'one' },
        { id: q.id, description: 'two' },
      ]);
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      expect(patched.body.map((o: Obj) => o.description)).to.deep.equal(['one', 'two']);
      const changes = await listed(
        srv,
        `/api/core/object-changes/?changed_object_type=dcim.platform&changed_object_id=${p.id}`,
      );
      expect(changes.count).to.equal(2);
      for (const c of changes.results) {
        expect(c.changed_object_id).to.equal(p.id);
        expect(c.object_data.id).to.equal(p.id);
      }
      const gone = await srv.req('DELETE', '/api/dcim/platforms/', [{ id: p.id }, { id: q.id }]);
      expect(gone.status).to.equal(204);
    });
    it('sends ids as numbers in webhook bodies and on the event stream', async () => {
      const rx = new Receiver();
      await rx.start();
      const stream = await SseClient.open(
        srv.url,
        '/api/extras/object-changes/stream?changed_object_type=dcim.site',
        ADMIN_KEY,
      );
      try {
        expect(stream.status).to.equal(200);
        const hook = await made(srv, '/api/extras/webhooks/', {
          name: 'sites',
          content_types: ['dcim.site'],
          payload_url: rx.url('/sites'),
          type_create: true,
        });
        expect(hook.id).to.be.a('number');
        const region = await made(srv, '/api/dcim/regions/', { name: 'Hooked', slug: 'hooked' });
        const site = await made(srv, '/api/dcim/sites/', { name: 'HK1', slug: 'hk1', region: region.id });
        await eventually(() => rx.got.some((r) => r.path === '/sites'), 20000, 'the webhook');
        const body = JSON.parse(rx.got.find((r) => r.path === '/sites')!.body);
        expect(body.data).to.include({ id: site.id, region: region.id });
        await stream.client.until((c) => c.data('change').length > 0, 10000, 'the change event');
        const event = stream.client.data('change')[0];
        expect(event).to.include({ changed_object_id: site.id });
        expect(event.object_data).to.include({ id: site.id, region: region.id });
      } finally {
        stream.client.close();
        await rx.stop();
      }
    });
  });

  describe(`uuid ids refuse integers on ${backend.name}`, function () {
    this.timeout(60000);
    const srv = serverOn(backend);

    it('answers 404 for a numeric path id and 400 for a numeric id filter', async () => {
      const site = await made(srv, '/api/dcim/sites/', { name: 'AMS', slug: 'ams' });
      expect(site.id).to.be.a('string');
      expect((await srv.req('GET', '/api/dcim/sites/17/')).status).to.equal(404);
      const r = await srv.req('GET', '/api/dcim/sites/?region_id=17');
      expect(r.status).to.equal(400);
      expect(Object.keys(r.body)).to.deep.equal(['region_id']);
      const w = await srv.req('POST', '/api/dcim/sites/', { name: 'X', slug: 'x', region: 17 });
      expect(w.status).to.equal(400);
    });
  });
}
