// Object permissions' constraints on REST reads (issue #39 point 2) on every backend: a token whose view
// of a resource is constrained sees only the objects inside it in lists, counts, cursor pages, exports,
// details and OPTIONS (404 outside), related counts, a prefix's children and available IPs; `$user` and
// custom field constraints; two tokens with different scopes never share a kept page.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';
import type { TestServer } from '../support/server.js';

/** A user holding `permissions` (object permissions naming it) and a token of its own. */
async function userWith(
  srv: TestServer,
  username: string,
  permissions: readonly { object_types: string[]; constraints?: unknown }[],
): Promise<{ id: string; key: string }> {
  const u = await srv.req('POST', '/api/users/users/', { username, password: `${username}-password` });
  expect(u.status, JSON.stringify(u.body)).to.equal(201);
  for (const [i, p] of permissions.entries()) {
    const made = await srv.req('POST', '/api/users/permissions/', {
      name: `${username} ${i}`,
      actions: ['view'],
      users: [u.body.id],
      ...p,
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
  }
  const prov = await srv.req(
    'POST',
    '/api/users/tokens/provision/',
    { username, password: `${username}-password` },
    null,
  );
  expect(prov.status, JSON.stringify(prov.body)).to.equal(201);
  return { id: String(u.body.id), key: prov.body.key as string };
}

async function cacheHits(srv: TestServer): Promise<number> {
  const m = /^netinv_page_cache_hits_total (\d+)$/m.exec(await (await fetch(`${srv.url}/metrics`)).text());
  return m ? Number(m[1]) : 0;
}

const prefixesOf = (body: { results: { prefix: string }[] }) => body.results.map((p) => p.prefix).sort();

for (const backend of BACKENDS)
  for (const idStyle of ['uuid', 'integer'] as const)
    describe(`constrained view permissions on REST reads (${backend.name}, ${idStyle} ids)`, function () {
      this.timeout(120_000);
      const h = serverOn(backend, { idStyle });
      const ids: Record<string, string> = {};
      let tina: { id: string; key: string };

      before(async function () {
        if (!h.srv) return;
        const srv = h.srv;
        const post = async (path: string, body: unknown) => {
          const got = await srv.req('POST', path, body);
          expect(got.status, `${path} ${JSON.stringify(got.body)}`).to.equal(201);
          return String(got.body.id);
        };
        ids.ta = await post('/api/tenancy/tenants/', { name: 'Team A', slug: 'ta' });
        ids.tb = await post('/api/tenancy/tenants/', { name: 'Team B', slug: 'tb' });
        ids.sa = await post('/api/dcim/sites/', { name: 'Site A', slug: 'sa', tenant: ids.ta });
        ids.sb = await post('/api/dcim/sites/', { name: 'Site B', slug: 'sb', tenant: ids.tb });
        const prefix = (p: string, tenant: string, site: string) =>
          post('/api/ipam/prefixes/', { prefix: p, tenant: ids[tenant], site: ids[site] });
        ids.p1 = await prefix('10.1.0.0/16', 'ta', 'sa');
        ids.p11 = await prefix('10.1.1.0/24', 'ta', 'sa');
        ids.p12 = await prefix('10.1.2.0/24', 'tb', 'sa');
        ids.p2 = await prefix('10.2.0.0/16', 'tb', 'sb');
        tina = await userWith(srv, 'tina', [
          { object_types: ['ipam.prefix', 'dcim.site'], constraints: { tenant__slug: 'ta' } },
          { object_types: ['tenancy.tenant'] },
        ]);
      });

      it('lists, counts, cursor pages and exports hold only the objects inside the constraint', async () => {
        const srv = h.srv;
        const all = await srv.req('GET', '/api/ipam/prefixes/');
        expect(all.body.count).to.equal(4);
        const mine = await srv.req('GET', '/api/ipam/prefixes/', undefined, tina.key);
        expect(mine.status).to.equal(200);
        expect(mine.body.count).to.equal(2);
        expect(prefixesOf(mine.body)).to.deep.equal(['10.1.0.0/16', '10.1.1.0/24']);
        const paged = await srv.req('GET', '/api/ipam/prefixes/?limit=1', undefined, tina.key);
        expect(paged.body.count).to.equal(2);
        expect(paged.body.next).to.be.a('string');
        // A filter ANDs with the constraint: tenant tb's prefixes are none of tina's.
        const other = await srv.req('GET', '/api/ipam/prefixes/?tenant=tb', undefined, tina.key);
        expect(other.body.count).to.equal(0);
        const first = (await srv.req('GET', '/api/ipam/prefixes/?ordering=id&limit=1')).body.results[0].id;
        const cursor = await srv.req('GET', `/api/ipam/prefixes/?start=${first}&limit=10`, undefined, tina.key);
        expect(cursor.status, JSON.stringify(cursor.body)).to.equal(200);
        expect(prefixesOf(cursor.body)).to.deep.equal(['10.1.0.0/16', '10.1.1.0/24']);
        const csv = await srv.req('GET', '/api/ipam/prefixes/?format=csv', undefined, tina.key);
        expect(csv.status).to.equal(200);
        const text = String(csv.body);
        expect(text).to.include('10.1.1.0/24');
        expect(text).to.not.include('10.2.0.0/16');
        expect(text).to.not.include('10.1.2.0/24');
        const yaml = await srv.req('GET', '/api/ipam/prefixes/?format=yaml', undefined, tina.key);
        expect(String(yaml.body)).to.include('10.1.0.0/16').and.not.include('10.2.0.0/16');
        // A parent it may not view is no prefix, as on its detail.
        const hidden = await srv.req('GET', `/api/ipam/prefixes/?parent=${ids.p2}`, undefined, tina.key);
        expect(hidden.status).to.equal(400);
        expect(hidden.body).to.have.property('parent');
        const kids = await srv.req('GET', `/api/ipam/prefixes/?parent=${ids.p1}`, undefined, tina.key);
        expect(prefixesOf(kids.body)).to.deep.equal(['10.1.1.0/24']);
        const sites = await srv.req('GET', '/api/dcim/sites/', undefined, tina.key);
        expect(sites.body.results.map((s: { slug: string }) => s.slug)).to.deep.equal(['sa']);
      });

      it('a detail or OPTIONS outside the constraint is 404, as a missing object', async () => {
        const srv = h.srv;
        const inside = await srv.req('GET', `/api/ipam/prefixes/${ids.p1}/`, undefined, tina.key);
        expect(inside.status).to.equal(200);
        expect(inside.body.prefix).to.equal('10.1.0.0/16');
        expect((await srv.req('OPTIONS', `/api/ipam/prefixes/${ids.p1}/`, undefined, tina.key)).status).to.equal(200);
        for (const id of [ids.p2, ids.p12]) {
          const out = await srv.req('GET', `/api/ipam/prefixes/${id}/`, undefined, tina.key);
          expect(out.status).to.equal(404);
          expect(out.body).to.deep.equal({ detail: 'Not found.' });
          expect((await srv.req('OPTIONS', `/api/ipam/prefixes/${id}/`, undefined, tina.key)).status).to.equal(404);
        }
        expect((await srv.req('GET', `/api/dcim/sites/${ids.sb}/`, undefined, tina.key)).status).to.equal(404);
        // The admin still sees it.
        expect((await srv.req('GET', `/api/ipam/prefixes/${ids.p2}/`)).status).to.equal(200);
      });

      it('GraphQL ANDs the scope in: a constrained caller’s list holds what its REST list holds', async () => {
        const srv = h.srv;
        const query = '{ prefix_list { prefix } }';
        const got = await srv.req('POST', '/graphql/', { query }, tina.key);
        expect(got.body.errors, JSON.stringify(got.body)).to.equal(undefined);
        expect(prefixesOf({ results: got.body.data.prefix_list })).to.deep.equal(['10.1.0.0/16', '10.1.1.0/24']);
        const rest = await srv.req('GET', '/api/ipam/prefixes/?limit=1000', undefined, tina.key);
        expect(prefixesOf({ results: got.body.data.prefix_list })).to.deep.equal(prefixesOf(rest.body));
        const tenants = await srv.req('POST', '/graphql/', { query: '{ tenant_list { slug } }' }, tina.key);
        expect(tenants.body.data.tenant_list).to.have.length(2); // an unconstrained view
        const admin = await srv.req('POST', '/graphql/', { query });
        expect(admin.body.data.prefix_list).to.have.length(4);
      });

      it('related counts and a prefix’s children count only what the caller may view', async () => {
        const srv = h.srv;
        const asAdmin = await srv.req('GET', `/api/tenancy/tenants/${ids.tb}/`);
        expect(asAdmin.body.prefix_count).to.equal(2);
        const asTina = await srv.req('GET', `/api/tenancy/tenants/${ids.tb}/`, undefined, tina.key);
        expect(asTina.status).to.equal(200);
        expect(asTina.body.prefix_count).to.equal(0);
        expect(asTina.body.site_count).to.equal(0);
        const ta = await srv.req('GET', `/api/tenancy/tenants/?slug=ta`, undefined, tina.key);
        expect(ta.body.results[0]).to.include({ prefix_count: 2, site_count: 1 });
        const site = await srv.req('GET', `/api/dcim/sites/${ids.sa}/`, undefined, tina.key);
        expect(site.body.prefix_count).to.equal(2); // 10.1.2.0/24 is at the site but of tenant tb
        expect((await srv.req('GET', `/api/dcim/sites/${ids.sa}/`)).body.prefix_count).to.equal(3);
        // Addresses, which tina may not view at all, count 0 for her.
        const ip = await srv.req('POST', '/api/ipam/ip-addresses/', { address: '10.1.1.5/24', tenant: ids.ta });
        expect(ip.status, JSON.stringify(ip.body)).to.equal(201);
        expect((await srv.req('GET', `/api/tenancy/tenants/${ids.ta}/`)).body.ipaddress_count).to.equal(1);
        const noView = await srv.req('GET', `/api/tenancy/tenants/${ids.ta}/`, undefined, tina.key);
        expect(noView.body.ipaddress_count).to.equal(0);
        const block = await srv.req('GET', `/api/ipam/prefixes/${ids.p1}/`, undefined, tina.key);
        expect(block.body.children).to.equal(1);
        expect((await srv.req('GET', `/api/ipam/prefixes/${ids.p1}/`)).body.children).to.equal(2);
      });

      it('available IPs answer for a parent inside the constraint, 404 outside', async () => {
        const srv = h.srv;
        const free = await srv.req('GET', `/api/ipam/prefixes/${ids.p11}/available-ips/?limit=2`, undefined, tina.key);
        expect(free.status, JSON.stringify(free.body)).to.equal(200);
        expect(free.body).to.have.length(2);
        const hidden = await srv.req('GET', `/api/ipam/prefixes/${ids.p2}/available-ips/`, undefined, tina.key);
        expect(hidden.status).to.equal(404);
        const blocks = await srv.req('GET', `/api/ipam/prefixes/${ids.p12}/available-prefixes/`, undefined, tina.key);
        expect(blocks.status).to.equal(404);
      });

      it('$user and custom field constraints: each user sees the sites it owns', async () => {
        const srv = h.srv;
        // `$user` is the user's id: a number in an integer store.
        const cf = await srv.req('POST', '/api/extras/custom-fields/', {
          name: 'owner',
          type: idStyle === 'integer' ? 'integer' : 'text',
          content_types: ['dcim.site'],
        });
        expect(cf.status, JSON.stringify(cf.body)).to.equal(201);
        const uma = await userWith(srv, 'uma', [
          { object_types: ['dcim.site'], constraints: { custom_field_data__owner: '$user' } },
        ]);
        const vic = await userWith(srv, 'vic', [{ object_types: ['dcim.site'], constraints: { cf_owner: '$user' } }]);
        for (const [site, owner] of [
          [ids.sa, uma.id],
          [ids.sb, vic.id],
        ] as const)
          expect(
            (
              await srv.req('PATCH', `/api/dcim/sites/${site}/`, {
                custom_fields: { owner: idStyle === 'integer' ? Number(owner) : owner },
              })
            ).status,
          ).to.equal(200);
        const slugs = async (key: string) =>
          (await srv.req('GET', '/api/dcim/sites/', undefined, key)).body.results.map((s: { slug: string }) => s.slug);
        expect(await slugs(uma.key)).to.deep.equal(['sa']);
        expect(await slugs(vic.key)).to.deep.equal(['sb']);
        expect((await srv.req('GET', `/api/dcim/sites/${ids.sa}/`, undefined, vic.key)).status).to.equal(404);
        // Asked again, each from the page cache where there is one: still only its own.
        expect(await slugs(uma.key)).to.deep.equal(['sa']);
        expect(await slugs(vic.key)).to.deep.equal(['sb']);
      });

      it('two tokens with different scopes never share a kept page', async () => {
        const srv = h.srv;
        // The same permissions as tina's but for the constraint's value.
        const tom = await userWith(srv, 'tom', [
          { object_types: ['ipam.prefix', 'dcim.site'], constraints: { tenant__slug: 'tb' } },
          { object_types: ['tenancy.tenant'] },
        ]);
        const url = '/api/ipam/prefixes/?ordering=prefix';
        // A token's first use writes its last_used (after the answer), which moves the store's generation
        // and so drops kept pages: one round first, then the rounds counted.
        for (const key of [tina.key, tom.key, undefined]) await srv.req('GET', '/api/dcim/sites/', undefined, key);
        await new Promise((r) => setTimeout(r, 300));
        const hits = await cacheHits(srv);
        for (let i = 0; i < 3; i++) {
          expect(prefixesOf((await srv.req('GET', url, undefined, tina.key)).body)).to.deep.equal([
            '10.1.0.0/16',
            '10.1.1.0/24',
          ]);
          expect(prefixesOf((await srv.req('GET', url, undefined, tom.key)).body)).to.deep.equal([
            '10.1.2.0/24',
            '10.2.0.0/16',
          ]);
          expect((await srv.req('GET', url)).body.count).to.equal(4);
        }
        // Where pages are kept (memory), the second and third rounds were sent from them.
        if (backend.driver === 'memory') expect(await cacheHits(srv)).to.be.at.least(hits + 6);
      });
    });
