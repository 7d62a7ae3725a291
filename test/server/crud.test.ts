// CRUD over real sockets: create (one and bulk), read, update, delete, derived fields, cascades.
import { expect } from 'chai';
import { startServer, type TestServer } from '../support/server.js';

describe('inventory CRUD', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startServer();
  });
  after(() => srv.close());

  it('creates a site and reads it back with nested region, choice object and tags', async () => {
    const region = await srv.req('POST', '/api/dcim/regions/', { name: 'Europe', slug: 'eu' });
    expect(region.status).to.equal(201);
    await srv.req('POST', '/api/extras/tags/', { name: 'Core', slug: 'core' });
    const site = await srv.req('POST', '/api/dcim/sites/', {
      name: 'ams1',
      slug: 'ams1',
      region: region.body.id,
      asn: 65001,
      tags: ['core'],
    });
    expect(site.status, JSON.stringify(site.body)).to.equal(201);
    const got = await srv.req('GET', `/api/dcim/sites/${site.body.id}/`);
    expect(got.status).to.equal(200);
    expect(got.body.region).to.include({ id: region.body.id, slug: 'eu' });
    expect(got.body.status).to.deep.equal({ value: 'active', label: 'Active' });
    expect(got.body.tags.map((t: { slug: string }) => t.slug)).to.deep.equal(['core']);
    expect(got.body.url).to.equal(`${srv.url}/api/dcim/sites/${site.body.id}/`);
  });

  it('bulk-creates a list in order and answers 201 with the list', async () => {
    const res = await srv.req('POST', '/api/ipam/prefixes/', [
      { prefix: '10.0.0.0/8' },
      { prefix: '2001:DB8:0:0::/32' },
    ]);
    expect(res.status).to.equal(201);
    expect(res.body.map((p: { prefix: string }) => p.prefix)).to.deep.equal(['10.0.0.0/8', '2001:db8::/32']);
    expect(res.body[1]).to.include({
      network: '2001:db8::',
      broadcast: '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff',
      prefix_length: 32,
      family: 6,
    });
  });

  it('refuses a bulk create whole when one item is bad, creating nothing', async () => {
    const before = (await srv.req('GET', '/api/ipam/prefixes/')).body.count;
    const res = await srv.req('POST', '/api/ipam/prefixes/', [
      { prefix: '172.16.0.0/12' },
      { prefix: '172.16.0.1/12' },
    ]);
    expect(res.status).to.equal(400);
    expect(res.body).to.be.an('array').with.length(2);
    expect(res.body[1].prefix[0]).to.match(/host bits set.*172\.16\.0\.0\/12/);
    expect((await srv.req('GET', '/api/ipam/prefixes/')).body.count).to.equal(before);
  });

  it('normalises addresses and MAC addresses as written', async () => {
    const ip = await srv.req('POST', '/api/ipam/ip-addresses/', { address: 'FD78:DA4F:E596:C217:0:0:0:1/64' });
    expect(ip.body).to.include({
      address: 'fd78:da4f:e596:c217::1/64',
      host: 'fd78:da4f:e596:c217::1',
      prefix_length: 64,
      family: 6,
    });
    const site = await srv.req('POST', '/api/dcim/sites/', { name: 'mac-site', slug: 'mac-site' });
    const dev = await srv.req('POST', '/api/dcim/devices/', { name: 'r1', site: site.body.id });
    const itf = await srv.req('POST', '/api/dcim/interfaces/', {
      device: dev.body.id,
      name: 'eth0',
      type: '1000base-t',
      mac_address: 'aabb.cc00.1122',
    });
    expect(itf.status, JSON.stringify(itf.body)).to.equal(201);
    expect(itf.body.mac_address).to.equal('AA:BB:CC:00:11:22');
  });

  it('PATCH changes given fields only; PUT needs required fields', async () => {
    const site = await srv.req('POST', '/api/dcim/sites/', { name: 'p1', slug: 'p1', description: 'keep' });
    const patched = await srv.req('PATCH', `/api/dcim/sites/${site.body.id}/`, { asn: 65100 });
    expect(patched.status).to.equal(200);
    expect(patched.body).to.include({ asn: 65100, description: 'keep' });
    expect(patched.body.last_updated >= site.body.last_updated).to.equal(true);
    const put = await srv.req('PUT', `/api/dcim/sites/${site.body.id}/`, { name: 'p1b' });
    expect(put.status).to.equal(400);
    expect(put.body).to.have.keys(['slug']);
  });

  it('custom fields take effect at once and are validated', async () => {
    const cf = await srv.req('POST', '/api/extras/custom-fields/', {
      name: 'rack_count',
      type: 'integer',
      content_types: ['dcim.site'],
    });
    expect(cf.status, JSON.stringify(cf.body)).to.equal(201);
    const ok = await srv.req('POST', '/api/dcim/sites/', {
      name: 'cf1',
      slug: 'cf1',
      custom_fields: { rack_count: 3 },
    });
    expect(ok.status).to.equal(201);
    expect(ok.body.custom_fields).to.deep.equal({ rack_count: 3 });
    const bad = await srv.req('POST', '/api/dcim/sites/', {
      name: 'cf2',
      slug: 'cf2',
      custom_fields: { rack_count: 'many', nope: 1 },
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.custom_fields).to.have.length(2);
    const filtered = await srv.req('GET', '/api/dcim/sites/?cf_rack_count__gte=3');
    expect(filtered.body.results.map((s: { name: string }) => s.name)).to.deep.equal(['cf1']);
  });

  it('deletes cascade (device -> interfaces), set null (region) and protect (site with devices)', async () => {
    const region = await srv.req('POST', '/api/dcim/regions/', { name: 'Tmp', slug: 'tmp' });
    const site = await srv.req('POST', '/api/dcim/sites/', { name: 'del1', slug: 'del1', region: region.body.id });
    const dev = await srv.req('POST', '/api/dcim/devices/', { name: 'd', site: site.body.id });
    const itf = await srv.req('POST', '/api/dcim/interfaces/', { device: dev.body.id, name: 'eth0', type: 'virtual' });
    expect((await srv.req('DELETE', `/api/dcim/sites/${site.body.id}/`)).status).to.equal(409);
    expect((await srv.req('DELETE', `/api/dcim/devices/${dev.body.id}/`)).status).to.equal(204);
    expect((await srv.req('GET', `/api/dcim/interfaces/${itf.body.id}/`)).status).to.equal(404);
    expect((await srv.req('DELETE', `/api/dcim/regions/${region.body.id}/`)).status).to.equal(204);
    expect((await srv.req('GET', `/api/dcim/sites/${site.body.id}/`)).body.region).to.equal(null);
  });

  it('a region cannot become its own parent or the child of its descendant', async () => {
    const top = (await srv.req('POST', '/api/dcim/regions/', { name: 'Top', slug: 'top' })).body.id;
    const mid = (await srv.req('POST', '/api/dcim/regions/', { name: 'Mid', slug: 'mid', parent: top })).body.id;
    const low = (await srv.req('POST', '/api/dcim/regions/', { name: 'Low', slug: 'low', parent: mid })).body.id;
    for (const parent of [top, mid, low]) {
      // itself, its child, its grandchild
      const res = await srv.req('PATCH', `/api/dcim/regions/${top}/`, { parent });
      expect(res.status, parent).to.equal(400);
      expect(res.body).to.have.property('parent');
    }
    expect((await srv.req('PATCH', `/api/dcim/regions/${mid}/`, { parent: mid })).status).to.equal(400);
    expect((await srv.req('GET', `/api/dcim/regions/${top}/`)).body.parent).to.equal(null);
    // Moving a branch elsewhere is fine.
    const other = (await srv.req('POST', '/api/dcim/regions/', { name: 'Other', slug: 'other-top' })).body.id;
    expect((await srv.req('PATCH', `/api/dcim/regions/${mid}/`, { parent: other })).status).to.equal(200);
  });

  it('a required custom field can be changed by an update but not emptied', async () => {
    expect(
      (
        await srv.req('POST', '/api/extras/custom-fields/', {
          name: 'owner_req',
          type: 'text',
          required: true,
          default: 'noc',
          content_types: ['dcim.site'],
        })
      ).status,
    ).to.equal(201);
    const site = await srv.req('POST', '/api/dcim/sites/', { name: 'req1', slug: 'req1' });
    expect(site.body.custom_fields.owner_req).to.equal('noc');
    const cleared = await srv.req('PATCH', `/api/dcim/sites/${site.body.id}/`, { custom_fields: { owner_req: null } });
    expect(cleared.status).to.equal(400);
    expect(cleared.body).to.have.property('custom_fields');
    expect(
      (await srv.req('PATCH', `/api/dcim/sites/${site.body.id}/`, { custom_fields: { owner_req: 'ops' } })).status,
    ).to.equal(200);
    expect(
      (
        await srv.req(
          'DELETE',
          `/api/extras/custom-fields/` +
            `${(await srv.req('GET', '/api/extras/custom-fields/?name=owner_req')).body.results[0].id}/`,
        )
      ).status,
    ).to.equal(204);
  });

  it('deleting a tag removes it from the objects that carry it', async () => {
    const tag = await srv.req('POST', '/api/extras/tags/', { name: 'Gone', slug: 'gone' });
    const site = await srv.req('POST', '/api/dcim/sites/', { name: 'tagged', slug: 'tagged', tags: [tag.body.id] });
    expect((await srv.req('DELETE', `/api/extras/tags/${tag.body.id}/`)).status).to.equal(204);
    expect((await srv.req('GET', `/api/dcim/sites/${site.body.id}/`)).body.tags).to.deep.equal([]);
  });
});
