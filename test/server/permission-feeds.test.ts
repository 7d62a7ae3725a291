// Object permissions' constraints on the read side beyond REST (issue #39 point 2), on every backend: a
// token whose view permissions are constrained sees only the objects they keep in GraphQL (lists, one by
// id, nested lists, related objects, related counts), the change log (by each record's copy of the
// object: after the change, before it for a delete), the event stream and the webhook deliveries.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';
import { SseClient } from '../support/sse-client.js';
import { eventually, Receiver } from '../support/webhook-receiver.js';

type Obj = Record<string, any>;

for (const backend of BACKENDS)
  for (const idStyle of ['uuid', 'integer'])
    describe(`constrained views: GraphQL, change log, stream, webhooks (${backend.name}, ${idStyle} ids)`, function () {
      this.timeout(120_000);
      const h = serverOn(backend, { webhookMaxAttempts: 1, idStyle, streamKeepAliveMs: 200 });
      const rx = new Receiver();
      let key = '';
      const ids: Record<string, string> = {};
      const post = async (path: string, body: Obj) => {
        const res = await h.srv.req('POST', path, body);
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        return res.body as Obj;
      };
      const gql = async (query: string) => {
        const res = await h.srv.req('POST', '/graphql/', { query }, key);
        expect(res.status).to.equal(200);
        expect(res.body.errors, JSON.stringify(res.body.errors)).to.equal(undefined);
        return res.body.data as Obj;
      };

      before(async function () {
        if (!h.srv) this.skip();
        await rx.start();
        await post('/api/extras/webhooks/', {
          name: 'all',
          type_create: true,
          type_update: true,
          type_delete: true,
          content_types: ['dcim.site', 'dcim.rack'],
          payload_url: rx.url('/all'),
        });
        const user = await post('/api/users/users/', { username: 'ams', password: 'ams-password-1' });
        const prov = await h.srv.req(
          'POST',
          '/api/users/tokens/provision/',
          { username: 'ams', password: 'ams-password-1' },
          null,
        );
        key = prov.body.key as string;
        ids.sitesPermission = (
          await post('/api/users/permissions/', {
            name: 'ams sites',
            object_types: ['dcim.site'],
            actions: ['view'],
            constraints: { slug: 'ams01' },
            users: [user.id],
          })
        ).id;
        // A rack of ams01 whose name starts with r, and r3 wherever it is (at fra01: its site is hidden).
        await post('/api/users/permissions/', {
          name: 'ams racks',
          object_types: ['dcim.rack'],
          actions: ['view'],
          constraints: [{ site__slug: 'ams01', name__startswith: 'r' }, { name: 'r3' }],
          users: [user.id],
        });
        await post('/api/users/permissions/', {
          name: 'feeds',
          object_types: ['extras.object_change', 'extras.webhook_delivery'],
          actions: ['view'],
          users: [user.id],
        });
        for (const slug of ['ams01', 'fra01']) ids[slug] = (await post('/api/dcim/sites/', { name: slug, slug })).id;
        for (const [name, site] of [
          ['r1', 'ams01'],
          ['hidden', 'ams01'],
          ['r3', 'fra01'],
          ['r4', 'ams01'],
          ['r5', 'fra01'],
          ['r6', 'ams01'],
        ])
          ids[name] = (await post('/api/dcim/racks/', { name, site: ids[site] })).id;
        // r4 leaves the scope (renamed), r5 is deleted outside it, r1 is changed inside it.
        await h.srv.req('PATCH', `/api/dcim/racks/${ids.r4}/`, { name: 'x4' });
        await h.srv.req('DELETE', `/api/dcim/racks/${ids.r5}/`);
        await h.srv.req('PATCH', `/api/dcim/racks/${ids.r1}/`, { comments: 'changed' });
        await h.srv.req('DELETE', `/api/dcim/racks/${ids.r6}/`); // deleted in scope: judged by its copy before
      });
      after(async () => {
        await rx.stop();
      });

      it('GraphQL: lists, one by id, nested lists, related objects, counts: only what the token may view', async () => {
        const d = await gql(`{
        site_list { slug rack_count racks { name } }
        rack_list { name site { slug } }
        ams: site(id: "${ids.ams01}") { slug }
        fra: site(id: "${ids.fra01}") { slug }
        hidden: rack(id: "${ids.hidden}") { name }
        byHidden: rack_list(filters: {site: {slug: {exact: "fra01"}}}) { name }
        byShown: rack_list(filters: {site: {slug: {exact: "ams01"}}}) { name }
      }`);
        expect(d.site_list).to.deep.equal([{ slug: 'ams01', rack_count: 1, racks: [{ name: 'r1' }] }]);
        const racks = (d.rack_list as Obj[]).map((r) => [r.name, r.site?.slug ?? null]).sort();
        expect(racks).to.deep.equal([
          ['r1', 'ams01'],
          ['r3', null],
        ]);
        expect(d.ams).to.deep.equal({ slug: 'ams01' });
        expect(d.fra).to.equal(null);
        expect(d.hidden).to.equal(null);
        // A filter through a relation sees only the related objects the token may view: no probing hidden ones.
        expect(d.byHidden).to.deep.equal([]);
        expect(d.byShown).to.deep.equal([{ name: 'r1' }]);
        // The admin token sees them all: the same queries are not narrowed for it.
        const all = await h.srv.req('POST', '/graphql/', { query: '{ rack_list { name } }' });
        expect(all.body.data.rack_list).to.have.length(4);
      });

      /** What the token should see of the change log: [type, object name] in seq order. */
      const expected = [
        ['dcim.site', 'ams01'],
        ['dcim.rack', 'r1'],
        ['dcim.rack', 'r3'],
        ['dcim.rack', 'r4'], // created in scope; its rename leaves the scope (the record after it is not shown)
        ['dcim.rack', 'r6'],
        ['dcim.rack', 'r1'],
        ['dcim.rack', 'r6'],
      ];
      const named = (records: Obj[]) => records.map((c) => [c.changed_object_type, c.object_repr]);

      it('the change log: records of objects the token may view, judged by their copy; pages, counts', async () => {
        const all = await h.srv.req('GET', '/api/extras/object-changes/?ordering=seq&limit=1000', undefined, key);
        expect(all.status).to.equal(200);
        expect(named(all.body.results)).to.deep.equal(expected);
        expect(all.body.count).to.equal(expected.length);
        const second = await h.srv.req(
          'GET',
          '/api/extras/object-changes/?ordering=seq&limit=2&offset=2',
          undefined,
          key,
        );
        expect(second.body.count).to.equal(expected.length);
        expect(named(second.body.results)).to.deep.equal(expected.slice(2, 4));
        const admin = await h.srv.req('GET', '/api/extras/object-changes/?changed_object_type=dcim.rack&limit=1000');
        expect(admin.body.count).to.equal(10);
        // The same in an export, and in GraphQL (newest first, as the list's default order).
        const csv = await h.srv.req('GET', '/api/extras/object-changes/?format=csv', undefined, key);
        expect(csv.status).to.equal(200);
        const lines = String(csv.body).trim().split('\n');
        expect(lines).to.have.length(expected.length + 1);
        const g = await gql('{ object_change_list { object_repr changed_object_type } }');
        expect(named(g.object_change_list).reverse()).to.deep.equal(expected);
        // One by id: a record of an object outside the scope is absent.
        const hidden = admin.body.results.find((c: Obj) => c.object_repr === 'r5');
        const shown = admin.body.results.find((c: Obj) => c.object_repr === 'r3');
        const one = (id: string) => h.srv.req('GET', `/api/extras/object-changes/${id}/`, undefined, key);
        expect((await one(hidden.id)).status).to.equal(404);
        expect((await one(shown.id)).status).to.equal(200);
      });

      it('the event stream sends only those records', async () => {
        const got = await SseClient.open(h.srv.url, '/api/extras/object-changes/stream?since=0', key);
        expect(got.status, JSON.stringify(got.body)).to.equal(200);
        const c = got.client;
        try {
          await c.until((x) => x.events.length >= expected.length, 10_000, 'the records');
          await new Promise((r) => setTimeout(r, 300));
          expect(named(c.data())).to.deep.equal(expected);
        } finally {
          c.close();
        }
      });

      it('webhook deliveries: only those of objects the token may view', async () => {
        let adminRows: Obj[] = [];
        await eventually(async () => {
          const res = await h.srv.req('GET', '/api/extras/webhook-deliveries/?limit=1000');
          adminRows = res.body.results;
          return adminRows.length === 12;
        });
        const res = await h.srv.req('GET', '/api/extras/webhook-deliveries/?limit=1000', undefined, key);
        expect(res.status).to.equal(200);
        expect(res.body.count).to.equal(expected.length);
        expect((await gql('{ webhook_delivery_list { id } }')).webhook_delivery_list).to.have.length(expected.length);
        const changes = (await h.srv.req('GET', '/api/extras/object-changes/?limit=1000', undefined, key)).body.results;
        const shown = new Set((changes as Obj[]).map((c) => c.id));
        const change = (d: Obj) => (typeof d.change === 'object' ? d.change.id : d.change);
        expect((res.body.results as Obj[]).every((d) => shown.has(change(d)))).to.equal(true);
        const hidden = adminRows.find((d) => !shown.has(change(d)))!;
        const one = (id: string) => h.srv.req('GET', `/api/extras/webhook-deliveries/${id}/`, undefined, key);
        expect((await one(hidden.id)).status).to.equal(404);
        expect((await one((res.body.results as Obj[])[0].id)).status).to.equal(200);
      });

      it('a stream follows the token’s permissions as they change (from its next keep-alive)', async () => {
        const got = await SseClient.open(h.srv.url, '/api/extras/object-changes/stream', key);
        expect(got.status).to.equal(200);
        const c = got.client;
        try {
          await c.until((x) => x.comments.some((t) => t.startsWith('after seq')), 10_000, 'the opening');
          const moved = await h.srv.req('PATCH', `/api/users/permissions/${ids.sitesPermission}/`, {
            constraints: { slug: 'fra01' },
          });
          expect(moved.status).to.equal(200);
          await new Promise((r) => setTimeout(r, 600));
          for (const slug of ['ams01', 'fra01'])
            await h.srv.req('PATCH', `/api/dcim/sites/${ids[slug]}/`, { description: 'seen?' });
          await c.until((x) => x.events.length >= 1, 10_000, 'the record');
          await new Promise((r) => setTimeout(r, 300));
          expect(named(c.data())).to.deep.equal([['dcim.site', 'fra01']]);
        } finally {
          c.close();
        }
      });
    });
