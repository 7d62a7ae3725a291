// GraphQL lists answer as the REST lists do on every backend: the same filters (names, lookups, lists as
// repeated parameters, custom fields, tags as AND), the same order, in both dialects; nested lists take
// the same filters and a per-parent limit.
import { expect } from 'chai';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { DEFAULT_GRAPHQL_LIMITS, VIEW_ALL } from '../../../app/graphql/contract.js';
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

    it('a bad filter value on a nested list is one error, not one per parent', async () => {
      const got = await h.run('{ sites { id devices(role__n: "x", position: "high") { id } } }');
      expect(got.errors).to.have.length(1);
      expect(got.errors![0].message).to.match(/^Invalid filter argument: position: /);
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

    it('filter arguments take variables declared as Nautobot clients do ([String], String, Int)', async () => {
      const q =
        'query ($region: [String], $status: String, $n: Int) ' +
        '{ sites(region: $region, status: $status, cf_rack_count__lt: $n) { id } }';
      const data = await h.data(q, { region: ['eu', 'us'], status: 'active', n: 4 });
      const want = await h.restIds('site', [
        ['region', 'eu'],
        ['region', 'us'],
        ['status', 'active'],
        ['cf_rack_count__lt', '4'],
      ]);
      expect(want.length).to.be.greaterThan(0);
      expect(ids(data.sites)).to.deep.equal(want);
      // Elsewhere the usual rule holds: an Int variable where ID! is expected is a validation error.
      const got = await h.gql.run(
        { query: 'query ($i: Int!) { site(id: $i) { id } }', variables: { i: 1 } },
        { limits: DEFAULT_GRAPHQL_LIMITS, viewer: VIEW_ALL },
      );
      expect(got.errors?.[0].message).to.include('used in position expecting type "ID!"');
    });

    it('an id that is no id of the store is an error naming it; an unknown one is null', async () => {
      const got = await h.run('{ site(id: "x!") { id } }');
      expect(got.errors?.[0].message).to.equal('id: "x!" is not a valid Site id.');
      const missing =
        seeded.sites.length > 0 ? await h.run(`{ site(id: "${unknownId(seeded.sites[0].id)}") { id } }`) : null;
      expect(missing?.errors ?? []).to.deep.equal([]);
      expect(missing?.data).to.deep.equal({ site: null });
    });

    it('a mutation is a GraphQL error', async () => {
      const got = await h.run('mutation { sites { id } }');
      expect(got.errors?.[0].message).to.include('read-only');
      expect(got.data).to.equal(undefined);
    });
  });

/** An id of the same style as `id` that names nothing (the seed never makes this many objects). */
function unknownId(id: string): string {
  return /^\d+$/.test(id) ? '987654321' : id.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
}
