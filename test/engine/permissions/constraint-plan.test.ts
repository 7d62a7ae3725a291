// NetBox object-permission constraints as plans (engine/permissions/constraint-plan.ts) on a small
// memory store: each lookup and each kind of path selects the objects NetBox's ORM would, and every
// mistake is an error naming its path.
import { expect } from 'chai';
import {
  anyOf,
  constraintPlan,
  errorLines,
  usesUserToken,
  type ConstraintOptions,
} from '../../../engine/permissions/constraint-plan.js';
import type { Plan } from '../../../engine/plan/nodes.js';
import { contentType, resource } from '../../../engine/schema/registry.js';
import { changeRecords } from '../../../engine/changes/change-records.js';
import { visibleRecords } from '../../../app/change-scope.js';
import type { CustomFieldDef } from '../../../engine/schema/types.js';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';
import type { Row, WriteOp } from '../../../storage/types.js';
import { fullRow } from '../../../bench/full-row.js';

const ids = new Map<string, string>();
const idOf = (key: string): string => {
  if (!ids.has(key)) ids.set(key, `00000000-0000-4000-8000-${(ids.size + 1).toString(16).padStart(12, '0')}`);
  return ids.get(key)!;
};
const ops: WriteOp[] = [];
const add = (name: string, key: string, body: Record<string, unknown>): void => {
  ops.push({ op: 'create', resource: name, row: fullRow(name, idOf(key), body) });
};

const cfDef = (
  name: string,
  type: CustomFieldDef['type'],
  types: string[],
  choices: string[] = [],
): CustomFieldDef => ({
  id: idOf(`cf-${name}`),
  name,
  label: name,
  type,
  filter_logic: 'loose',
  content_types: types,
  choices,
  required: false,
  default: null,
});
const customFields = [
  cfDef('owner', 'text', ['dcim.site', 'ipam.prefix']),
  cfDef('racks', 'integer', ['dcim.site']),
  cfDef('colors', 'multi-select', ['ipam.prefix'], ['red', 'blue']),
];
customFields.forEach(({ id, ...d }) =>
  ops.push({ op: 'create', resource: 'custom_field', row: fullRow('custom_field', id, d) }),
);
add('tag', 'core', { name: 'Core', slug: 'core' });
add('tag', 'edge', { name: 'Edge', slug: 'edge' });
add('tenant_group', 'g-red', { name: 'Red', slug: 'g-red' });
add('tenant_group', 'g-blue', { name: 'Blue', slug: 'g-blue' });
add('tenant', 't-a', { name: 'A', slug: 't-a', group: idOf('g-red') });
add('tenant', 't-b', { name: 'B', slug: 't-b', group: idOf('g-blue') });
add('tenant', 't-c', { name: 'C', slug: 't-c' });
add('region', 'eu', { name: 'Europe', slug: 'eu' });
add('region', 'eu-nl', { name: 'Netherlands', slug: 'eu-nl', parent: idOf('eu') });
const site = (slug: string, body: Record<string, unknown>) =>
  add('site', slug, { name: slug.toUpperCase(), slug, ...body });
site('ams1', {
  region: idOf('eu-nl'),
  tenant: idOf('t-a'),
  tags: [idOf('core')],
  asn: 65001,
  status: 'active',
  description: 'Amsterdam DC',
  custom_fields: { owner: 'team-a', racks: 4 },
});
site('fra1', {
  region: idOf('eu'),
  tenant: idOf('t-b'),
  tags: [idOf('edge'), idOf('core')],
  asn: 65002,
  status: 'planned',
  description: 'frankfurt',
  custom_fields: { owner: 'Team-B', racks: 12 },
});
site('lab', { status: 'retired', description: '', custom_fields: {} });
const prefix = (p: string, body: Record<string, unknown>) => add('prefix', p, { prefix: p, ...body });
prefix('10.0.0.0/8', { status: 'container', tenant: idOf('t-a'), custom_fields: { colors: ['red'] } });
prefix('10.1.0.0/16', { site: idOf('ams1'), tenant: idOf('t-a'), custom_fields: { owner: 'team-a' } });
prefix('10.1.2.0/24', { site: idOf('fra1'), tenant: idOf('t-b'), custom_fields: { colors: ['red', 'blue'] } });
prefix('192.168.0.0/24', { tags: [idOf('edge')] });
prefix('2001:db8::/32', { status: 'reserved' });
add('ip_address', '10.1.2.5/24', { address: '10.1.2.5/24', tenant: idOf('t-b') });
add('ip_address', '10.1.2.6/32', { address: '10.1.2.6/32' });
add('ip_address', '192.168.0.1/24', { address: '192.168.0.1/24', dns_name: 'gw.example' });

const store = new MemoryStorage(null);
const OPTS: ConstraintOptions = { userId: 7, customFields };
const keyOf = (name: string, row: Row) => String(row[resource(name).refField]);

async function selected(name: string, plan: Plan): Promise<string[]> {
  const res = await store.find(name, plan, { limit: 1000, offset: 0, ordering: [] });
  return res.rows.map((r) => keyOf(name, r)).sort();
}
async function select(name: string, constraints: unknown, opts = OPTS): Promise<string[]> {
  const res = constraintPlan(resource(name), constraints, opts);
  if (!res.ok) throw new Error(`${JSON.stringify(constraints)}: ${errorLines(res.errors).join('; ')}`);
  return selected(name, res.plan);
}
const errors = (name: string, constraints: unknown): string[] => {
  const res = constraintPlan(resource(name), constraints, OPTS);
  expect(res.ok, JSON.stringify(constraints)).to.equal(false);
  return res.ok ? [] : errorLines(res.errors);
};

const SITES = ['ams1', 'fra1', 'lab'];
const PREFIXES = ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24', '192.168.0.0/24', '2001:db8::/32'];

/** [resource, constraints, the objects selected (slugs, prefixes, addresses)]. */
const CASES: [string, unknown, string[]][] = [
  // null, {}, [] and a list holding {} constrain nothing
  ['site', null, SITES],
  ['site', {}, SITES],
  ['site', [], SITES],
  ['site', [{ slug: 'lab' }, {}], SITES],
  // text lookups
  ['site', { slug: 'ams1' }, ['ams1']],
  ['site', { slug__exact: 'AMS1' }, []],
  ['site', { slug__iexact: 'AMS1' }, ['ams1']],
  ['site', { slug__in: ['ams1', 'lab', 'nowhere'] }, ['ams1', 'lab']],
  ['site', { slug__in: [] }, []],
  ['site', { description__contains: 'Amster' }, ['ams1']],
  ['site', { description__contains: 'amster' }, []],
  ['site', { description__icontains: 'AMSTER' }, ['ams1']],
  ['site', { description__startswith: 'frank' }, ['fra1']],
  ['site', { description__istartswith: 'FRANK' }, ['fra1']],
  ['site', { description__endswith: 'DC' }, ['ams1']],
  ['site', { description__iendswith: 'dc' }, ['ams1']],
  ['site', { name__regex: '^(AMS|LAB)' }, ['ams1', 'lab']],
  ['site', { name__iregex: '^fra' }, ['fra1']],
  ['site', { description__empty: true }, ['lab']],
  ['site', { description__empty: false }, ['ams1', 'fra1']],
  ['site', { status: 'active' }, ['ams1']],
  ['site', { status__in: ['planned', 'retired'] }, ['fra1', 'lab']],
  // numbers
  ['site', { asn: 65001 }, ['ams1']],
  ['site', { asn: '65002' }, ['fra1']],
  ['site', { asn__gt: 65001 }, ['fra1']],
  ['site', { asn__gte: 65001 }, ['ams1', 'fra1']],
  ['site', { asn__lt: 65002 }, ['ams1']],
  ['site', { asn__lte: 65002 }, ['ams1', 'fra1']],
  ['site', { asn__range: [65000, 65001] }, ['ams1']],
  ['site', { asn__isnull: true }, ['lab']],
  ['site', { asn: null }, ['lab']],
  ['site', { asn__isnull: false }, ['ams1', 'fra1']],
  // the object's own id
  ['site', { id: idOf('fra1') }, ['fra1']],
  ['site', { pk__in: [idOf('fra1'), idOf('lab')] }, ['fra1', 'lab']],
  // foreign keys: by id, through the target, any depth; null references
  ['site', { tenant: idOf('t-a') }, ['ams1']],
  ['site', { tenant_id: idOf('t-b') }, ['fra1']],
  ['site', { tenant__id: idOf('t-b') }, ['fra1']],
  ['site', { tenant__in: [idOf('t-a'), idOf('t-b')] }, ['ams1', 'fra1']],
  ['site', { tenant: null }, ['lab']],
  ['site', { tenant__isnull: false }, ['ams1', 'fra1']],
  ['site', { tenant__slug: 't-a' }, ['ams1']],
  ['site', { tenant__group__slug: 'g-blue' }, ['fra1']],
  ['site', { tenant__group__slug__in: ['g-blue', 'g-red'] }, ['ams1', 'fra1']],
  ['site', { tenant__group__isnull: true }, ['lab']],
  ['site', { tenant__group__name__isnull: true }, ['lab']],
  ['site', { tenant__group__slug: null }, ['lab']],
  ['site', { tenant__group__isnull: false }, ['ams1', 'fra1']],
  // a tree's fk is the object itself, not its descendants (Django's exact)
  ['site', { region: idOf('eu') }, ['fra1']],
  ['site', { region__parent__slug: 'eu' }, ['ams1']],
  ['prefix', { site__tenant__group__slug: 'g-red' }, ['10.1.0.0/16']],
  ['prefix', { _site__slug: 'ams1' }, ['10.1.0.0/16']],
  ['prefix', { _region: idOf('eu') }, ['10.1.2.0/24']],
  // tags
  ['site', { tags__slug: 'core' }, ['ams1', 'fra1']],
  ['site', { tags__slug__in: ['edge'] }, ['fra1']],
  ['site', { tags: idOf('edge') }, ['fra1']],
  ['site', { tags__id__in: [idOf('core')] }, ['ams1', 'fra1']],
  ['prefix', { site__tags__slug: 'edge' }, ['10.1.2.0/24']],
  ['prefix', { site__tags__slug: 'core', tags__slug__in: ['edge', 'core'] }, []],
  ['site', [{ tags__slug: 'edge' }, { tags__slug: 'core' }], ['ams1', 'fra1']],
  // custom fields
  ['site', { custom_field_data__owner: 'team-a' }, ['ams1']],
  ['site', { cf_owner: 'team-a' }, ['ams1']],
  ['site', { custom_field_data__owner__iexact: 'TEAM-B' }, ['fra1']],
  ['site', { custom_field_data__owner__icontains: 'team' }, ['ams1', 'fra1']],
  ['site', { custom_field_data__owner__isnull: true }, ['lab']],
  ['site', { custom_field_data__racks__gt: 5 }, ['fra1']],
  ['site', { cf_racks__in: [4, 5] }, ['ams1']],
  ['prefix', { custom_field_data__colors__contains: 'blue' }, ['10.1.2.0/24']],
  ['prefix', { site__cf_owner: 'team-a' }, ['10.1.0.0/16']],
  // networks
  ['prefix', { prefix: '10.1.0.0/16' }, ['10.1.0.0/16']],
  ['prefix', { prefix__in: ['10.1.0.0/16', '2001:db8::/32'] }, ['10.1.0.0/16', '2001:db8::/32']],
  ['prefix', { prefix__net_contained: '10.0.0.0/8' }, ['10.1.0.0/16', '10.1.2.0/24']],
  ['prefix', { prefix__net_contained_or_equal: '10.0.0.0/8' }, ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24']],
  ['prefix', { prefix__net_contains: '10.1.2.0/24' }, ['10.0.0.0/8', '10.1.0.0/16']],
  ['prefix', { prefix__net_contains_or_equals: '10.1.2.0/24' }, ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24']],
  ['prefix', { prefix__net_host: '10.1.0.0' }, ['10.1.0.0/16']],
  ['prefix', { prefix__family: 6 }, ['2001:db8::/32']],
  ['prefix', { prefix__net_mask_length__gte: 24 }, ['10.1.2.0/24', '192.168.0.0/24', '2001:db8::/32']],
  ['prefix', { prefix__net_mask_length: 16 }, ['10.1.0.0/16']],
  ['prefix', { prefix__startswith: '10.1.' }, ['10.1.0.0/16', '10.1.2.0/24']],
  ['prefix', { prefix__endswith: '/24' }, ['10.1.2.0/24', '192.168.0.0/24']],
  ['ip_address', { address: '10.1.2.6' }, ['10.1.2.6/32']],
  ['ip_address', { address: '10.1.2.5/24' }, ['10.1.2.5/24']],
  ['ip_address', { address: '10.1.2.5' }, []],
  ['ip_address', { address__net_host: '10.1.2.5' }, ['10.1.2.5/24']],
  ['ip_address', { address__net_host_contained: '10.1.2.0/24' }, ['10.1.2.5/24', '10.1.2.6/32']],
  ['ip_address', { address__net_in: ['10.1.2.5', '192.168.0.1/24'] }, ['10.1.2.5/24', '192.168.0.1/24']],
  ['ip_address', { address__net_in: ['192.168.0.1/32'] }, []],
  ['ip_address', { address__family: 4, dns_name__endswith: '.example' }, ['192.168.0.1/24']],
  // OR across a list, AND within an object
  ['prefix', [{ tenant__slug: 't-b' }, { status: 'reserved' }], ['10.1.2.0/24', '2001:db8::/32']],
  ['prefix', { tenant__slug: 't-a', status: 'container' }, ['10.0.0.0/8']],
  ['prefix', [{ tenant__slug: 't-a', site__isnull: false }, { tags__slug: 'edge' }], ['10.1.0.0/16', '192.168.0.0/24']],
];

describe('permission constraints: NetBox JSON -> plans', () => {
  before(async () => {
    await store.apply(ops);
  });

  for (const [name, constraints, want] of CASES)
    it(`${name} ${JSON.stringify(constraints)}`, async () => {
      expect(await select(name, constraints)).to.deep.equal(want);
    });

  // The change log, the stream and webhook deliveries judge a record by its copy of the object
  // (app/change-scope.ts, engine/memory/row-match.ts): the same objects as the store's own evaluation.
  it('a change record of each object (create, and delete) is shown exactly for the objects selected', async () => {
    let n = 0;
    const meta = { time: 't', userName: 'u', requestId: 'r', newId: () => idOf(`change-${n++}`) };
    for (const [name, constraints, want] of CASES) {
      const r = resource(name);
      const res = constraintPlan(r, constraints, OPTS);
      if (!res.ok) throw new Error(JSON.stringify(constraints));
      const objects = (await store.find(name, { kind: 'const', value: true }, { limit: 1000, offset: 0, ordering: [] }))
        .rows;
      const scope = { all: false, open: [], constrained: new Map([[contentType(r), res.plan]]) };
      for (const op of ['create', 'delete'] as const) {
        const batch = objects.map((row) =>
          op === 'create' ? { op, resource: name, row } : { op, resource: name, id: row.id, before: row },
        );
        const records = changeRecords(batch, meta);
        const shown = await visibleRecords(store, scope, records);
        const keys = shown
          .map((c) =>
            keyOf(
              name,
              objects.find((o) => o.id === c.changed_object_id)!,
            ),
          )
          .sort();
        expect(keys, `${op} ${name} ${JSON.stringify(constraints)}`).to.deep.equal(want);
      }
    }
  });

  it('every prefix is reachable: the fixture has what the cases claim', async () => {
    expect(await select('prefix', null)).to.deep.equal([...PREFIXES].sort());
  });

  it('$user stands for the requesting user, as a value or a list item', async () => {
    const as = (userId: number | null) => ({ ...OPTS, userId });
    expect(await select('site', { asn: '$user' }, as(65001))).to.deep.equal(['ams1']);
    expect(await select('site', { asn__in: ['$user', 65001] }, as(65002))).to.deep.equal(['ams1', 'fra1']);
    expect(await select('site', { asn: '$user' }, as(7))).to.deep.equal([]);
    // No user: `$user` is null, as NetBox's anonymous user's id: `exact: null` is isnull.
    expect(await select('site', { asn: '$user' }, as(null))).to.deep.equal(['lab']);
    expect(usesUserToken({ asn: '$user' })).to.equal(true);
    expect(usesUserToken([{ slug: 'x' }, { asn__in: [1, '$user'] }])).to.equal(true);
    expect(usesUserToken([{ slug: '$users' }])).to.equal(false);
  });

  it('anyOf ORs several permissions; none admits nothing', async () => {
    const plan = (c: unknown) => {
      const r = constraintPlan(resource('site'), c, OPTS);
      if (!r.ok) throw new Error('refused');
      return r.plan;
    };
    expect(await selected('site', anyOf([plan({ slug: 'ams1' }), plan({ status: 'retired' })]))).to.deep.equal([
      'ams1',
      'lab',
    ]);
    expect(await selected('site', anyOf([]))).to.deep.equal([]);
    expect(await selected('site', anyOf([plan({ slug: 'ams1' }), plan(null)]))).to.deep.equal(SITES);
  });

  const ERRORS: [string, unknown, string][] = [
    ['site', { tenant__grop__slug: 'x' }, 'tenant__grop__slug: unknown field "grop" on tenant'],
    ['site', { nme: 'x' }, 'nme: unknown field "nme" on site'],
    ['site', { name__foo: 'x' }, 'name__foo: unknown lookup "foo"'],
    ['site', { name__icontains__x: 'x' }, 'name__icontains__x: unknown lookup "icontains__x"'],
    ['site', { name__gt: 'x' }, 'name__gt: lookup "gt" does not apply to name'],
    ['site', { asn__icontains: '6' }, 'asn__icontains: lookup "icontains" does not apply to asn'],
    ['site', { asn: 'many' }, 'asn: '],
    ['site', { status: 'asleep' }, 'status: '],
    ['site', { slug__in: 'ams1' }, 'slug__in: in takes a list'],
    ['site', { slug: { a: 1 } }, 'slug: expected a text, a number or a boolean'],
    ['site', { name__regex: '(' }, 'name__regex: '],
    ['site', { tenant: 'not-an-id' }, 'tenant: '],
    ['site', { asn__isnull: 'yes' }, 'asn__isnull: isnull takes true or false'],
    ['site', { name__icontains: null }, 'name__icontains: icontains does not take null here'],
    ['site', { tags__name: 'Core' }, 'tags__name: tags are matched by slug or id, not "name"'],
    ['site', { cf_nothing: 'x' }, 'cf_nothing: unknown custom field "nothing" on site'],
    ['tenant', { cf_owner: 'x' }, 'cf_owner: unknown custom field "owner" on tenant'],
    ['prefix', { prefix__net_contained: 'ten' }, 'prefix__net_contained: '],
    ['prefix', { prefix__net_contained: '10.0.0.0/8', status: 'x' }, 'status: '],
    ['site', { tenant____slug: 'x' }, 'tenant____slug: not a field path'],
    ['site', [{ slug: 'ams1' }, { tenant__grop: 1 }], '[1].tenant__grop: unknown field "grop" on tenant'],
    ['site', ['slug'], '[0]: expected an object of path__lookup: value pairs'],
    ['site', 'slug', '(constraints): expected an object'],
    ['webhook', { additional_headers__contains: 'Bearer' }, 'additional_headers__contains: unknown field'],
    ['site', { asn__range: [1] }, 'asn__range: range takes [low, high]'],
    ['site', { tags__slug: 'core', tags__id: idOf('core') }, 'tags__id: one condition on the tags of an object'],
    ['site', { parent__parent__parent__parent__parent__parent__parent__parent__parent: 1 }, 'unknown field "parent"'],
    ['region', { parent__parent__parent__parent__parent__parent__parent__parent__parent__slug: 'x' }, 'more than 8'],
  ];
  for (const [name, constraints, want] of ERRORS)
    it(`refused, naming the path: ${name} ${JSON.stringify(constraints)}`, () => {
      const lines = errors(name, constraints);
      expect(
        lines.some((l) => l.includes(want)),
        lines.join('; '),
      ).to.equal(true);
    });

  it('integer ids: ids as numbers, uuids refused', async () => {
    const opts = { ...OPTS, ids: (await import('../../../engine/schema/id-style.js')).INTEGER_IDS };
    expect(constraintPlan(resource('site'), { tenant_id: 17, id__in: [1, '2'] }, opts).ok).to.equal(true);
    expect(constraintPlan(resource('site'), { tenant_id: idOf('t-a') }, opts).ok).to.equal(false);
  });
});
