// Related counts (NetBox's device_count, prefix_count, ...) on every backend: each equals the count
// of the list filtered by the reference, follows writes and deletes, narrows with fields/omit, is
// in the OpenAPI document, and is ignored when a client writes an object back as it read it.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/server-on.js';
import { RESOURCES, resourcePath } from '../../engine/schema/registry.js';
import type { TestServer } from '../support/server.js';

async function made(srv: TestServer, path: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const r = await srv.req('POST', path, body);
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  return r.body;
}

for (const backend of BACKENDS) {
  describe(`related counts on ${backend.name}`, function () {
    this.timeout(60000);
    const ids: Record<string, string> = {};
    const srv = serverOn(backend, async (s) => {
      const tenant = await made(s, '/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
      const [a, b] = [
        await made(s, '/api/dcim/sites/', { name: 'a', slug: 'a', tenant: tenant.id }),
        await made(s, '/api/dcim/sites/', { name: 'b', slug: 'b' }),
      ];
      const rack = await made(s, '/api/dcim/racks/', { name: 'r1', site: a.id });
      for (let i = 0; i < 3; i++)
        await made(s, '/api/dcim/devices/', {
          name: `d${i}`,
          site: a.id,
          rack: i < 2 ? rack.id : null,
          tenant: i ? tenant.id : null,
        });
      for (let i = 0; i < 5; i++)
        await made(s, '/api/ipam/prefixes/', {
          prefix: `10.${i}.0.0/16`,
          site: i < 4 ? a.id : b.id,
          tenant: tenant.id,
        });
      await made(s, '/api/ipam/vlans/', { vid: 10, name: 'v10', site: a.id });
      const type = await made(s, '/api/virtualization/cluster-types/', { name: 'Proxmox', slug: 'proxmox' });
      const cluster = await made(s, '/api/virtualization/clusters/', { name: 'c1', type: type.id, site: b.id });
      await made(s, '/api/virtualization/virtual-machines/', {
        name: 'vm1',
        cluster: cluster.id,
        site: b.id,
        tenant: tenant.id,
      });
      Object.assign(ids, { tenant: tenant.id, a: a.id, b: b.id, rack: rack.id });
    });

    const site = async (slug: string, query = '') =>
      (await srv.req('GET', `/api/dcim/sites/?slug=${slug}${query}`)).body.results[0];

    it(
      'a site counts its devices, racks, prefixes, VLANs, clusters and virtual machines; an object nothing ' +
        'names counts 0',
      async () => {
        expect(await site('a')).to.include({
          device_count: 3,
          rack_count: 1,
          prefix_count: 4,
          vlan_count: 1,
          cluster_count: 0,
          virtualmachine_count: 0,
          location_count: 0,
        });
        expect(await site('b')).to.include({
          device_count: 0,
          rack_count: 0,
          prefix_count: 1,
          vlan_count: 0,
          cluster_count: 1,
          virtualmachine_count: 1,
        });
        const tenant = (await srv.req('GET', `/api/tenancy/tenants/${ids.tenant}/`)).body;
        expect(tenant).to.include({
          site_count: 1,
          device_count: 2,
          prefix_count: 5,
          virtualmachine_count: 1,
          rack_count: 0,
          cluster_count: 0,
        });
        expect((await srv.req('GET', `/api/dcim/racks/${ids.rack}/`)).body.device_count).to.equal(2);
      },
    );

    it('each count equals the list filtered by the reference it counts', async () => {
      for (const r of RESOURCES)
        for (const c of r.counts ?? []) {
          const objects = (await srv.req('GET', `${resourcePath(r)}?limit=1000`)).body.results as Record<string, any>[];
          const target = RESOURCES.find((x) => x.name === c.resource)!;
          for (const o of objects) {
            const listed = await srv.req('GET', `${resourcePath(target)}?${c.field}_id=${o.id}&limit=1`);
            expect(listed.status, `${target.plural}?${c.field}_id`).to.equal(200);
            expect(o[c.name], `${r.name} ${o.display}: ${c.name}`).to.equal(listed.body.count);
          }
        }
    });

    it('follows writes and deletes', async () => {
      const d = await made(srv, '/api/dcim/devices/', { name: 'd9', site: ids.b });
      expect((await site('b')).device_count).to.equal(1);
      expect((await srv.req('DELETE', `/api/dcim/devices/${d.id}/`)).status).to.equal(204);
      expect((await site('b')).device_count).to.equal(0);
    });

    it('fields= keeps only the counts asked for, omit= leaves them out, brief has none', async () => {
      expect(Object.keys(await site('a', '&fields=name,prefix_count')).sort()).to.deep.equal([
        'id',
        'name',
        'prefix_count',
        'url',
      ]);
      const omitted = await site('a', '&omit=prefix_count');
      expect(omitted).to.not.have.property('prefix_count');
      expect(omitted).to.have.property('device_count', 3);
      expect(await site('a', '&brief=true')).to.not.have.property('device_count');
    });

    it('an object written back as it was read is accepted: its counts are ignored', async () => {
      const read = await site('a');
      const r = await srv.req('PATCH', `/api/dcim/sites/${read.id}/`, {
        description: 'written back',
        device_count: 99,
        prefix_count: 0,
      });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body).to.include({ description: 'written back', device_count: 3, prefix_count: 4 });
    });

    it('the OpenAPI document lists them as read-only integers', async () => {
      const doc = (await srv.req('GET', '/api/schema/?format=json')).body;
      expect(doc.components.schemas.Site.properties.prefix_count).to.include({ type: 'integer', readOnly: true });
      expect(doc.components.schemas.Tenant.properties.virtualmachine_count).to.include({
        type: 'integer',
        readOnly: true,
      });
    });
  });
}
