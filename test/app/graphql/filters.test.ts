// GraphQL lists answer as the REST lists do on every backend: the same filters (names, lookups, lists as
// repeated parameters, custom fields, tags as AND), the same order, in both dialects; nested lists take
// the same filters and a per-parent limit.
import { expect } from 'chai';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { harness, ids, type Harness } from './harness.js';
import { seed, type Seeded } from './seed.js';

const CASES: { args: string; pairs: [string, string][]; resource: string; root: string }[] = [
  { resource: 'site', root: 'sites', args: 'status: "active"', pairs: [['status', 'active']] },
  {
    resource: 'site',
    root: 'site_list',
    args: 'region: ["eu", "us"]',
    pairs: [
      ['region', 'eu'],
      ['region', 'us'],
    ],
  },
  { resource: 'site', root: 'sites', args: 'name__ic: "core"', pairs: [['name__ic', 'core']] },
  { resource: 'site', root: 'sites', args: 'cf_rack_count__lt: 4', pairs: [['cf_rack_count__lt', '4']] },
  {
    resource: 'site',
    root: 'sites',
    args: 'tag: ["a", "b"]',
    pairs: [
      ['tag', 'a'],
      ['tag', 'b'],
    ],
  },
  {
    resource: 'site',
    root: 'sites',
    args: 'status__n: "active", tenant__isnull: true',
    pairs: [
      ['status__n', 'active'],
      ['tenant__isnull', 'true'],
    ],
  },
  {
    resource: 'prefix',
    root: 'prefixes',
    args: 'network__net_contained: "10.0.0.0/8"',
    pairs: [['network__net_contained', '10.0.0.0/8']],
  },
  {
    resource: 'device',
    root: 'device_list',
    args: 'region: "us", role: "edge"',
    pairs: [
      ['region', 'us'],
      ['role', 'edge'],
    ],
  },
  { resource: 'interface', root: 'interfaces', args: 'name__isw: "eth"', pairs: [['name__isw', 'eth']] },
];

for (const backend of BACKENDS)
  describe(`GraphQL lists and filters on ${backend.name}`, function () {
    this.timeout(120000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let h: Harness;
    let seeded: Seeded;

    before(async function () {
      db = await backend.url();
      if (!db) return this.skip();
      h = await harness(db.url);
      seeded = await seed(h.inv);
    });
    after(async () => {
      await h?.close();
      await db?.drop();
    });

    for (const c of CASES)
      it(`${c.root}(${c.args}) lists what REST lists`, async () => {
        const data = await h.data(`{ ${c.root}(${c.args}) { id } }`);
        const want = await h.restIds(c.resource, c.pairs);
        expect(want.length).to.be.greaterThan(0);
        expect(ids(data[c.root])).to.deep.equal(want);
      });

    it('limit and offset page the REST order', async () => {
      const all = await h.restIds('site', []);
      const data = await h.data('{ sites(limit: 3, offset: 2) { id } }');
      expect(ids(data.sites)).to.deep.equal(all.slice(2, 5));
    });

    it('nested lists take the same filters, and limit per parent', async () => {
      const data = await h.data(
        '{ sites { id devices(role: "edge") { id ' +
          'interfaces(name__isw: "eth", limit: 1) { id name device { id } } } } }',
      );
      const sites = data.sites as { id: string; devices: { id: string; interfaces: unknown[] }[] }[];
      expect(sites.length).to.equal(seeded.sites.length);
      for (const s of sites) {
        expect(ids(s.devices)).to.deep.equal(
          await h.restIds('device', [
            ['site_id', s.id],
            ['role', 'edge'],
          ]),
        );
        for (const d of s.devices) {
          const want = await h.restIds('interface', [
            ['device_id', d.id],
            ['name__isw', 'eth'],
          ]);
          expect(ids(d.interfaces)).to.deep.equal(want.slice(0, 1));
          expect(d.interfaces).to.deep.equal(d.interfaces.map((x) => ({ ...(x as object), device: { id: d.id } })));
        }
      }
    });

    it('a bad filter value is an error naming the argument', async () => {
      const got = await h.run('{ sites(status: "nope") { id } }');
      expect(got.errors?.[0].message).to.match(/^Invalid filter argument: status: /);
    });

    it('an unknown argument is a validation error naming it', async () => {
      const got = await h.run('{ sites(bogus__ic: "x") { id } }');
      expect(got.errors?.[0].message).to.include('bogus__ic');
    });

    it('one object by id, in either id style', async () => {
      const s = seeded.sites[3];
      const data = await h.data(`{ site(id: "${s.id}") { id name region { slug } } }`);
      expect(data.site).to.deep.include({ id: s.id, name: s.name });
    });

    it('a mutation is a GraphQL error', async () => {
      const got = await h.run('mutation { sites { id } }');
      expect(got.errors?.[0].message).to.include('read-only');
      expect(got.data).to.equal(undefined);
    });
  });
