// The planner, table-driven: each row is a query on a resource and the plan it gives (in
// describe() form) or the errors it gives. Then the catalogue as a whole: every lookup row of
// every filter plans, every foreign key has its `<fk>_id`, `__isnull` exactly on nullable fields.
import { expect } from 'chai';
import { parseQuery } from '../../../engine/query/parse.js';
import { planQuery, resolveLookup } from '../../../engine/plan/planner.js';
import { describe as describePlan } from '../../../engine/plan/describe.js';
import { cfFilterSpec, filtersOf } from '../../../engine/filters/filter-set.js';
import { CF_LOOKUPS, STRING_LOOKUPS } from '../../../engine/filters/lookups.js';
import { RESOURCES, resource } from '../../../engine/schema/registry.js';
import type { CustomFieldDef, CustomFieldType } from '../../../engine/schema/types.js';

const cf = (
  name: string,
  type: CustomFieldType,
  filter_logic: CustomFieldDef['filter_logic'] = 'loose',
): CustomFieldDef => ({
  id: name,
  name,
  label: name,
  type,
  filter_logic,
  content_types: ['dcim.site'],
  choices: [],
  required: false,
  default: null,
});
const CFS = [
  cf('t', 'text', 'exact'),
  cf('u', 'text'),
  cf('racks', 'integer'),
  cf('feat', 'multi-select'),
  cf('mon', 'boolean'),
  cf('since', 'date'),
  cf('j', 'json'),
  cf('off', 'text', 'disabled'),
];

function planned(name: string, qs: string, strict = true) {
  return planQuery(resource(name), parseQuery(new URLSearchParams(qs)), { strict, customFields: CFS });
}

const ID = 'b5b0d2a0-0000-4000-8000-000000000001';
const UNKNOWN = ['Unknown filter field'];
const BOOL = ['Must be a valid boolean.'];

/** [resource, query, plan in describe() form | errors by parameter]. */
const ROWS: readonly (readonly [string, string, string | Record<string, string[]>])[] = [
  // Scalars: the base row, string and numeric rows, negation as complement.
  ['site', 'name=S1', 'name eq "S1"'],
  ['site', 'name__n=a&name__n=b', 'not(name eq "a" | "b")'],
  ['site', 'name__ic=x', 'name icontains "x"'],
  ['site', 'name__nire=^x', 'not(name iregex "^x")'],
  ['site', 'name__re=(', { name__re: ['Invalid regular expression: error parsing regexp: missing closing ): `(`'] }],
  ['site', 'asn__gte=5', 'asn gte 5'],
  ['site', 'asn=x', { asn: ['Enter a whole number.'] }],
  ['site', 'status=bogus', { status: ['Select a valid choice. bogus is not one of the available choices.'] }],
  ['site', 'id__n=B5B0D2A0-0000-4000-8000-000000000001', `not(id eq "${ID}")`],
  ['site', 'name=', 'all objects'],
  // __empty (NetBox) on string fields: null or "", its complement; booleans only.
  ['site', 'name__empty=true', 'or(name is null, name eq "")'],
  ['site', 'name__empty=false', 'not(or(name is null, name eq ""))'],
  ['site', 'status__empty=yes', 'or(status is null, status eq "")'],
  ['interface', 'mac_address__empty=true', 'or(mac_address is null, mac_address eq "")'],
  ['site', 'name__empty=maybe', { name__empty: BOOL }],
  ['site', 'asn__empty=true', { asn__empty: UNKNOWN }],
  // __isnull (Nautobot 2.1) on nullable fields only.
  ['site', 'asn__isnull=true', 'asn is null'],
  ['site', 'asn__isnull=0', 'not(asn is null)'],
  ['site', 'asn__isnull=null', { asn__isnull: BOOL }],
  ['site', 'asn__isnull=maybe&name__isnull=true', { asn__isnull: BOOL, name__isnull: UNKNOWN }],
  ['interface', 'mac_address__isnull=false', 'not(mac_address is null)'],
  ['interface', 'enabled__isnull=true', { enabled__isnull: UNKNOWN }],
  // Foreign keys and <fk>_id: the same lookups; _id takes ids (any UUID spelling) or null.
  ['site', 'region=eu', 'region in region(eu) or below'],
  ['site', 'region=null&region=EU', 'or(region in region(EU) or below, region is null)'],
  ['site', 'region__n=eu', 'not(region in region(eu) or below)'],
  ['site', `region_id=${ID.toUpperCase()}`, `region in region ids(${ID}) or below`],
  ['site', `region_id={${ID}}`, `region in region ids(${ID}) or below`],
  ['site', 'region_id=eu', { region_id: ['"eu" is not a valid UUID.'] }],
  ['site', 'region_id__n=null', 'not(region is null)'],
  ['site', 'region__isnull=false', 'not(region is null)'],
  ['site', 'region_id__isnull=true', 'region is null'],
  ['site', 'region__ic=e', { region__ic: UNKNOWN }],
  ['region', 'parent_id=null', 'parent is null'],
  ['prefix', `vlan_id=${ID}&site_id__n=null`, `and(vlan in vlan ids(${ID}), not(site is null))`],
  ['interface', 'device__isnull=true', { device__isnull: UNKNOWN }],
  // Related objects' keys, with their _id forms; no __isnull (not a field of the resource).
  ['device', 'region=eu', 'site where region in region(eu) or below'],
  ['device', `region_id=${ID}`, `site where region in region ids(${ID}) or below`],
  ['prefix', 'region__n=null', 'not(or(site where region is null, site is null))'],
  ['device', 'region__isnull=true', { region__isnull: UNKNOWN }],
  // Tags.
  ['site', 'tag=a&tag=b', 'and(tagged a, tagged b)'],
  ['site', 'tag__n=a', 'not(tagged a)'],
  ['site', 'tag__isnull=true', { tag__isnull: UNKNOWN }],
  // Networks: network rows, family, address text rows; convenience filters take no lookup.
  ['prefix', 'network=10.0.0.0/8', 'network equal 10.0.0.0/8'],
  ['prefix', 'network__net_contained=10.0.0.0/8', 'network contained 10.0.0.0/8'],
  ['prefix', 'network__family=6', 'family eq 6'],
  ['prefix', 'network__family=5', { network__family: ['Enter a valid IP family: 4 or 6.'] }],
  ['prefix', 'network__istartswith=FD', 'network istartswith "FD"'],
  [
    'prefix',
    'network__net_host=banana',
    { network__net_host: ['"banana" is not a valid IPv4 or IPv6 address or network.'] },
  ],
  ['prefix', 'network__isnull=true', { network__isnull: UNKNOWN }],
  ['prefix', 'within=10.0.0.0/8', 'network contained 10.0.0.0/8'],
  ['prefix', 'within__n=10.0.0.0/8', { within__n: UNKNOWN }],
  ['prefix', 'contains=10.0.0.1', 'network contains_or_equal 10.0.0.1/32'],
  ['prefix', 'family=4', 'family eq 4'],
  ['prefix', 'mask_length__lt=24', 'prefix_length lt 24'],
  ['ip_address', 'address=10.0.0.1', 'host addr_eq 10.0.0.1/32'],
  ['ip_address', 'parent=10.0.0.0/24', 'host addr_in 10.0.0.0/24'],
  // q.
  [
    'site',
    'q=ams',
    'or(name icontains "ams", slug icontains "ams", facility icontains "ams", description icontains "ams")',
  ],
  ['site', 'q__ic=ams', { q__ic: UNKNOWN }],
  // Custom fields: lookups by type, every type with __isnull, text types with __empty.
  ['site', 'cf_t=x', 'cf_t eq "x"'],
  ['site', 'cf_u=x', 'cf_u icontains "x"'],
  [
    'site',
    'cf_t=a&cf_t=b',
    { cf_t: ['This filter takes one value only; use a lookup such as __ie or __ic to give several.'] },
  ],
  ['site', 'cf_t__n=null', 'cf_t present '],
  ['site', 'cf_t__isnull=true', 'not(cf_t present )'],
  ['site', 'cf_t__isnull=false', 'cf_t present '],
  ['site', 'cf_t__empty=true', 'or(not(cf_t present ), cf_t eq "")'],
  ['site', 'cf_u__empty=false', 'not(or(not(cf_u present ), cf_u eq ""))'],
  ['site', 'cf_racks__isnull=true', 'not(cf_racks present )'],
  ['site', 'cf_racks__lt=4', 'cf_racks lt 4'],
  ['site', 'cf_racks__empty=true', { cf_racks__empty: UNKNOWN }],
  ['site', 'cf_feat=bgp', 'cf_feat has "bgp"'],
  ['site', 'cf_feat__isnull=false', 'cf_feat present '],
  ['site', 'cf_mon=true', 'cf_mon eq true'],
  ['site', 'cf_mon__isnull=true', 'not(cf_mon present )'],
  ['site', 'cf_mon__isnull=x', { cf_mon__isnull: BOOL }],
  ['site', 'cf_since__gte=2024-01-01', 'cf_since gte "2024-01-01"'],
  ['site', 'cf_j__isnull=true', 'not(cf_j present )'],
  ['site', 'cf_off__isnull=true', { cf_off__isnull: UNKNOWN }],
  ['site', 'cf_nope=1', { cf_nope: UNKNOWN }],
  // Names of the object prototype are no filters and no lookups.
  ['site', 'constructor=1', { constructor: UNKNOWN }],
  ['site', 'name__constructor=1', { name__constructor: UNKNOWN }],
  ['site', 'cf_t__toString=1', { cf_t__toString: UNKNOWN }],
  ['site', 'bogus=1&asn__lt=x', { bogus: UNKNOWN, asn__lt: ['Enter a whole number.'] }],
];

describe('planner: parameter -> plan or error', () => {
  for (const [name, qs, want] of ROWS) {
    it(`${name}?${qs} -> ${typeof want === 'string' ? want : JSON.stringify(want)}`, () => {
      const p = planned(name, qs);
      if (typeof want === 'string') {
        expect(p.errors, qs).to.deep.equal({});
        expect(describePlan(p.plan)).to.equal(want);
      } else {
        expect({ ...p.errors }).to.deep.equal(want);
      }
    });
  }

  it('drops unknown parameters and lookups when filtering is not strict, still refusing bad values', () => {
    const p = planned('site', 'bogus=1&name__isnull=true&asn__isnull=true&asn__isnull=maybe', false);
    expect(p.ignored).to.deep.equal(['bogus', 'name__isnull']);
    expect({ ...p.errors }).to.deep.equal({ asn__isnull: BOOL });
  });
});

describe('planner: the lookup catalogue as a whole', () => {
  const inventory = RESOURCES.filter((r) => r.inventory !== false);
  // A value each kind of row takes: one of these plans without errors.
  const SAMPLES = ['true', 'x', '4', '10.0.0.0/8', ID, '2024-01-01', 'active', 'virtual', 'AA:BB:CC:00:11:22'];

  it('plans every lookup row of every filter, custom fields included (no row a filter cannot use)', () => {
    let rows = 0;
    for (const r of RESOURCES) {
      const specs = [...filtersOf(r).values(), ...CFS.filter((d) => d.filter_logic !== 'disabled').map(cfFilterSpec)];
      for (const spec of specs) {
        for (const lk of [null, ...Object.keys(spec.lookups)]) {
          const param = `${spec.type === 'cf' ? 'cf_' : ''}${spec.name}${lk === null ? '' : `__${lk}`}`;
          expect(resolveLookup(spec, lk), param).to.not.equal(null);
          const choice =
            spec.type === 'scalar' && spec.choices
              ? [spec.choices[0].value]
              : spec.type === 'generic'
                ? [...spec.types]
                : [];
          const ok = [...SAMPLES, ...choice].some((v) => {
            const p = planQuery(r, parseQuery([[param, v]]), { strict: true, customFields: CFS });
            return Object.keys(p.errors).length === 0;
          });
          expect(ok, `${r.name}: ${param}`).to.equal(true);
          rows++;
        }
      }
    }
    expect(rows).to.be.greaterThan(500);
  });

  it("derives <fk>_id from every foreign key in the registry, with the reference filter's lookups", () => {
    let fks = 0;
    for (const r of inventory) {
      const filters = filtersOf(r);
      for (const f of r.fields.filter((x) => x.kind === 'fk' && x.filter !== false)) {
        const ref = filters.get(f.name),
          byId = filters.get(`${f.name}_id`);
        expect(ref?.type, `${r.name}.${f.name}`).to.equal('fk');
        expect(byId?.type, `${r.name}.${f.name}_id`).to.equal('fk');
        if (ref?.type !== 'fk' || byId?.type !== 'fk') continue;
        expect(byId.lookups, `${r.name}.${f.name}_id`).to.deep.equal(ref.lookups);
        expect({ ...byId, name: ref.name, byId: false }).to.deep.equal(ref);
        expect(byId.byId).to.equal(true);
        fks++;
      }
      // Related objects' keys come with their _id form too.
      for (const s of filters.values())
        if (s.type === 'path' && !s.name.endsWith('_id'))
          expect(filters.get(`${s.name}_id`)?.type, `${r.name}: ${s.name}_id`).to.equal('path');
    }
    expect(fks).to.be.greaterThan(6);
    expect([...filtersOf(resource('prefix')).keys()]).to.include.members(['site_id', 'vlan_id', 'region_id']);
    expect([...filtersOf(resource('interface')).keys()]).to.include.members(['device_id', 'site_id', 'region_id']);
    expect([...filtersOf(resource('site')).keys()]).to.include('region_id');
  });

  it('offers __isnull on exactly the nullable fields and every custom field, __empty on every string field', () => {
    for (const r of inventory) {
      for (const spec of filtersOf(r).values()) {
        if (spec.type !== 'scalar' && spec.type !== 'fk') continue;
        const field = r.fields.find((f) => f.name === spec.field)!;
        expect('isnull' in spec.lookups, `${r.name}: ${spec.name}`).to.equal(!!field.nullable);
        if (spec.type === 'scalar')
          expect('empty' in spec.lookups, `${r.name}: ${spec.name}`).to.equal(spec.lookups.ic === STRING_LOOKUPS.ic);
      }
    }
    for (const [type, lookups] of Object.entries(CF_LOOKUPS)) {
      expect(lookups, type).to.have.property('isnull');
      expect('empty' in lookups, type).to.equal(['text', 'url', 'select'].includes(type));
    }
  });
});
