// GraphQL's edges on every backend: GRAPHQL_MAX_OBJECTS (the whole answer is the error), the page-size cap on
// limit, who may view what (an error at the root, null where nested), a prefix's parent and children as REST
// serves them, introspection, and a schema rebuilt only when custom field definitions change.
import { expect } from 'chai';
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import type { GraphqlViewer } from '../../../app/graphql/contract.js';
import { resource } from '../../../engine/schema/registry.js';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { harness, ids, type Harness } from './harness.js';
import { seed, type Seeded } from './seed.js';

const hiding = (...names: string[]): GraphqlViewer => ({ canView: (r) => !names.includes(r.name) });

for (const backend of BACKENDS)
  describe(`GraphQL limits, viewers, trees and schema on ${backend.name}`, function () {
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

    it('GRAPHQL_MAX_OBJECTS: over it, the answer is one error naming it and no data', async () => {
      const n = seeded.sites.length + seeded.devices.length;
      const over = await h.run('{ sites { id devices { id } } }', { limits: { maxObjects: n - 1 } });
      expect(over.data).to.equal(undefined);
      expect(over.errors).to.have.length(1);
      expect(over.errors![0].message).to.include('GRAPHQL_MAX_OBJECTS');
      const root = await h.run('{ sites { id } }', { limits: { maxObjects: 3 } });
      expect(root.errors?.[0].message).to.include('GRAPHQL_MAX_OBJECTS');
      const at = await h.run('{ sites { id devices { id } } }', { limits: { maxObjects: n } });
      expect(at.errors).to.equal(undefined);
    });

    it('a list without limit is every match; a limit above the page-size cap is clamped to it', async () => {
      const all = await h.data('{ sites { id } }');
      expect(all.sites).to.have.length(seeded.sites.length);
      const capped = await h.run('{ sites(limit: 100) { id } devices(limit: 0) { id } }', {
        limits: { maxPageSize: 5 },
      });
      expect(capped.errors).to.equal(undefined);
      expect(capped.data!.sites).to.have.length(5);
      expect(capped.data!.devices).to.have.length(5);
      const negative = await h.run('{ sites(limit: -1) { id } }');
      expect(negative.errors?.[0].message).to.match(/^limit: /);
    });

    it('a type the viewer may not view: an error at the root, null where nested', async () => {
      const viewer = hiding('device', 'region');
      const root = await h.run('{ devices { id } sites(limit: 1) { id } }', { viewer });
      expect(root.errors?.map((e) => e.path)).to.deep.equal([['devices']]);
      expect(root.errors?.[0].message).to.include('permission');
      const nested = await h.run('{ sites { id region { slug } devices { id } device_count } }', { viewer });
      expect(nested.errors).to.equal(undefined);
      for (const s of nested.data!.sites as Record<string, unknown>[]) {
        expect(s.region).to.equal(null);
        expect(s.devices).to.equal(null);
      }
      const one = await h.run(`{ device(id: "${seeded.devices[0].id}") { id } }`, { viewer });
      expect(one.errors?.[0].path).to.deep.equal(['device']);
      // NetBox 4's filter input may not reach into a type the viewer may not view either.
      const probe = await h.run('{ site_list(filters: {region: {slug: {exact: "x"}}}) { id } }', { viewer });
      expect(probe.errors?.[0].message).to.match(/^filters\.region/);
    });

    it("a prefix's parent, children (the REST ?parent= list) and children_count", async () => {
      const data = await h.data('{ prefixes { id prefix parent { prefix } children { id } children_count } }');
      const parents: Record<string, string | null> = {
        '10.0.0.0/8': null,
        '10.1.0.0/16': '10.0.0.0/8',
        '10.2.0.0/16': '10.0.0.0/8',
        '10.1.1.0/24': '10.1.0.0/16',
        '10.1.2.0/24': '10.1.0.0/16',
        '192.168.0.0/16': null,
      };
      const rows = data.prefixes as { id: string; prefix: string; parent: { prefix: string } | null }[];
      expect(rows.map((p) => p.prefix)).to.have.members(Object.keys(parents));
      for (const p of rows as ((typeof rows)[number] & { children: unknown[]; children_count: number })[]) {
        expect(p.parent?.prefix ?? null, p.prefix).to.equal(parents[p.prefix]);
        const want = await h.restIds('prefix', [['parent', p.prefix]]);
        expect(ids(p.children), p.prefix).to.deep.equal(want);
        expect(p.children_count).to.equal(want.length);
      }
      const filtered = await h.data('{ prefixes(prefix_length: 8) { children(prefix: "10.2.0.0/16") { prefix } } }');
      expect(filtered.prefixes).to.deep.equal([{ children: [{ prefix: '10.2.0.0/16' }] }]);
    });

    it('introspection answers, and a client schema builds from it', async () => {
      const data = await h.data(getIntrospectionQuery());
      const answer: IntrospectionQuery = JSON.parse(JSON.stringify(data)); // as a client reads the JSON
      const client = buildClientSchema(answer);
      const site = client.getType('SiteType');
      expect(site).to.not.equal(undefined);
      expect(Object.keys(client.getQueryType()!.getFields())).to.include.members(['sites', 'site_list', 'site']);
    });

    it('the schema is kept, and rebuilt once a custom field is defined', async () => {
      const before = await h.gql.schema();
      expect(await h.gql.schema()).to.equal(before);
      const made = await h.inv.create(resource('custom_field'), [
        { name: 'asset_tag', type: 'text', content_types: ['dcim.device'] },
      ]);
      expect(made.ok).to.equal(true);
      const after = await h.gql.schema();
      expect(after).to.not.equal(before);
      const id = seeded.devices[1].id;
      expect((await h.inv.update(resource('device'), id, { custom_fields: { asset_tag: 'A-17' } }, true)).ok).to.equal(
        true,
      );
      const data = await h.data(`{ devices(cf_asset_tag: "A-17") { id cf_asset_tag custom_fields } }`);
      expect(data.devices).to.deep.equal([{ id, cf_asset_tag: 'A-17', custom_fields: { asset_tag: 'A-17' } }]);
    });
  });
