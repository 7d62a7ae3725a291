// The tenancy and place filters as NetBox has them, on every backend: tenant, tenant_group,
// site_group and location, trees matching their descendants, on the resources that carry them and
// through references (a device's site's group), with their `_id` forms and `__n`.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/server-on.js';
import type { TestServer } from '../support/server.js';

async function made(srv: TestServer, path: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const r = await srv.req('POST', path, body);
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  return r.body;
}

for (const backend of BACKENDS) {
  describe(`tenancy and location filters on ${backend.name}`, function () {
    this.timeout(60000);
    const ids: Record<string, string> = {};
    const srv = serverOn(backend, async (s) => {
      const top = await made(s, '/api/tenancy/tenant-groups/', { name: 'Top', slug: 'top' });
      const sub = await made(s, '/api/tenancy/tenant-groups/', { name: 'Sub', slug: 'sub', parent: top.id });
      const t1 = await made(s, '/api/tenancy/tenants/', { name: 'T1', slug: 't1', group: sub.id });
      const t2 = await made(s, '/api/tenancy/tenants/', { name: 'T2', slug: 't2', group: top.id });
      await made(s, '/api/tenancy/tenants/', { name: 'T3', slug: 't3' });
      const world = await made(s, '/api/dcim/site-groups/', { name: 'World', slug: 'world' });
      const dcs = await made(s, '/api/dcim/site-groups/', { name: 'DCs', slug: 'dcs', parent: world.id });
      const a = await made(s, '/api/dcim/sites/', { name: 'a', slug: 'a', group: dcs.id, tenant: t1.id });
      const b = await made(s, '/api/dcim/sites/', { name: 'b', slug: 'b', group: world.id });
      const c = await made(s, '/api/dcim/sites/', { name: 'c', slug: 'c' });
      const bldg = await made(s, '/api/dcim/locations/', { name: 'Bldg', slug: 'bldg', site: a.id });
      const room = await made(s, '/api/dcim/locations/', {
        name: 'Room',
        slug: 'room',
        site: a.id,
        parent: bldg.id,
        tenant: t2.id,
      });
      await made(s, '/api/dcim/devices/', { name: 'd-room', site: a.id, location: room.id, tenant: t1.id });
      await made(s, '/api/dcim/devices/', { name: 'd-bldg', site: a.id, location: bldg.id, tenant: t2.id });
      await made(s, '/api/dcim/devices/', { name: 'd-b', site: b.id });
      await made(s, '/api/dcim/devices/', { name: 'd-c', site: c.id });
      await made(s, '/api/dcim/racks/', { name: 'r-room', site: a.id, location: room.id });
      await made(s, '/api/virtualization/virtual-machines/', { name: 'vm-b', site: b.id, tenant: t2.id });
      await made(s, '/api/ipam/prefixes/', { prefix: '10.0.0.0/8', tenant: t1.id });
      Object.assign(ids, { top: top.id, sub: sub.id, t1: t1.id, world: world.id, bldg: bldg.id, room: room.id });
    });
    const names = async (path: string): Promise<string[]> => {
      const r = await srv.req('GET', path);
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).to.equal(200);
      return r.body.results.map((o: { display: string }) => o.display).sort();
    };

    it('tenant_group matches tenants of the group and of the groups under it', async () => {
      expect(await names('/api/tenancy/tenants/?group=top')).to.deep.equal(['T1', 'T2']);
      expect(await names('/api/dcim/devices/?tenant_group=top')).to.deep.equal(['d-bldg', 'd-room']);
      expect(await names('/api/dcim/devices/?tenant_group=sub')).to.deep.equal(['d-room']);
      expect(await names(`/api/dcim/devices/?tenant_group_id=${ids.sub}`)).to.deep.equal(['d-room']);
      expect(await names('/api/virtualization/virtual-machines/?tenant_group=top')).to.deep.equal(['vm-b']);
      expect(await names('/api/ipam/prefixes/?tenant_group=sub')).to.deep.equal(['10.0.0.0/8']);
      expect(await names('/api/dcim/sites/?tenant_group=top')).to.deep.equal(['a']);
    });

    it('tenant and tenant_id, with __n keeping objects without one', async () => {
      expect(await names('/api/dcim/devices/?tenant=t1')).to.deep.equal(['d-room']);
      expect(await names(`/api/dcim/devices/?tenant_id=${ids.t1}`)).to.deep.equal(['d-room']);
      expect(await names('/api/dcim/devices/?tenant__n=t1')).to.deep.equal(['d-b', 'd-bldg', 'd-c']);
      expect(await names('/api/dcim/devices/?tenant=null')).to.deep.equal(['d-b', 'd-c']);
    });

    it('site_group matches sites of the group and its descendants, on sites (group) and through the site', async () => {
      expect(await names('/api/dcim/sites/?group=world')).to.deep.equal(['a', 'b']);
      expect(await names('/api/dcim/sites/?group=dcs')).to.deep.equal(['a']);
      expect(await names('/api/dcim/devices/?site_group=world')).to.deep.equal(['d-b', 'd-bldg', 'd-room']);
      expect(await names(`/api/dcim/devices/?site_group_id=${ids.world}`)).to.deep.equal(['d-b', 'd-bldg', 'd-room']);
      expect(await names('/api/virtualization/virtual-machines/?site_group=dcs')).to.deep.equal([]);
      expect(await names('/api/dcim/racks/?site_group=dcs')).to.deep.equal(['r-room']);
    });

    it('location matches the location and the ones under it; parent only direct children', async () => {
      expect(await names('/api/dcim/devices/?location=bldg')).to.deep.equal(['d-bldg', 'd-room']);
      expect(await names('/api/dcim/devices/?location=room')).to.deep.equal(['d-room']);
      expect(await names(`/api/dcim/devices/?location_id=${ids.bldg}`)).to.deep.equal(['d-bldg', 'd-room']);
      expect(await names('/api/dcim/racks/?location=bldg')).to.deep.equal(['r-room']);
      expect(await names(`/api/dcim/locations/?parent_id=${ids.bldg}`)).to.deep.equal(['Room']);
      expect(await names('/api/dcim/locations/?site=a&tenant=t2')).to.deep.equal(['Room']);
    });

    it('a move that would close a loop of locations is refused', async () => {
      const r = await srv.req('PATCH', `/api/dcim/locations/${ids.bldg}/`, { parent: ids.room });
      expect(r.status).to.equal(400);
      expect(r.body).to.have.property('parent');
    });
  });
}
