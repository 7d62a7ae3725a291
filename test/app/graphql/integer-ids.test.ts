// In an integer store (NetBox's id style) ids are GraphQL IDs sent as text ("17"), taken back by `site(id:)`,
// and reference filters take them as numbers or text (`site_id: 3` is `site_id=3`).
import { expect } from 'chai';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { harness, ids, type Harness } from './harness.js';
import { seed, type Seeded } from './seed.js';

for (const backend of BACKENDS)
  describe(`GraphQL on an integer store on ${backend.name}`, function () {
    this.timeout(120000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let h: Harness;
    let seeded: Seeded;

    before(async function () {
      db = await backend.url();
      if (!db) return this.skip();
      h = await harness(db.url, 'integer');
      seeded = await seed(h.inv, 6, 2, 1);
    });
    after(async () => {
      await h?.close();
      await db?.drop();
    });

    it('ids are integer text; one object by id; reference filters take numbers', async () => {
      const site = seeded.sites[2];
      expect(site.id).to.match(/^[1-9][0-9]*$/);
      const data = await h.data(
        `{ site(id: "${site.id}") { id devices { id site { id } } } devices(site_id: ${site.id}) { id } }`,
      );
      const want = await h.restIds('device', [['site_id', site.id]]);
      expect(data.site).to.deep.equal({ id: site.id, devices: want.map((id) => ({ id, site: { id: site.id } })) });
      expect(ids(data.devices)).to.deep.equal(want);
      // A text that is no integer id is an error naming it (as NetBox's GraphQL refuses it); an unknown number is null.
      const bad = await h.run('{ site(id: "not-an-id") { id } }');
      expect(bad.errors?.[0].message).to.equal('id: "not-an-id" is not a valid Site id.');
      const none = await h.data('{ site(id: "987654321") { id } }');
      expect(none.site).to.equal(null);
    });
  });
