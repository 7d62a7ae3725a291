// Bulk PATCH / PUT / DELETE on a list URL (NetBox 2.10+, Nautobot): a list of objects each with its
// id, applied all or none, on every backend.
import { expect } from 'chai';
import { BACKENDS } from '../conformance/backends.js';
import type { TestServer } from '../../support/server.js';
import { serverOn } from '../../support/backend-server.js';

type Obj = { id: string; [k: string]: any };

for (const backend of BACKENDS) {
  describe(`bulk writes on ${backend.name}`, function () {
    this.timeout(60000);
    const on = serverOn(backend);
    let srv: TestServer;
    let sites: Obj[] = [];
    before(async function () {
      if (!on.srv) return;
      srv = on.srv;
      const made = await srv.req(
        'POST',
        '/api/dcim/sites/',
        [1, 2, 3, 4].map((i) => ({ name: `s${i}`, slug: `s${i}` })),
      );
      expect(made.status).to.equal(201);
      sites = made.body;
    });

    const names = async () =>
      (await srv.req('GET', '/api/dcim/sites/?ordering=name')).body.results.map(
        (s: Obj) => `${s.name}:${s.description}`,
      );

    it('PATCH a list: each object changed, answered in order', async () => {
      const r = await srv.req('PATCH', '/api/dcim/sites/', [
        { id: sites[1].id, description: 'two' },
        { id: sites[0].id, description: 'one' },
      ]);
      expect(r.status).to.equal(200);
      expect(r.body.map((s: Obj) => [s.id, s.description])).to.deep.equal([
        [sites[1].id, 'two'],
        [sites[0].id, 'one'],
      ]);
      expect(await names()).to.deep.equal(['s1:one', 's2:two', 's3:', 's4:']);
    });

    it('one bad item: nothing changes, errors per item in order', async () => {
      const r = await srv.req('PATCH', '/api/dcim/sites/', [
        { id: sites[2].id, description: 'three' },
        { id: sites[3].id, status: 'nonsense' },
      ]);
      expect(r.status).to.equal(400);
      expect(r.body).to.have.length(2);
      expect(r.body[0]).to.deep.equal({});
      expect(r.body[1]).to.have.property('status');
      expect(await names()).to.deep.equal(['s1:one', 's2:two', 's3:', 's4:']);
    });

    it('a unique clash inside the batch, an unknown id, an object listed twice: 400, nothing changes', async () => {
      const clash = await srv.req('PATCH', '/api/dcim/sites/', [
        { id: sites[2].id, name: 'same' },
        { id: sites[3].id, name: 'same' },
      ]);
      expect(clash.status).to.equal(400);
      expect(clash.body[1]).to.have.property('name');
      const unknown = await srv.req('PATCH', '/api/dcim/sites/', [
        { id: sites[2].id, description: 'x' },
        { id: '00000000-0000-4000-8000-00000000dead', description: 'y' },
      ]);
      expect(unknown.status).to.equal(400);
      expect(unknown.body[1].id[0]).to.match(/No object with id/);
      const twice = await srv.req('PATCH', '/api/dcim/sites/', [
        { id: sites[2].id, description: 'x' },
        { id: sites[2].id, description: 'y' },
      ]);
      expect(twice.status).to.equal(400);
      expect(await names()).to.deep.equal(['s1:one', 's2:two', 's3:', 's4:']);
    });

    it('PUT a list: each object takes the body (required fields required, as for one object)', async () => {
      const missing = await srv.req('PUT', '/api/dcim/sites/', [{ id: sites[0].id, name: 's1' }]);
      expect(missing.status).to.equal(400);
      expect(missing.body[0]).to.have.property('slug');
      const r = await srv.req('PUT', '/api/dcim/sites/', [
        { id: sites[0].id, name: 's1', slug: 's1', description: 'put' },
      ]);
      expect(r.status).to.equal(200);
      expect(r.body[0].description).to.equal('put');
    });

    it('a loop closed by two moves of one batch is refused', async () => {
      const made = await srv.req('POST', '/api/dcim/regions/', [
        { name: 'r1', slug: 'r1' },
        { name: 'r2', slug: 'r2' },
      ]);
      const [r1, r2] = made.body as Obj[];
      const r = await srv.req('PATCH', '/api/dcim/regions/', [
        { id: r1.id, parent: r2.id },
        { id: r2.id, parent: r1.id },
      ]);
      expect(r.status).to.equal(400);
      expect((await srv.req('GET', `/api/dcim/regions/${r1.id}/`)).body.parent).to.equal(null);
    });

    it('bulk PATCHes racing on the same objects, disjoint fields: every change kept (20 rounds)', async () => {
      for (let round = 0; round < 20; round++) {
        const [a, b] = await Promise.all([
          srv.req(
            'PATCH',
            '/api/dcim/sites/',
            sites.map((s) => ({ id: s.id, description: `d${round}` })),
          ),
          srv.req(
            'PATCH',
            '/api/dcim/sites/',
            sites.map((s) => ({ id: s.id, facility: `f${round}` })),
          ),
        ]);
        expect([a.status, b.status]).to.deep.equal([200, 200]);
        for (const s of sites) {
          const got = (await srv.req('GET', `/api/dcim/sites/${s.id}/`)).body;
          expect([got.description, got.facility], `round ${round}`).to.deep.equal([`d${round}`, `f${round}`]);
        }
      }
    });

    it('not a list of objects with ids: 400 naming the shape', async () => {
      for (const body of [[], {}, [{ description: 'x' }], ['x']]) {
        const r = await srv.req('PATCH', '/api/dcim/sites/', body);
        expect(r.status).to.equal(400);
        expect(r.body.non_field_errors[0]).to.match(/list of objects, each with its "id"/);
      }
    });

    it('DELETE a list: all or none; an unknown id deletes nothing', async () => {
      const bad = await srv.req('DELETE', '/api/dcim/sites/', [
        { id: sites[2].id },
        { id: '00000000-0000-4000-8000-00000000dead' },
      ]);
      expect(bad.status).to.equal(404);
      expect((await srv.req('GET', '/api/dcim/sites/')).body.count).to.equal(4);
      const r = await srv.req('DELETE', '/api/dcim/sites/', [{ id: sites[2].id }, { id: sites[3].id }]);
      expect(r.status).to.equal(204);
      expect(
        (await srv.req('GET', '/api/dcim/sites/?ordering=name')).body.results.map((s: Obj) => s.name),
      ).to.deep.equal(['s1', 's2']);
    });

    it('deleting two tags that one site carries changes that site once (both tags gone)', async () => {
      const tags = (
        await srv.req('POST', '/api/extras/tags/', [
          { name: 'ta', slug: 'ta' },
          { name: 'tb', slug: 'tb' },
          { name: 'tc', slug: 'tc' },
        ])
      ).body as Obj[];
      const site = (await srv.req('POST', '/api/dcim/sites/', { name: 'x1', slug: 'x1', tags: tags.map((t) => t.id) }))
        .body as Obj;
      const r = await srv.req('DELETE', '/api/extras/tags/', [{ id: tags[0].id }, { id: tags[1].id }]);
      expect(r.status, JSON.stringify(r.body)).to.equal(204);
      expect((await srv.req('GET', `/api/dcim/sites/${site.id}/`)).body.tags.map((t: Obj) => t.slug)).to.deep.equal([
        'tc',
      ]);
    });
  });
}
