// PATCH with add_tags / remove_tags (NetBox 4.6) changes the tags an object has when the change is
// made, single and bulk, so two clients tagging one object at once keep both tags. Every backend.
import { expect } from 'chai';
import { BACKENDS } from '../conformance/backends.js';
import type { TestServer } from '../../support/server.js';
import { serverOn } from '../../support/backend-server.js';

type Obj = { id: string; [k: string]: any };
const slugs = (o: Obj) => (o.tags as Obj[]).map((t) => t.slug).sort();

for (const backend of BACKENDS) {
  describe(`add_tags / remove_tags on ${backend.name}`, function () {
    this.timeout(120000);
    const on = serverOn(backend);
    let srv: TestServer;
    let site: Obj, other: Obj;
    before(async function () {
      if (!on.srv) return;
      srv = on.srv;
      expect(
        (
          await srv.req(
            'POST',
            '/api/extras/tags/',
            Array.from({ length: 20 }, (_, i) => ({ name: `t${i}`, slug: `t${i}` })),
          )
        ).status,
      ).to.equal(201);
      [site, other] = (
        await srv.req('POST', '/api/dcim/sites/', [
          { name: 'a', slug: 'a', tags: ['t0', 't1'] },
          { name: 'b', slug: 'b', tags: ['t1'] },
        ])
      ).body;
    });

    it('adds and removes on one object; a tag it lacks is no error, an unknown tag is', async () => {
      const r = await srv.req('PATCH', `/api/dcim/sites/${site.id}/`, {
        add_tags: ['t2', 't0'],
        remove_tags: ['t1', 't5'],
      });
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(slugs(r.body)).to.deep.equal(['t0', 't2']);
      const bad = await srv.req('PATCH', `/api/dcim/sites/${site.id}/`, { add_tags: ['nope'] });
      expect(bad.status).to.equal(400);
      expect(bad.body.add_tags[0]).to.match(/nope/);
    });

    it('with tags, or outside PATCH: a 400 that says why', async () => {
      const both = await srv.req('PATCH', `/api/dcim/sites/${site.id}/`, { tags: ['t3'], add_tags: ['t4'] });
      expect(both.status).to.equal(400);
      expect(both.body.tags[0]).to.match(/either tags/);
      const put = await srv.req('PUT', `/api/dcim/sites/${site.id}/`, { name: 'a', slug: 'a', add_tags: ['t4'] });
      expect(put.status).to.equal(400);
      expect(put.body.add_tags[0]).to.match(/PATCH/);
    });

    it("bulk PATCH with add_tags edits each object's own tags", async () => {
      const r = await srv.req('PATCH', '/api/dcim/sites/', [
        { id: site.id, add_tags: ['t9'] },
        { id: other.id, add_tags: ['t9'], remove_tags: ['t1'] },
      ]);
      expect(r.status, JSON.stringify(r.body)).to.equal(200);
      expect(r.body.map(slugs)).to.deep.equal([['t0', 't2', 't9'], ['t9']]);
    });

    it('twenty clients each adding a tag at once: every tag is kept', async () => {
      const fresh = (await srv.req('POST', '/api/dcim/sites/', { name: 'c', slug: 'c' })).body as Obj;
      const outs = await Promise.all(
        Array.from({ length: 20 }, (_, i) => srv.req('PATCH', `/api/dcim/sites/${fresh.id}/`, { add_tags: [`t${i}`] })),
      );
      expect(outs.map((o) => o.status)).to.deep.equal(Array(20).fill(200));
      expect(slugs((await srv.req('GET', `/api/dcim/sites/${fresh.id}/`)).body)).to.have.length(20);
    });
  });
}
