// NetBox 4.2's rules over HTTP on every backend (#36 item 3): a device's name may be empty (unique per
// site only when set), and an interface's type is any of NetBox 4.2's interface types.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';

for (const backend of BACKENDS)
  describe(`NetBox 4.2 rules on ${backend.name}`, function () {
    this.timeout(60000);
    const h = serverOn(backend);
    let site = '';
    before(async function () {
      if (!h.srv) return;
      const r = await h.srv.req('POST', '/api/dcim/sites/', { name: 'Rules', slug: 'rules' });
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      site = String(r.body.id);
    });
    const devices = async (query: string) => {
      const r = await h.srv.req('GET', `/api/dcim/devices/?site_id=${site}&${query}`);
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      return (r.body.results as Record<string, unknown>[]).map((d) => d.id);
    };

    it('an unnamed device is created, read, listed and filtered; two of them share a site', async () => {
      const a = await h.srv.req('POST', '/api/dcim/devices/', { site });
      expect(a.status, JSON.stringify(a.body)).to.equal(201);
      expect(a.body.name).to.equal(null);
      expect(a.body.display).to.equal(String(a.body.id));
      const b = await h.srv.req('POST', '/api/dcim/devices/', { site, name: null });
      expect(b.status, JSON.stringify(b.body)).to.equal(201);
      const named = await h.srv.req('POST', '/api/dcim/devices/', { site, name: 'edge1' });
      expect(named.status, JSON.stringify(named.body)).to.equal(201);

      const got = await h.srv.req('GET', `/api/dcim/devices/${a.body.id}/`);
      expect(got.status).to.equal(200);
      expect(got.body).to.include({ name: null, display: String(a.body.id) });
      expect(await devices('limit=100')).to.have.members([a.body.id, b.body.id, named.body.id]);
      expect(await devices('name__empty=true')).to.have.members([a.body.id, b.body.id]);
      expect(await devices('name__empty=false')).to.deep.equal([named.body.id]);
      expect(await devices('name__isnull=true')).to.have.members([a.body.id, b.body.id]);
      expect(await devices('name=edge1')).to.deep.equal([named.body.id]);

      // Naming an unnamed device later, and unnaming it again.
      const renamed = await h.srv.req('PATCH', `/api/dcim/devices/${b.body.id}/`, { name: 'edge2' });
      expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
      expect(renamed.body.display).to.equal('edge2');
      const unnamed = await h.srv.req('PATCH', `/api/dcim/devices/${b.body.id}/`, { name: null });
      expect(unnamed.status, JSON.stringify(unnamed.body)).to.equal(200);
      expect(unnamed.body.name).to.equal(null);
    });

    it('unnamed devices sort after the named ones by name (before them descending), and page alike', async () => {
      const byName = await devices('ordering=name&limit=100');
      const named = await devices('name__empty=false&ordering=name&limit=100');
      expect(byName.slice(0, named.length)).to.deep.equal(named);
      expect(byName.slice(named.length)).to.have.members(await devices('name__isnull=true&limit=100'));
      const desc = await devices('ordering=-name&limit=100');
      expect(desc.slice(desc.length - named.length)).to.deep.equal([...named].reverse());
      const paged: unknown[] = [];
      for (let offset = 0; offset < byName.length; offset++)
        paged.push(...(await devices(`ordering=name&limit=1&offset=${offset}`)));
      expect(paged).to.deep.equal(byName);
    });

    it('two devices of one name at one site are still refused, on the name', async () => {
      const first = await h.srv.req('POST', '/api/dcim/devices/', { site, name: 'twin' });
      expect(first.status, JSON.stringify(first.body)).to.equal(201);
      const second = await h.srv.req('POST', '/api/dcim/devices/', { site, name: 'twin' });
      expect(second.status, JSON.stringify(second.body)).to.equal(400);
      expect(second.body).to.have.property('name');
    });

    it("an interface takes NetBox 4.2's types; an unknown one is refused on the field", async () => {
      const dev = await h.srv.req('POST', '/api/dcim/devices/', { site, name: 'stacked' });
      expect(dev.status, JSON.stringify(dev.body)).to.equal(201);
      for (const type of ['cisco-stackwise', 'lte', 'ieee802.11ac', 'extreme-summitstack-512']) {
        const r = await h.srv.req('POST', '/api/dcim/interfaces/', { device: dev.body.id, name: `if-${type}`, type });
        expect(r.status, JSON.stringify(r.body)).to.equal(201);
        expect(r.body.type).to.deep.include({ value: type });
      }
      const listed = await h.srv.req('GET', `/api/dcim/interfaces/?device_id=${dev.body.id}&type=lte`);
      expect(listed.body.results.map((i: { name: string }) => i.name)).to.deep.equal(['if-lte']);
      const bad = await h.srv.req('POST', '/api/dcim/interfaces/', {
        device: dev.body.id,
        name: 'if-bad',
        type: 'no-such-type',
      });
      expect(bad.status, JSON.stringify(bad.body)).to.equal(400);
      expect(bad.body).to.deep.equal({ type: ['"no-such-type" is not a valid choice.'] });
    });
  });
