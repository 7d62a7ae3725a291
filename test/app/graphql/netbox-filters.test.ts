// NetBox 4's filter input (app/graphql/netbox-filters.ts) on the demo data on every backend: every
// lookup of every value filter of the listed resources answers what the REST lookup it stands for
// answers (the case-sensitive substring lookups, run as `re` on the escaped text, against the text
// itself); AND/OR/NOT as NetBox 4.3 combines them, over random filter trees against the REST answers
// combined by hand; references through the target's own filter; errors naming the filter path.
import { expect } from 'chai';
import fc from 'fast-check';
import { Inventory } from '../../../app/inventory.js';
import { netboxFiltersPlan, NB_LOOKUPS, type NbLookup } from '../../../app/graphql/netbox-filters.js';
import { nbFieldsOf } from '../../../app/graphql/netbox-filters/fields.js';
import { parseQuery } from '../../../engine/query/index.js';
import { and, type Plan } from '../../../engine/plan/nodes.js';
import { planQuery, type PlanOptions } from '../../../engine/plan/planner.js';
import { mulberry32 } from '../../../engine/random/mulberry32.js';
import { resource } from '../../../engine/schema/registry.js';
import { loadDemoData } from '../../../server/demo-data.js';
import { createStorage } from '../../../storage/open-storage.js';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import type { Row, Storage } from '../../../storage/types.js';

/** The REST lookup each NetBox lookup is documented to run as (docs/graphql-filters.md); several names
 * where the catalogue names it differently on network fields. `text`: checked against the text itself. */
const REST: Record<NbLookup, readonly string[] | 'text'> = {
  exact: [''],
  i_exact: ['ie', 'iexact'],
  contains: 'text',
  i_contains: 'text',
  starts_with: 'text',
  i_starts_with: 'text',
  ends_with: 'text',
  i_ends_with: 'text',
  regex: ['re', 'regex'],
  i_regex: ['ire', 'iregex'],
  gt: ['gt'],
  gte: ['gte'],
  lt: ['lt'],
  lte: ['lte'],
  in_list: [''],
  is_null: ['isnull'],
};
const TEXT_TEST: Partial<Record<NbLookup, (v: string, q: string) => boolean>> = {
  contains: (v, q) => v.includes(q),
  i_contains: (v, q) => v.toLowerCase().includes(q.toLowerCase()),
  starts_with: (v, q) => v.startsWith(q),
  i_starts_with: (v, q) => v.toLowerCase().startsWith(q.toLowerCase()),
  ends_with: (v, q) => v.endsWith(q),
  i_ends_with: (v, q) => v.toLowerCase().endsWith(q.toLowerCase()),
};
const RESOURCES = ['site', 'device', 'interface', 'prefix', 'ip_address', 'vlan', 'virtual_machine', 'rack', 'tenant'];

for (const backend of BACKENDS)
  describe(`GraphQL: NetBox 4 filter input on ${backend.name}`, function () {
    this.timeout(300000);
    let storage: Storage;
    let opts: PlanOptions;
    const all = new Map<string, readonly Row[]>();
    let db: { url: string; drop(): Promise<void> } | null = null;

    before(async function () {
      db = await backend.url();
      if (!db) this.skip();
      storage = await createStorage(db.url);
      await storage.open();
      const inv = new Inventory(storage);
      await loadDemoData(inv);
      inv.close();
      opts = { strict: true, customFields: [], ids: storage.ids };
      for (const name of RESOURCES) all.set(name, await rowsOf(name, and([])));
    });
    after(async () => {
      await storage?.close();
      await db?.drop();
    });

    async function rowsOf(name: string, plan: Plan): Promise<readonly Row[]> {
      return (await storage.find(name, plan, { limit: 1_000_000, offset: 0, ordering: [] })).rows;
    }
    const idsOf = async (name: string, plan: Plan) => (await rowsOf(name, plan)).map((r) => String(r.id)).sort();

    async function restIds(name: string, params: [string, string][]): Promise<string[]> {
      const res = planQuery(resource(name), parseQuery(params), opts);
      expect(res.errors, JSON.stringify(params)).to.deep.equal({});
      return idsOf(name, res.plan);
    }
    async function nbIds(name: string, filters: unknown): Promise<string[]> {
      const res = netboxFiltersPlan(resource(name), filters, opts);
      if (!res.ok) throw new Error(`${JSON.stringify(filters)}: ${res.message}`);
      return idsOf(name, res.plan);
    }
    const nbError = (name: string, filters: unknown): string => {
      const res = netboxFiltersPlan(resource(name), filters, opts);
      expect(res.ok, JSON.stringify(filters)).to.equal(false);
      return res.ok ? '' : res.message;
    };

    /** Values drawn per lookup: fewer where each query is a round trip to a database. */
    const DRAWS = backend.driver === 'memory' ? 4 : 2;
    /** Values to try for a lookup, drawn from the rows' values of the field. */
    function valuesFor(name: string, field: string, value: string, lookup: NbLookup, rnd: () => number): unknown[] {
      const present = all
        .get(name)!
        .map((r) => r[field])
        .filter((v) => v !== null && v !== undefined);
      const pick = () => present[Math.floor(rnd() * present.length)];
      if (lookup === 'is_null') return [true, false];
      if (value === 'bool') return [true, false];
      if (!present.length) return [];
      const out: unknown[] = [];
      for (let i = 0; i < DRAWS; i++) {
        const v = pick();
        if (value === 'int' || value === 'bigint')
          out.push(lookup === 'in_list' ? [v, Number(v) + 1] : Number(v) + (i % 3) - 1);
        else if (lookup === 'in_list') out.push([String(v), String(pick())]);
        else if (TEXT_TEST[lookup] || lookup === 'i_exact') {
          const s = String(v);
          const at = Math.floor(rnd() * s.length);
          const part = lookup.includes('starts')
            ? s.slice(0, at + 1)
            : lookup.includes('ends')
              ? s.slice(at)
              : s.slice(at, at + 3);
          const cased = lookup.startsWith('i_') && i % 2 ? part.toUpperCase() : part;
          out.push(lookup === 'i_exact' ? (i % 2 ? s.toUpperCase() : s) : cased);
        } else out.push(String(v));
      }
      // Text with regular-expression characters is matched as text: `a.b` is no `a-b`.
      if (TEXT_TEST[lookup]) out.push(String(pick()).replace(/[-/.:]/, '.'), '(', '.*', 'a|b', '[0-9]', '\\d', '^');
      return out;
    }

    for (const name of RESOURCES)
      it(`${name}: every lookup of every value filter answers as its REST lookup`, async () => {
        const rnd = mulberry32(name.length * 7919);
        let checked = 0;
        for (const f of nbFieldsOf(resource(name)).values()) {
          if (f.kind !== 'lookups') continue;
          for (const lookup of NB_LOOKUPS) {
            if (!f.forms.has(lookup)) continue;
            for (const v of valuesFor(name, f.name, f.value, lookup, rnd)) {
              const filters = { [f.name]: { [lookup]: v } };
              const nb = netboxFiltersPlan(resource(name), filters, opts);
              const rest = REST[lookup];
              const what = `${name} ${f.name}.${lookup}: ${JSON.stringify(v)}`;
              if (rest === 'text') {
                const test = TEXT_TEST[lookup]!;
                const want = all
                  .get(name)!
                  .filter((r) => r[f.name] !== null && r[f.name] !== undefined && test(String(r[f.name]), String(v)))
                  .map((r) => String(r.id))
                  .sort();
                expect(nb.ok && (await idsOf(name, nb.plan)), what).to.deep.equal(want);
              } else {
                const suffix = rest.find((s) => f.forms.get(lookup)?.suffix === (s || null));
                expect(suffix, `${what} runs as a documented REST lookup`).to.not.equal(undefined);
                const param = suffix ? `${f.rest}__${suffix}` : f.rest;
                const params = (Array.isArray(v) ? v : [v]).map((x) => [param, String(x)] as [string, string]);
                const res = planQuery(resource(name), parseQuery(params), opts);
                // A value REST refuses is refused here too, with REST's message under the filter's path.
                if (Object.keys(res.errors).length) {
                  const messages = Object.values(res.errors).flat().join(' ');
                  expect(nb.ok ? 'accepted' : nb.message, what).to.equal(`filters.${f.name}.${lookup}: ${messages}`);
                } else expect(nb.ok && (await idsOf(name, nb.plan)), what).to.deep.equal(await idsOf(name, res.plan));
              }
              checked++;
            }
          }
        }
        expect(checked).to.be.greaterThan(20);
      });

    it('the substring lookups find what they should on the demo data', async () => {
      expect(await nbIds('site', { name: { i_contains: 'AMS' } })).to.deep.equal(
        await restIds('site', [['name__ic', 'ams']]),
      );
      expect((await nbIds('site', { name: { starts_with: 'ams' } })).length).to.be.greaterThan(0);
      expect(await nbIds('site', { name: { starts_with: 'AMS' } })).to.deep.equal([]);
    });

    it('an empty in_list matches nothing; a lookup given null is no condition', async () => {
      expect(await nbIds('site', { name: { in_list: [] } })).to.deep.equal([]);
      expect(await nbIds('site', { name: { exact: null }, asn: null })).to.have.length(all.get('site')!.length);
    });

    it('references: `<fk>_id` as the REST `<fk>_id`, `null` for none; `<fk>` through the target filter', async () => {
      const device = all.get('device')![0];
      const site = String(device.site);
      expect(await nbIds('device', { site_id: site })).to.deep.equal(await restIds('device', [['site_id', site]]));
      expect(await nbIds('prefix', { site_id: null })).to.deep.equal(await restIds('prefix', [['site_id', 'null']]));
      const slug = all.get('site')!.find((s) => s.id === site)!.slug as string;
      expect(await nbIds('device', { site: { slug: { exact: slug } } })).to.deep.equal(
        await restIds('device', [['site', slug]]),
      );
      expect(await nbIds('device', { site: { id: { exact: site } } })).to.deep.equal(
        await restIds('device', [['site_id', site]]),
      );
      // Two levels: devices of sites whose name starts with "ams".
      const sites = await restIds('site', [['name__isw', 'ams']]);
      expect(await nbIds('device', { site: { name: { i_starts_with: 'ams' } } })).to.deep.equal(
        await restIds(
          'device',
          sites.map((s) => ['site_id', s] as [string, string]),
        ),
      );
      // NOT keeps objects without the reference, as REST's `__n` does.
      expect(await nbIds('prefix', { NOT: { site: { slug: { exact: slug } } } })).to.deep.equal(
        await restIds('prefix', [['site__n', slug]]),
      );
    });

    it('tags by slug or id: exact as REST `tag`, in_list any of them; other fields are errors', async () => {
      const core = await restIds('site', [['tag', 'core']]);
      const edge = await restIds('site', [['tag', 'edge']]);
      expect(core.length).to.be.greaterThan(0);
      expect(await nbIds('site', { tags: { slug: { exact: 'core' } } })).to.deep.equal(core);
      expect(await nbIds('site', { tags: { slug: { in_list: ['core', 'edge'] } } })).to.deep.equal(
        [...new Set([...core, ...edge])].sort(),
      );
      const id = String((await storage.findBy('tag', 'slug', 'edge'))[0].id);
      expect(await nbIds('site', { tags: { id: { exact: id } } })).to.deep.equal(edge);
      expect(await nbIds('site', { NOT: { tags: { slug: { exact: 'core' } } } })).to.deep.equal(
        await restIds('site', [['tag__n', 'core']]),
      );
      expect(nbError('site', { tags: { name: { exact: 'Core' } } })).to.equal(
        'filters.tags.name: tags filter by slug or id only',
      );
      expect(nbError('site', { tags: { slug: { i_contains: 'c' } } })).to.equal(
        'filters.tags.slug.i_contains: tags filter by slug exact or in_list only',
      );
    });

    it('AND/OR/NOT: fields AND, OR ors its object with the rest, NOT negates its object', async () => {
      const ams = await restIds('site', [['name__ic', 'ams']]);
      const active = await restIds('site', [['status', 'active']]);
      const every = all
        .get('site')!
        .map((r) => String(r.id))
        .sort();
      const inter = (a: string[], b: string[]) => a.filter((x) => b.includes(x));
      const union = (a: string[], b: string[]) => [...new Set([...a, ...b])].sort();
      const minus = (a: string[], b: string[]) => a.filter((x) => !b.includes(x));
      const A = { name: { i_contains: 'ams' } },
        S = { status: { exact: 'active' } };
      expect(await nbIds('site', { ...A, ...S })).to.deep.equal(inter(ams, active));
      expect(await nbIds('site', { ...A, OR: S })).to.deep.equal(union(ams, active));
      expect(await nbIds('site', { ...A, NOT: S })).to.deep.equal(minus(ams, active));
      expect(await nbIds('site', { NOT: A })).to.deep.equal(minus(every, ams));
      expect(await nbIds('site', { AND: A, OR: { NOT: S } })).to.deep.equal(union(ams, minus(every, active)));
      // An object with no condition is none: `OR: {}` does not make everything match.
      expect(await nbIds('site', { ...A, OR: {} })).to.deep.equal(ams);
      expect(await nbIds('site', {})).to.deep.equal(every);
    });

    describe('random filter trees against the REST answers combined by hand', () => {
      /** Leaves on sites: a NetBox field filter and the REST parameters it stands for. */
      const LEAVES: readonly [string, unknown, [string, string][]][] = [
        ['name', { i_contains: 'ams' }, [['name__ic', 'ams']]],
        ['name', { i_starts_with: 'fra' }, [['name__isw', 'fra']]],
        ['status', { exact: 'active' }, [['status', 'active']]],
        [
          'status',
          { in_list: ['planned', 'retired'] },
          [
            ['status', 'planned'],
            ['status', 'retired'],
          ],
        ],
        ['asn', { gt: 65000 }, [['asn__gt', '65000']]],
        ['asn', { is_null: true }, [['asn__isnull', 'true']]],
        ['facility', { i_regex: '^[a-m]' }, [['facility__ire', '^[a-m]']]],
        ['description', { i_contains: 'e' }, [['description__ic', 'e']]],
        ['region_id', null, [['region_id', 'null']]],
        ['tenant', { slug: { i_contains: 'a' } }, []],
      ];
      type Tree = { leaves: number[]; AND?: Tree; OR?: Tree; NOT?: Tree };
      const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
        tree: fc.record(
          {
            leaves: fc.uniqueArray(fc.nat(LEAVES.length - 1), { maxLength: 3, selector: (i) => LEAVES[i][0] }),
            AND: fc.oneof({ depthSize: 'small' }, fc.constant(undefined), tie('tree')),
            OR: fc.oneof({ depthSize: 'small' }, fc.constant(undefined), tie('tree')),
            NOT: fc.oneof({ depthSize: 'small' }, fc.constant(undefined), tie('tree')),
          },
          { requiredKeys: ['leaves'] },
        ),
      }));
      const toFilter = (t: Tree): Record<string, unknown> => {
        const out: Record<string, unknown> = Object.fromEntries(t.leaves.map((i) => [LEAVES[i][0], LEAVES[i][1]]));
        for (const k of ['AND', 'OR', 'NOT'] as const) if (t[k]) out[k] = toFilter(t[k]);
        return out;
      };

      it('matches on 150 random trees', async () => {
        const every = new Set(all.get('site')!.map((r) => String(r.id)));
        const leafSets: Set<string>[] = [];
        for (const [, v, params] of LEAVES)
          leafSets.push(new Set(params.length ? await restIds('site', params) : await nbLeaf(v)));
        async function nbLeaf(v: unknown) {
          // The reference leaf: sites whose tenant's slug contains "a", by the REST tenant_id list.
          void v;
          const tenants = await restIds('tenant', [['slug__ic', 'a']]);
          return tenants.length
            ? restIds(
                'site',
                tenants.map((t) => ['tenant_id', t] as [string, string]),
              )
            : [];
        }
        /** NetBox 4.3's combination in sets; null: no condition. */
        const expected = (t: Tree): Set<string> | null => {
          const parts = t.leaves.map((i) => leafSets[i]);
          const a = t.AND && expected(t.AND),
            o = t.OR && expected(t.OR),
            n = t.NOT && expected(t.NOT);
          if (a) parts.push(a);
          if (n) parts.push(new Set([...every].filter((x) => !n.has(x))));
          const rest = parts.length ? new Set([...every].filter((x) => parts.every((p) => p.has(x)))) : null;
          if (!o) return rest;
          return rest ? new Set([...rest, ...o]) : o;
        };
        await fc.assert(
          fc.asyncProperty(tree, async (t) => {
            const want = [...(expected(t) ?? every)].sort();
            expect(await nbIds('site', toFilter(t)), JSON.stringify(toFilter(t))).to.deep.equal(want);
          }),
          { numRuns: 150, seed: 37 },
        );
      });
    });

    it('errors name the filter path and say what REST says', () => {
      expect(nbError('site', { name: { gt: 'x' } })).to.equal('filters.name.gt: the name filter has no gt lookup');
      expect(nbError('site', { OR: { asn: { exact: 1.5 } } })).to.equal('filters.OR.asn.exact: Enter a whole number.');
      expect(nbError('site', { status: { exact: 'bogus' } })).to.match(
        /^filters\.status\.exact: Select a valid choice/,
      );
      expect(nbError('site', { name: { regex: '(' } })).to.match(/^filters\.name\.regex: Invalid regular expression/);
      expect(nbError('device', { site: { NOT: { name: { is_null: true } } } })).to.equal(
        'filters.site.NOT.name.is_null: the name filter has no is_null lookup',
      );
      expect(nbError('device', { site_id: 'not-an-id' })).to.match(/^filters\.site_id: /);
      expect(nbError('site', { bogus: { exact: 'x' } })).to.equal('filters.bogus: no filter bogus on sites');
      // A nested filter on a type the viewer may not view is refused; the `_id` form is REST's and stays.
      const noSites = { canView: (r: { name: string }) => r.name !== 'site' };
      const refused = netboxFiltersPlan(resource('device'), { site: { name: { exact: 'x' } } }, opts, noSites);
      expect(refused.ok ? '' : refused.message).to.equal('filters.site: you may not view sites');
      expect(netboxFiltersPlan(resource('device'), { site_id: null }, opts, noSites).ok).to.equal(true);
      // Nesting is bounded: 16 objects below `filters` plan, the 17th is an error naming where.
      const nested = (n: number): Record<string, unknown> => (n ? { NOT: nested(n - 1) } : { name: { exact: 'x' } });
      expect(netboxFiltersPlan(resource('site'), nested(16), opts).ok).to.equal(true);
      expect(nbError('site', nested(17))).to.equal(`filters${'.NOT'.repeat(17)}: nested more than 16 levels`);
      // Every error at once, in the order given.
      expect(nbError('site', { name: { gt: 'x' }, asn: { lt: 'x' } }).split('; ')).to.have.length(2);
    });
  });
