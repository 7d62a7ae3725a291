// References in writes as NetBox takes them: an id, or an object of the target's fields
// ({"site": {"slug": "ams01"}}); a miss names the field and what was tried. Every backend.
import { expect } from 'chai';
import { BACKENDS } from '../conformance/backends.js';
import type { TestServer } from '../../support/server.js';
import { serverOn } from '../../support/backend-server.js';

for (const backend of BACKENDS) {
  describe(`nested references in writes on ${backend.name}`, function () {
    this.timeout(60000);
    const on = serverOn(backend);
    let srv: TestServer;
    before(async function () {
      if (!on.srv) return;
      srv = on.srv;
      expect((await srv.req('POST', '/api/dcim/regions/', { name: 'Europe', slug: 'eu' })).status).to.equal(201);
      expect(
        (
          await srv.req('POST', '/api/dcim/sites/', [
            { name: 'Amsterdam 1', slug: 'ams01' },
            { name: 'Twin', slug: 'twin-a', description: 'same' },
            { name: 'Twin 2', slug: 'twin-b', description: 'same' },
          ])
        ).status,
      ).to.equal(201);
    });

    it('a reference by slug, by name, by several fields, by a number given as text', async () => {
      const site = await srv.req('POST', '/api/dcim/sites/', {
        name: 'Paris',
        slug: 'par01',
        region: { name: 'Europe' },
      });
      expect(site.status, JSON.stringify(site.body)).to.equal(201);
      expect(site.body.region.slug).to.equal('eu');
      const vlan = await srv.req('POST', '/api/ipam/vlans/', { vid: 100, name: 'v100', site: { slug: 'ams01' } });
      expect(vlan.status, JSON.stringify(vlan.body)).to.equal(201);
      expect(vlan.body.site.slug).to.equal('ams01');
      const pfx = await srv.req('POST', '/api/ipam/prefixes/', {
        prefix: '10.7.0.0/16',
        site: { slug: 'ams01', name: 'Amsterdam 1' },
        vlan: { vid: '100', name: 'v100' },
      });
      expect(pfx.status, JSON.stringify(pfx.body)).to.equal(201);
      expect([pfx.body.site.slug, pfx.body.vlan.id]).to.deep.equal(['ams01', vlan.body.id]);
      const moved = await srv.req('PATCH', `/api/ipam/prefixes/${pfx.body.id}/`, { site: { slug: 'par01' } });
      expect(moved.body.site.slug).to.equal('par01');
    });

    it(
      'a miss names the field and what was tried; several ' + 'matches, unknown fields and bad shapes are 400s',
      async () => {
        const miss = await srv.req('POST', '/api/dcim/sites/', { name: 'X', slug: 'x', region: { slug: 'nowhere' } });
        expect(miss.status).to.equal(400);
        expect(miss.body).to.deep.equal({ region: ['No region found with slug "nowhere".'] });
        const many = await srv.req('POST', '/api/ipam/vlans/', { vid: 5, name: 'v5', site: { description: 'same' } });
        expect(many.status).to.equal(400);
        expect(many.body.site[0]).to.match(/^Several site objects have description "same"/);
        const unknown = await srv.req('POST', '/api/ipam/vlans/', { vid: 5, name: 'v5', site: { colour: 'red' } });
        expect(unknown.body.site[0]).to.equal('A site has no field "colour" to be found by.');
        const shape = await srv.req('POST', '/api/ipam/vlans/', { vid: 5, name: 'v5', site: { slug: ['a'] } });
        expect(shape.status).to.equal(400);
        expect(shape.body.site[0]).to.match(/^Give the related object as its id/);
        const id = await srv.req('POST', '/api/ipam/vlans/', {
          vid: 5,
          name: 'v5',
          site: '00000000-0000-4000-8000-00000000dead',
        });
        expect(id.body.site[0]).to.equal('No site found with id 00000000-0000-4000-8000-00000000dead.');
        expect((await srv.req('GET', '/api/ipam/vlans/?vid=5')).body.count).to.equal(0);
      },
    );

    it("bulk creates resolve each item's references", async () => {
      const r = await srv.req('POST', '/api/ipam/vlans/', [
        { vid: 201, name: 'a', site: { slug: 'ams01' } },
        { vid: 202, name: 'b', site: { slug: 'par01' } },
      ]);
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      expect(r.body.map((v: { site: { slug: string } }) => v.site.slug)).to.deep.equal(['ams01', 'par01']);
    });
  });
}
