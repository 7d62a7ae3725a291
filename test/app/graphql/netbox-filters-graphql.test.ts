// NetBox 4's filter input through graphql-js: the argument types of every `*_list` field make a valid
// schema, built once (one input type per resource and lookup value type, whoever asks); literals and
// variables coerce to what netboxFiltersPlan plans; GraphQL validation refuses what no type has; and
// every example in docs/graphql-filters.md returns its documented count on the demo data.
import { expect } from 'chai';
import fs from 'node:fs';
import { assertValidSchema, graphql, type GraphQLSchema } from 'graphql';
import { Inventory } from '../../../app/inventory.js';
import { NB_LOOKUPS, NetboxFilterTypes } from '../../../app/graphql/netbox-filters.js';
import { nbFieldsOf } from '../../../app/graphql/netbox-filters/fields.js';
import { parseQuery } from '../../../engine/query/index.js';
import { planQuery } from '../../../engine/plan/planner.js';
import { resource, RESOURCES } from '../../../engine/schema/registry.js';
import { loadDemoData } from '../../../server/demo-data.js';
import { createStorage } from '../../../storage/open-storage.js';
import type { Storage } from '../../../storage/types.js';
import { REPO_URL } from '../../support/paths.js';
import { filtersSchema } from './netbox-filters-schema.js';

const doc = fs.readFileSync(new URL('docs/graphql-filters.md', REPO_URL), 'utf8');

describe('GraphQL: NetBox 4 filter input through graphql-js', function () {
  this.timeout(60000);
  let storage: Storage;
  let schema: GraphQLSchema;

  before(async () => {
    storage = await createStorage('memory:');
    await storage.open();
    const inv = new Inventory(storage);
    await loadDemoData(inv);
    inv.close();
    schema = filtersSchema(storage);
  });
  after(() => storage.close());

  const run = async (source: string, variableValues?: Record<string, unknown>) => {
    const res = await graphql({ schema, source, variableValues });
    return {
      errors: res.errors?.map((e) => e.message) ?? [],
      items: (res.data?.x ?? null) as { id: string; display: string }[] | null,
    };
  };
  const restIds = async (name: string, qs: string) => {
    const res = planQuery(resource(name), parseQuery(new URLSearchParams(qs)), {
      strict: true,
      customFields: [],
      ids: storage.ids,
    });
    expect(res.errors).to.deep.equal({});
    return (await storage.find(name, res.plan, { limit: 1e6, offset: 0, ordering: [] })).rows.map((r) => r.id).sort();
  };

  it('makes a valid schema, each input type once, the same objects for every caller', () => {
    assertValidSchema(schema);
    const types = new NetboxFilterTypes();
    const opts = { strict: true, customFields: [] };
    const site = types.listArgs(resource('site'), opts);
    expect(types.listArgs(resource('site'), opts).filters.type).to.equal(site.filters.type);
    expect(String(site.filters.type)).to.equal('SiteFilter');
    expect(String(types.listArgs(resource('device_type'), opts).filters.type)).to.equal('DeviceTypeFilter');
    const names = new Set<string>();
    for (const r of RESOURCES) {
      const n = String(types.listArgs(r, opts).filters.type);
      expect(names.has(n), n).to.equal(false);
      names.add(n);
    }
  });

  it('literals and variables plan alike, as the REST list', async () => {
    const want = await restIds('site', 'name__ic=ams&status=active');
    const lit = await run('{ x: site_list(filters: {name: {i_contains: "ams"}, status: {exact: "active"}}) { id } }');
    const vars = await run('query($f: SiteFilter) { x: site_list(filters: $f) { id } }', {
      f: { name: { i_contains: 'ams' }, status: { exact: 'active' } },
    });
    expect(lit.errors).to.deep.equal([]);
    expect(lit.items!.map((i) => i.id).sort()).to.deep.equal(want);
    expect(vars.items!.map((i) => i.id).sort()).to.deep.equal(want);
    // A number given as a variable coerces as the literal does; a 32-bit Int is not an ASN's limit.
    const asn = await run('query($n: Float) { x: site_list(filters: {asn: {gt: $n}}) { id } }', { n: 4294967294 });
    expect(asn.errors).to.deep.equal([]);
    expect(asn.items).to.deep.equal([]);
    const page = await run(
      '{ x: site_list(filters: {name: {i_contains: "core"}}, pagination: {offset: 2, limit: 3}) { id } }',
    );
    expect(page.items).to.have.length(3);
  });

  it('GraphQL validation refuses what the input types do not have; the planner what REST refuses', async () => {
    expect((await run('{ x: site_list(filters: {name: {gt: "x"}}) { id } }')).errors[0]).to.match(
      /Field "gt" is not defined by type "StrFilterLookup"/,
    );
    expect((await run('{ x: site_list(filters: {bogus: {exact: "x"}}) { id } }')).errors[0]).to.match(
      /Field "bogus" is not defined by type "SiteFilter"/,
    );
    const bad = await run('{ x: site_list(filters: {OR: {status: {exact: "bogus"}}}) { id } }');
    expect(bad.errors[0]).to.match(/^filters\.OR\.status\.exact: Select a valid choice/);
    expect(bad.items).to.equal(null);
  });

  describe('docs/graphql-filters.md', () => {
    const examples = [...doc.matchAll(/^- `(\w+_list\(.*\))` → (\d+):/gm)];
    it('has examples, each in the form the test reads', () => {
      expect(examples.length).to.be.greaterThan(25);
      expect(examples.length).to.equal(doc.split('\n').filter((l) => /^- `\w+_list\(/.test(l)).length);
    });
    it("the lookup table names every REST lookup a NetBox lookup runs as, on any resource's filter", () => {
      const rows = doc.split('\n').filter((l) => l.startsWith('| `'));
      for (const nb of NB_LOOKUPS) {
        const row = rows.find((l) => l.split('|')[1].includes(`\`${nb}\``));
        expect(row, nb).to.not.equal(undefined);
        for (const r of RESOURCES)
          for (const f of nbFieldsOf(r).values()) {
            const form = f.kind === 'lookups' ? f.forms.get(nb) : undefined;
            if (form)
              expect(row, `${nb} on ${r.name}.${f.name}`).to.include(form.suffix ? `__${form.suffix}` : 'field=');
          }
      }
    });
    /** `{site:ams-core-01}`: the id of the site whose reference field is ams-core-01. */
    async function withIds(text: string): Promise<string> {
      let out = text;
      for (const [placeholder, name, ref] of text.matchAll(/"\{(\w+):([^}"]+)\}"/g)) {
        const rows = await storage.findBy(name, resource(name).refField, ref);
        expect(rows, placeholder).to.have.length(1);
        out = out.replace(placeholder, JSON.stringify(rows[0].id));
      }
      return out;
    }
    for (const [, query, want] of examples)
      it(`${query} -> ${want}`, async () => {
        const res = await run(`{ x: ${await withIds(query)} { id } }`);
        expect(res.errors).to.deep.equal([]);
        expect(res.items!.length).to.equal(Number(want));
      });
  });
});
