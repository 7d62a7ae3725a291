// Object permissions on writes (issue #39 points 2 and 5) on every backend, through real sockets:
// an object created, changed or deleted through a constrained permission satisfies the constraint
// before and after the write (checked in the write's transaction, references as the write leaves
// them), bulk writes are all or none, and nested references find only objects the caller may view.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';
import type { TestServer } from '../support/server.js';

type Obj = Record<string, any> & { id: string };

async function made(srv: TestServer, path: string, body: unknown): Promise<Obj> {
  const r = await srv.req('POST', path, body);
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  return r.body;
}

/** A user holding the object permissions `perms` (NetBox's fields), and a token of its own. */
async function userWith(srv: TestServer, name: string, perms: readonly object[]): Promise<string> {
  const u = await made(srv, '/api/users/users/', { username: name, password: `${name}-password` });
  for (const [i, p] of perms.entries())
    await made(srv, '/api/users/permissions/', { name: `${name} ${i}`, users: [u.id], ...p });
  const prov = await srv.req(
    'POST',
    '/api/users/tokens/provision/',
    { username: name, password: `${name}-password` },
    null,
  );
  expect(prov.status, JSON.stringify(prov.body)).to.equal(201);
  return prov.body.key as string;
}

/** A reference as a change record or an answer holds it (an id, or a nested object). */
const idOf = (v: unknown): unknown => (v !== null && typeof v === 'object' ? (v as Obj).id : v);

for (const backend of BACKENDS)
  for (const idStyle of ['uuid', 'integer'])
    describe(`object permissions on writes (${backend.name}, ${idStyle} ids)`, function () {
      this.timeout(120_000);
      const h = serverOn(backend, { idStyle });
      const s: Record<string, Obj> = {};
      let key = '';

      const device = async (id: string) => (await h.srv.req('GET', `/api/dcim/devices/${id}/`)).body as Obj;
      const named = async (name: string) =>
        (await h.srv.req('GET', `/api/dcim/devices/?name=${encodeURIComponent(name)}`)).body.count as number;

      before(async function () {
        const srv = h.srv;
        if (!srv) return;
        s.eu = await made(srv, '/api/dcim/regions/', { name: 'EU', slug: 'eu' });
        s.us = await made(srv, '/api/dcim/regions/', { name: 'US', slug: 'us' });
        s.ams01 = await made(srv, '/api/dcim/sites/', { name: 'ams01', slug: 'ams01', region: s.eu.id });
        s.ams02 = await made(srv, '/api/dcim/sites/', { name: 'ams02', slug: 'ams02', region: s.eu.id });
        s.nyc01 = await made(srv, '/api/dcim/sites/', { name: 'nyc01', slug: 'nyc01', region: s.us.id });
        s.visible = await made(srv, '/api/tenancy/tenants/', { name: 'visible-co', slug: 'visible-co' });
        s.hidden = await made(srv, '/api/tenancy/tenants/', { name: 'hidden-co', slug: 'hidden-co' });
        s.dAms = await made(srv, '/api/dcim/devices/', { name: 'd-ams', site: s.ams01.id });
        s.dShown = await made(srv, '/api/dcim/devices/', { name: 'd-nyc-shown', site: s.nyc01.id });
        s.dHidden = await made(srv, '/api/dcim/devices/', { name: 'd-nyc-hidden', site: s.nyc01.id });
        key = await userWith(srv, 'ams-team', [
          {
            object_types: ['dcim.device'],
            actions: ['add', 'change', 'delete'],
            constraints: { site__region__slug: 'eu' },
          },
          {
            object_types: ['dcim.device'],
            actions: ['view'],
            constraints: [{ site__region__slug: 'eu' }, { name: 'd-nyc-shown' }],
          },
          { object_types: ['tenancy.tenant'], actions: ['view'], constraints: { name: 'visible-co' } },
        ]);
      });

      it('changes an object inside the constraint; a PATCH moving it out is 403 and changes nothing', async () => {
        const srv = h.srv;
        const ok = await srv.req('PATCH', `/api/dcim/devices/${s.dAms.id}/`, { site: s.ams02.id }, key);
        expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
        // The site's region decides: the constraint crosses the reference as the write leaves it.
        const out = await srv.req('PATCH', `/api/dcim/devices/${s.dAms.id}/`, { site: s.nyc01.id, name: 'gone' }, key);
        expect(out.status, JSON.stringify(out.body)).to.equal(403);
        expect(out.body.code).to.equal('permission_denied');
        const put = await srv.req('PUT', `/api/dcim/devices/${s.dAms.id}/`, { name: 'gone', site: s.nyc01.id }, key);
        expect(put.status).to.equal(403);
        const now = await device(s.dAms.id);
        expect(now.name).to.equal('d-ams');
        expect(idOf(now.site)).to.equal(s.ams02.id);
        // Outside the constraint before the change: 403 where the caller may view it, else 404 (as a read).
        const shown = await srv.req('PATCH', `/api/dcim/devices/${s.dShown.id}/`, { site: s.ams01.id }, key);
        expect(shown.status).to.equal(403);
        const hidden = await srv.req('PATCH', `/api/dcim/devices/${s.dHidden.id}/`, { site: s.ams01.id }, key);
        expect(hidden.status).to.equal(404);
        expect(idOf((await device(s.dShown.id)).site)).to.equal(s.nyc01.id);
        expect(idOf((await device(s.dHidden.id)).site)).to.equal(s.nyc01.id);
      });

      it('a create outside the constraint is 403; a bulk create is all or none', async () => {
        const srv = h.srv;
        const out = await srv.req('POST', '/api/dcim/devices/', { name: 'new-nyc', site: s.nyc01.id }, key);
        expect(out.status, JSON.stringify(out.body)).to.equal(403);
        expect(await named('new-nyc')).to.equal(0);
        const bulk = await srv.req(
          'POST',
          '/api/dcim/devices/',
          [
            { name: 'bulk-ams', site: s.ams01.id },
            { name: 'bulk-nyc', site: s.nyc01.id },
          ],
          key,
        );
        expect(bulk.status).to.equal(403);
        expect((await named('bulk-ams')) + (await named('bulk-nyc'))).to.equal(0);
        const ok = await srv.req('POST', '/api/dcim/devices/', { name: 'new-ams', site: s.ams01.id }, key);
        expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
        s.newAms = ok.body;
      });

      it('bulk PATCH and DELETE are all or none; deleting an object outside: 404, or 403 if viewable', async () => {
        const srv = h.srv;
        const patch = await srv.req(
          'PATCH',
          '/api/dcim/devices/',
          [
            { id: s.newAms.id, name: 'renamed' },
            { id: s.dAms.id, site: s.nyc01.id },
          ],
          key,
        );
        expect(patch.status, JSON.stringify(patch.body)).to.equal(403);
        expect((await device(s.newAms.id)).name).to.equal('new-ams');
        expect(idOf((await device(s.dAms.id)).site)).to.equal(s.ams02.id);

        expect((await srv.req('DELETE', `/api/dcim/devices/${s.dHidden.id}/`, undefined, key)).status).to.equal(404);
        expect((await srv.req('DELETE', `/api/dcim/devices/${s.dShown.id}/`, undefined, key)).status).to.equal(403);
        const bulk = await srv.req('DELETE', '/api/dcim/devices/', [{ id: s.newAms.id }, { id: s.dShown.id }], key);
        expect(bulk.status).to.equal(403);
        expect(await named('new-ams')).to.equal(1);
        expect(await named('d-nyc-shown')).to.equal(1);
        expect((await srv.req('DELETE', `/api/dcim/devices/${s.newAms.id}/`, undefined, key)).status).to.equal(204);
        expect(await named('new-ams')).to.equal(0);
      });

      it('a nested reference finds only objects the caller may view (no probing by field)', async () => {
        const srv = h.srv;
        const url = `/api/dcim/devices/${s.dAms.id}/`;
        const hidden = await srv.req('PATCH', url, { tenant: { name: 'hidden-co' } }, key);
        const missing = await srv.req('PATCH', url, { tenant: { name: 'no-such-co' } }, key);
        expect(hidden.status).to.equal(400);
        expect(missing.status).to.equal(400);
        // The same answer as for a tenant that does not exist.
        expect(JSON.stringify(hidden.body).replace('hidden-co', 'X')).to.equal(
          JSON.stringify(missing.body).replace('no-such-co', 'X'),
        );
        const slug = await srv.req('PATCH', url, { tenant: { slug: 'hidden-co' } }, key);
        expect(slug.status).to.equal(400);
        expect(slug.body).to.have.property('tenant');
        // A tag by slug, likewise: the team may view no tag; by id it is found.
        const tag = await made(srv, '/api/extras/tags/', { name: 'blue', slug: 'blue' });
        const bySlug = await srv.req('PATCH', url, { tags: ['blue'] }, key);
        expect(bySlug.status).to.equal(400);
        expect(bySlug.body).to.have.property('tags');
        expect((await srv.req('PATCH', url, { tags: [tag.id] }, key)).status).to.equal(200);
        const seen = await srv.req('PATCH', url, { tenant: { name: 'visible-co' } }, key);
        expect(seen.status, JSON.stringify(seen.body)).to.equal(200);
        expect(idOf((await device(s.dAms.id)).tenant)).to.equal(s.visible.id);
        // A token that may only add sites, without any constraint, cannot probe tenants either.
        const siteKey = await userWith(srv, 'site-adder', [{ object_types: ['dcim.site'], actions: ['add'] }]);
        const probe = await srv.req(
          'POST',
          '/api/dcim/sites/',
          { name: 'probe', slug: 'probe', tenant: { name: 'hidden-co' } },
          siteKey,
        );
        expect(probe.status).to.equal(400);
        expect(probe.body).to.have.property('tenant');
        const plain = await srv.req('POST', '/api/dcim/sites/', { name: 'plain', slug: 'plain' }, siteKey);
        expect(plain.status, JSON.stringify(plain.body)).to.equal(201);
      });

      it('a token of the old form cannot hand out whole a permission its creator holds under constraints', async () => {
        const minter = await userWith(h.srv, 'minter', [
          { object_types: ['users.token'], actions: ['add'] },
          { object_types: ['dcim.device'], actions: ['change'], constraints: { site__region__slug: 'eu' } },
        ]);
        const out = await h.srv.req('POST', '/api/users/tokens/', { permissions: ['dcim.change_device'] }, minter);
        expect(out.status, JSON.stringify(out.body)).to.equal(400);
        expect(out.body).to.have.property('permissions');
      });

      it('allocation (available-prefixes) creates only what the add constraint admits', async () => {
        const srv = h.srv;
        const parent = await made(srv, '/api/ipam/prefixes/', { prefix: '10.20.0.0/16' });
        const allocator = await userWith(srv, 'allocator', [
          { object_types: ['ipam.prefix'], actions: ['view'] },
          { object_types: ['ipam.prefix'], actions: ['add'], constraints: { tenant__slug: 'visible-co' } },
        ]);
        const url = `/api/ipam/prefixes/${parent.id}/available-prefixes/`;
        const out = await srv.req('POST', url, { prefix_length: 24 }, allocator);
        expect(out.status, JSON.stringify(out.body)).to.equal(403);
        expect((await srv.req('GET', '/api/ipam/prefixes/?within=10.20.0.0/16')).body.count).to.equal(0);
        const ok = await srv.req('POST', url, { prefix_length: 24, tenant: s.visible.id }, allocator);
        expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
        expect(ok.body.prefix).to.equal('10.20.0.0/24');
      });

      it('an import through a constrained permission is refused (imports do not apply constraints)', async () => {
        const csv = 'name,site\nimp-ams,ams01\n';
        const out = await h.srv.req('POST', '/api/dcim/devices/', csv, key, { 'Content-Type': 'text/csv' });
        expect(out.status, JSON.stringify(out.body)).to.equal(403);
        expect(await named('imp-ams')).to.equal(0);
      });

      it('race: PATCHes leaving the constraint race moves into it; nothing outside is written through it', async () => {
        const srv = h.srv;
        const d = await made(srv, '/api/dcim/devices/', { name: 'd-race', site: s.ams01.id });
        const first = await srv.req('PATCH', `/api/dcim/devices/${d.id}/`, { name: 'd-race-0' }, key);
        expect(first.status).to.equal(200);
        const statuses = new Set<number>();
        const team = async () => {
          for (let i = 1; i <= 25; i++) {
            const body = i % 2 ? { site: s.nyc01.id, name: `out-${i}` } : { name: `in-${i}` };
            statuses.add((await srv.req('PATCH', `/api/dcim/devices/${d.id}/`, body, key)).status);
          }
        };
        const admin = async () => {
          for (let i = 1; i <= 25; i++) {
            const site = i % 2 ? s.nyc01.id : s.ams01.id;
            const r = await srv.req('PATCH', `/api/dcim/devices/${d.id}/`, { site });
            expect(r.status).to.equal(200);
          }
        };
        await Promise.all([team(), admin(), team()]);
        for (const st of statuses) expect([200, 403, 404]).to.include(st);
        const log = await srv.req('GET', `/api/extras/object-changes/?changed_object_id=${d.id}&limit=1000`);
        expect(log.status).to.equal(200);
        const records = (log.body.results as Obj[]).filter((x) => String(idOf(x.changed_object_id)) === String(d.id));
        const teamName = records.find(
          (x) => x.prechange_data?.name === 'd-race' && x.object_data?.name === 'd-race-0',
        )!.user_name;
        expect(teamName).to.not.equal(records.find((x) => x.action?.value === 'create')!.user_name);
        const mine = records.filter((x) => x.user_name === teamName);
        expect(mine.length).to.be.greaterThan(0);
        // Each write through the constrained permission found the device inside and left it inside.
        for (const r of mine) {
          expect(String(idOf(r.prechange_data.site)), JSON.stringify(r)).to.equal(String(s.ams01.id));
          expect(String(idOf(r.object_data.site)), JSON.stringify(r)).to.equal(String(s.ams01.id));
        }
        expect(mine.some((r) => String(r.object_data.name).startsWith('out-'))).to.equal(false);
      });
    });
