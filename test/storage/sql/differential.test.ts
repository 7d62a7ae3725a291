// Differential test: the memory store is the reference. Random datasets (sites in a region tree,
// prefixes, IP addresses, custom field definitions, with tags and custom field values) are loaded
// into memory and into every configured SQL database; random plans built from the node factories
// (every node kind and op, planner-shaped and raw) and by the planner from random parameters (every
// filter with every row of its lookup table) must give the same id sets, counts and ordered
// pages everywhere. DIFF_PLANS (default 450) is the number of plans at least: each dataset gets
// 15-30 of them. Databases: TEST_POSTGRES_URL, TEST_MYSQL_URL (MariaDB), TEST_MYSQL9_URL (MySQL 9).
// chai 6 ships no type declarations and @types/chai is not installed.
// @ts-ignore -- harmless once typings exist
import { MIGRATIONS } from '../../../storage/sql/migrations.js';
import { expect } from 'chai';
import fc from 'fast-check';
import * as N from '../../../engine/plan/nodes.js';
import type { CmpOp, Plan, Scalar, ValueType } from '../../../engine/plan/nodes.js';
import { netValuePlan, parseNetValue } from '../../../engine/plan/net-terms.js';
import type { NetLookup } from '../../../engine/filters/lookups.js';
import { describe as describePlan } from '../../../engine/plan/describe.js';
import { broadcastOf, networkOf, parseCidr, u32ToHex, type Family } from '../../../engine/net/ip.js';
import { deriveNetFields } from '../../../engine/schema/net-derive.js';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';
import { evaluate } from '../../../engine/memory/evaluate.js';
import { SqlStorage } from '../../../storage/sql/sql-storage.js';
import { PgDriver } from '../../../storage/postgres/pg-driver.js';
import { MysqlDriver } from '../../../storage/mysql/mysql-driver.js';
import { TEST_DB_KINDS, testDatabaseOrSkip, testDbDriver, type TestDbKind } from '../../../storage/test-db.js';
import { createPostgresStorage } from '../../../storage/postgres/index.js';
import { createMysqlStorage } from '../../../storage/mysql/index.js';
import {
  StorageConflict,
  StorageUnavailable,
  type OrderKey,
  type Page,
  type Row,
  type Storage,
  type WriteOp,
} from '../../../storage/types.js';

import { mulberry32 } from '../../../engine/random/mulberry32.js';
import { cfFilterSpec, filtersOf, type CfFilterSpec, type FilterSpec } from '../../../engine/filters/filter-set.js';
import { parseQuery } from '../../../engine/query/parse.js';
import { planQuery, resolveLookup } from '../../../engine/plan/planner.js';
import { hasCustomFields, resource as schemaResource } from '../../../engine/schema/registry.js';
import type { CustomFieldDef, CustomFieldType } from '../../../engine/schema/types.js';
import { MSG } from '../../../engine/schema/messages.js';
import type { IdStyleName } from '../../../engine/schema/id-style.js';

const PLANS_PER_DATASET = { min: 15, max: 30 };
const PLANS = Number(process.env.DIFF_PLANS ?? 450);
const RUNS = Math.ceil(PLANS / PLANS_PER_DATASET.min);

// ---- deterministic pools ----------------------------------------------------------------------

/** mulberry32 (seeded): datasets are built from a seed, so a failing run replays exactly. */
const rng = mulberry32;

/** The id style of this run: uuid, or integer when the file is imported as `differential.test.js?ids=integer`
 * (differential-integer.test.ts): one body of tests, a module instance per style. */
const ID_STYLE_RUN: IdStyleName = new URL(import.meta.url).searchParams.get('ids') === 'integer' ? 'integer' : 'uuid';
const STORE = { idStyle: ID_STYLE_RUN } as const;

const idRand = rng(7);
let nextInteger = 1;
const uuid = (): string => {
  if (ID_STYLE_RUN === 'integer') return String((nextInteger += 1 + Math.floor(idRand() * 3)));
  const h = Array.from({ length: 32 }, () => Math.floor(idRand() * 16).toString(16)).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
const ids = (n: number) => Array.from({ length: n }, uuid);
const TAG_IDS = ids(5),
  REGION_IDS = ids(6),
  SITE_IDS = ids(12),
  PREFIX_IDS = ids(30),
  IP_IDS = ids(20),
  CF_IDS = ids(6);
const TAG_SLUGS = ['core', 'edge', 'lab', 'Core', TAG_IDS[0]]; // a slug that is another tag's id
const REGION_SLUGS = ['r0', 'r1', 'r2', 'r3', 'r4', REGION_IDS[1]];
const SITE_SLUGS = SITE_IDS.map((_, i) => `s${i}`);

// BMP letters only (JS compares UTF-16 units, databases code points) and none with special casing.
const ALPHABET = ['a', 'b', 'c', 'A', 'B', 'é', 'É', 'ß', '0', '1', ' ', '%', '_', '!', '\\', '-', '.'];
const INSTANTS = [
  '2024-01-01T00:00:00.000Z',
  '2024-01-01T00:00:00.001Z',
  '2024-02-29T12:30:00.000Z',
  '2025-06-01T08:00:00.500Z',
];
const STATUSES = {
  site: ['active', 'planned', 'retired'],
  prefix: ['active', 'container', 'reserved'],
  ip_address: ['active', 'dhcp', 'reserved'],
};
const FEATURES = ['bgp', 'ospf', 'mpls', 'BGP'];

// Patterns whose meaning RE2, PostgreSQL ARE (after respelling) and PCRE2 share on this data
// (docs/storage.md lists the differences: \w \b are Unicode-aware on MariaDB).
const PATTERNS = [
  '^a',
  'b$',
  'a.b',
  '[0-9]',
  '\\d',
  'A|é',
  '^[a-cA-C]+$',
  '(ab)+',
  'É',
  '%',
  '_',
  '\\.',
  '^$',
  'x*',
  '[^a]',
  'ß',
  '\\\\',
  '!',
  '^.{2,3}$',
  '(?i)ab',
  '\\Qa.b\\E',
  ' $',
  '^1',
  '[é]',
];

// ---- datasets ---------------------------------------------------------------------------------

interface DatasetSpec {
  readonly seed: number;
  readonly sites: number;
  readonly prefixes: number;
  readonly ips: number;
  readonly cfs: number;
}

function buildDataset(spec: DatasetSpec): WriteOp[] {
  const r = rng(spec.seed);
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  const maybe = (p: number) => r() < p;
  const str = (max = 5) => Array.from({ length: int(max + 1) }, () => pick(ALPHABET)).join('');
  const subset = <T>(xs: readonly T[]) => xs.filter(() => maybe(0.35)).sort(() => r() - 0.5);
  const stamps = () => ({ created: pick(INSTANTS), last_updated: pick(INSTANTS), version: pick([1, 2, 7]) });
  const ops: WriteOp[] = [];
  const create = (resource: string, row: Row) => ops.push({ op: 'create', resource, row });

  TAG_IDS.forEach((id, i) =>
    create('tag', { id, ...stamps(), name: `Tag${i}`, slug: TAG_SLUGS[i], color: '9e9e9e', description: str() }),
  );
  REGION_IDS.forEach((id, i) =>
    create('region', {
      id,
      ...stamps(),
      name: str(),
      slug: REGION_SLUGS[i],
      parent: i > 0 && maybe(0.7) ? REGION_IDS[int(i)] : null,
      description: '',
    }),
  );

  const cfValues = (): Record<string, unknown> => {
    const cf: Record<string, unknown> = {};
    if (maybe(0.7)) cf.contact = maybe(0.15) ? null : str(4);
    if (maybe(0.7)) cf.rack_count = maybe(0.1) ? String(int(12)) : int(12) - 2;
    if (maybe(0.6)) cf.features = subset(FEATURES);
    if (maybe(0.5)) cf.monitored = maybe(0.5);
    if (maybe(0.5)) cf.commissioned = `202${int(5)}-0${1 + int(9)}-1${int(9)}`;
    if (maybe(0.5)) cf.extra = pick<unknown>([1.5, -2, 0, 'a', 'B', true, false, ['a', 1], { a: 'x' }, str(3), 10]);
    return cf;
  };

  const sites: string[] = [];
  for (let i = 0; i < spec.sites; i++) {
    const id = SITE_IDS[i];
    sites.push(id);
    create('site', {
      id,
      ...stamps(),
      name: `${str(3)}#${i}`,
      slug: SITE_SLUGS[i],
      status: pick(STATUSES.site),
      region: maybe(0.8) ? pick(REGION_IDS) : null,
      asn: maybe(0.7) ? 65000 + int(5) : null,
      facility: str(3),
      physical_address: '',
      description: str(),
      tags: subset(TAG_IDS),
      custom_fields: cfValues(),
      group: null,
      tenant: null,
    });
  }

  const v4 = () =>
    (pick([10, 10, 192, 172]) * 2 ** 24 + pick([0, 1, 168, 16]) * 2 ** 16 + int(4) * 2 ** 8 + int(256)) >>> 0;
  const v6 = () =>
    '20010db8' +
    pick(['0000', '0001', 'abcd']) +
    '0000' +
    u32ToHex((int(4) << 28) >>> 0) +
    '000' +
    int(3) +
    pick(['0000', '0001', 'ffff']);
  for (let i = 0; i < spec.prefixes; i++) {
    const family: Family = maybe(0.8) ? 4 : 6;
    const len = family === 4 ? 8 + int(25) : 32 + int(97);
    const hex = networkOf(family, family === 4 ? u32ToHex(v4()) : v6(), len);
    const prefix = `${family === 4 ? hexToV4(hex) : hexToV6(hex)}/${len}`;
    create('prefix', {
      id: PREFIX_IDS[i],
      ...stamps(),
      prefix,
      ...deriveNetFields(prefix, 'network'),
      status: pick(STATUSES.prefix),
      site: sites.length && maybe(0.6) ? pick(sites) : null,
      vlan: null,
      tenant: null,
      description: str(),
      tags: subset(TAG_IDS),
      custom_fields: cfValues(),
    });
  }
  for (let i = 0; i < spec.ips; i++) {
    const family: Family = maybe(0.8) ? 4 : 6;
    const len = family === 4 ? 8 + int(25) : 48 + int(81);
    const host = family === 4 ? u32ToHex(v4()) : v6();
    const address = `${family === 4 ? hexToV4(host) : hexToV6(host)}/${len}`;
    create('ip_address', {
      id: IP_IDS[i],
      ...stamps(),
      address,
      ...deriveNetFields(address, 'host'),
      status: pick(STATUSES.ip_address),
      dns_name: maybe(0.5) ? `${str(3)}.example` : '',
      interface: null,
      vminterface: null,
      tenant: null,
      description: str(),
      tags: subset(TAG_IDS),
      custom_fields: cfValues(),
    });
  }
  for (let i = 0; i < spec.cfs; i++) {
    create('custom_field', {
      id: CF_IDS[i],
      ...stamps(),
      name: `cf_${i}${str(2)}`,
      label: str(),
      type: pick(['text', 'integer', 'select']),
      filter_logic: pick(['loose', 'exact']),
      content_types: subset(['dcim.site', 'ipam.prefix']),
      choices: subset(['x', 'y']),
      required: maybe(0.5),
      default: pick<unknown>([null, null, 'x', 3, 2.5, true, ['x'], { k: 1 }]),
      description: str(),
    });
  }
  return ops;
}

function hexToV4(hex: string): string {
  const n = parseInt(hex, 16);
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}
function hexToV6(hex: string): string {
  return hex.match(/.{4}/g)!.join(':');
}
const datasetArb: fc.Arbitrary<DatasetSpec> = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  sites: fc.integer({ min: 0, max: 12 }),
  prefixes: fc.integer({ min: 0, max: 30 }),
  ips: fc.integer({ min: 0, max: 20 }),
  cfs: fc.integer({ min: 0, max: 6 }),
});

// ---- plans ------------------------------------------------------------------------------------

type Cls = 'text' | 'uuid' | 'number' | 'datetime' | 'json' | 'opaque' | 'boolean';
interface F {
  readonly name: string;
  readonly cls: Cls;
}
const f = (name: string, cls: Cls): F => ({ name, cls });
const COMMON = [
  f('id', 'uuid'),
  f('created', 'datetime'),
  f('last_updated', 'datetime'),
  f('tags', 'opaque'),
  f('custom_fields', 'opaque'),
  f('nope', 'text'),
];
const FIELDS: Record<string, readonly F[]> = {
  site: [
    ...COMMON,
    f('name', 'text'),
    f('slug', 'text'),
    f('status', 'text'),
    f('region', 'uuid'),
    f('asn', 'number'),
    f('facility', 'text'),
    f('description', 'text'),
  ],
  prefix: [
    ...COMMON,
    f('prefix', 'text'),
    f('network', 'text'),
    f('broadcast', 'text'),
    f('prefix_length', 'number'),
    f('family', 'number'),
    f('status', 'text'),
    f('site', 'uuid'),
    f('description', 'text'),
  ],
  ip_address: [
    ...COMMON,
    f('address', 'text'),
    f('host', 'text'),
    f('broadcast', 'text'),
    f('prefix_length', 'number'),
    f('status', 'text'),
    f('dns_name', 'text'),
    f('interface', 'uuid'),
    f('description', 'text'),
  ],
  custom_field: [
    f('id', 'uuid'),
    f('created', 'datetime'),
    f('name', 'text'),
    f('label', 'text'),
    f('type', 'text'),
    f('content_types', 'opaque'),
    f('required', 'boolean'),
    f('default', 'json'),
    f('description', 'text'),
    f('nope', 'text'),
  ],
};
const ORDERABLE: Record<string, readonly string[]> = {
  site: ['id', 'created', 'last_updated', 'name', 'slug', 'status', 'region', 'asn', 'facility', 'description'],
  prefix: [
    'id',
    'created',
    'prefix',
    'network',
    'broadcast',
    'prefix_length',
    'family',
    'status',
    'site',
    'description',
  ],
  ip_address: [
    'id',
    'created',
    'address',
    'host',
    'broadcast',
    'prefix_length',
    'family',
    'status',
    'dns_name',
    'description',
  ],
  custom_field: ['id', 'created', 'name', 'label', 'type', 'required', 'description'],
};
const RESOURCES = Object.keys(FIELDS);

const CMP_OPS: readonly CmpOp[] = ['eq', 'lt', 'lte', 'gt', 'gte', 'contains', 'startswith', 'endswith', 'regex'];
const shortText = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 3 }).map((a) => a.join(''));
const textValue = fc.oneof(
  shortText,
  fc.constantFrom(
    'active',
    'retired',
    'container',
    'dhcp',
    '10.',
    '.0',
    '::',
    '/24',
    '#1',
    'core',
    's1',
    'x',
    'integer',
    'dcim.site',
  ),
);
const numberValue = fc.oneof(
  fc.integer({ min: -3, max: 13 }),
  fc.constantFrom(65000, 65002, 4, 6, 24, 1.5, 2.5, -0.5, 1e20),
  fc.constantFrom('3', '65001', 'x', ''),
);
const instantValue = fc.oneof(
  fc.constantFrom(...INSTANTS),
  fc.constantFrom(...INSTANTS).map((s) => s.toLowerCase()),
  fc.constantFrom('2024-01-01', '2024', '2025-06-01T08:00:00.500Z', '2030-01-01T00:00:00.000Z'),
);
const uuidValue = fc.oneof(
  fc.constantFrom(...SITE_IDS, ...REGION_IDS, ...TAG_IDS, ...PREFIX_IDS.slice(0, 4)),
  fc.constantFrom(...SITE_IDS.slice(0, 3)).map((s) => s.toUpperCase()),
  fc.constantFrom('0', 'a', '-4'),
);
const anyValue: fc.Arbitrary<Scalar> = fc.oneof(textValue, numberValue, fc.boolean(), instantValue);

/**
 * Range bounds keep to their value type: JS would compare a string with a number bound by
 * converting the string (`'' <= 24`), which the planner never asks for and SQL does not mimic.
 */
const RANGE = new Set<string>(['lt', 'lte', 'gt', 'gte']);
const rangeValues = (vt: ValueType | 'list', values: Scalar[]): Scalar[] =>
  values.filter((v) => (vt === 'number' ? typeof v !== 'string' || v.trim() !== '' : typeof v === 'string'));

function valuesFor(cls: Cls, op: CmpOp | 'has'): fc.Arbitrary<Scalar[]> {
  if (op === 'regex')
    return fc.array(fc.oneof(fc.constantFrom(...PATTERNS), fc.constantFrom('(', '[a')), { minLength: 1, maxLength: 2 });
  const main =
    cls === 'number'
      ? numberValue
      : cls === 'datetime'
        ? instantValue
        : cls === 'uuid'
          ? uuidValue
          : cls === 'boolean'
            ? fc.boolean()
            : textValue;
  return fc.array(
    fc.oneof({ weight: 4, arbitrary: main as fc.Arbitrary<Scalar> }, { weight: 1, arbitrary: anyValue }),
    { minLength: 1, maxLength: 3 },
  );
}

const valueTypeFor = (cls: Cls): ValueType =>
  cls === 'number' ? 'number' : cls === 'datetime' ? 'datetime' : cls === 'boolean' ? 'boolean' : 'string';

function cmpArb(resource: string): fc.Arbitrary<Plan> {
  return fc
    .record({
      field: fc.constantFrom(...FIELDS[resource]),
      op: fc.constantFrom(...CMP_OPS),
      ci: fc.boolean(),
      odd: fc.integer({ min: 0, max: 9 }),
    })
    .chain(({ field, op, ci, odd }) =>
      valuesFor(field.cls, op).map((values) => {
        const vt: ValueType =
          odd === 0
            ? (['string', 'number', 'boolean', 'datetime'] as const)[values.length % 4]
            : valueTypeFor(field.cls);
        return N.cmp(field.name, vt, op, ci, RANGE.has(op) ? rangeValues(vt, values) : values);
      }),
    );
}

const CF_NAMES = ['contact', 'rack_count', 'features', 'monitored', 'commissioned', 'extra', 'missing'];
const cfValue: fc.Arbitrary<Scalar> = fc.oneof(
  textValue,
  fc.constantFrom(...FEATURES),
  numberValue,
  fc.boolean(),
  fc.constantFrom('2022-05-12', '2023-01-1'),
);
const cfArb: fc.Arbitrary<Plan> = fc
  .record({
    name: fc.constantFrom(...CF_NAMES),
    op: fc.constantFrom<CmpOp | 'has' | 'present'>(...CMP_OPS, 'has', 'has', 'present'),
    ci: fc.boolean(),
    vt: fc.constantFrom<ValueType | 'list'>('string', 'number', 'boolean', 'datetime', 'list'),
  })
  .chain(({ name, op, ci, vt }) =>
    (op === 'regex'
      ? valuesFor('text', 'regex')
      : op === 'present'
        ? fc.constant<Scalar[]>([])
        : fc.array(cfValue, { minLength: 1, maxLength: 3 })
    ).map((values) => N.cf(name, vt, op, ci, RANGE.has(op) ? rangeValues(vt, values) : values)),
  );

const fkArb: fc.Arbitrary<Plan> = fc.oneof(
  // byId: ids only (`region_id`); REGION_SLUGS holds a slug that is another region's id.
  fc
    .record({
      refs: fc.array(fc.constantFrom(...REGION_IDS, ...REGION_SLUGS, 'nope', REGION_IDS[2].toUpperCase()), {
        minLength: 1,
        maxLength: 3,
      }),
      tree: fc.boolean(),
      byId: fc.boolean(),
    })
    .map(({ refs, tree, byId }) => N.fk('region', 'region', refs, tree, byId)),
  fc
    .array(fc.constantFrom(...SITE_IDS.slice(0, 6), ...SITE_SLUGS.slice(0, 6), 'nope'), { minLength: 1, maxLength: 3 })
    .map((refs) => N.fk('site', 'site', refs, false)),
  fc.constant(N.fk('interface', 'interface', [uuid()], false)),
);

const tagArb: fc.Arbitrary<Plan> = fc
  .constantFrom(...TAG_IDS, ...TAG_SLUGS, 'nope', 'CORE', TAG_IDS[1].toUpperCase())
  .map((r) => N.tag(r));

const nullArb = (resource: string): fc.Arbitrary<Plan> =>
  fc.constantFrom(...FIELDS[resource].map((x) => x.name), 'vlan', 'parent').map((x) => N.isNull(x));

const LOOKUPS: readonly (NetLookup | 'contains_any')[] = [
  'base',
  'exact',
  'iexact',
  'net_equals',
  'net_contained',
  'net_contained_or_equal',
  'net_contains',
  'net_contains_or_equals',
  'net_host',
  'net_host_contained',
  'net_in',
  'contains_any',
];
const NET_TEXTS = [
  '10.0.0.0/8',
  '10.1.0.0/16',
  '10.0.0.0/16',
  '10.1.2.0/24',
  '10.1.2.3',
  '10.1.2.3/24',
  '192.168.0.0/16',
  '192.168.1.77',
  '172.16.0.0/12',
  '0.0.0.0/0',
  '10.0.0.0/7',
  '2001:db8::/32',
  '2001:db8:1::/48',
  '2001:db8::1',
  '2001:db8:abcd::/48',
  '::/0',
];
const netArb: fc.Arbitrary<Plan> = fc.oneof(
  // What the planner builds.
  fc
    .record({
      field: fc.constantFrom<'network' | 'host'>('network', 'host'),
      lookup: fc.constantFrom(...LOOKUPS),
      text: fc.oneof(
        fc.constantFrom(...NET_TEXTS),
        fc
          .record({
            a: fc.integer({ min: 0, max: 255 }),
            b: fc.constantFrom(0, 1, 168, 16),
            c: fc.integer({ min: 0, max: 3 }),
            l: fc.integer({ min: 0, max: 32 }),
          })
          .map(({ a, b, c, l }) => `${[10, 192, 172][a % 3]}.${b}.${c}.${a}/${l}`),
      ),
    })
    .map(({ field, lookup, text }) => {
      const v = parseNetValue(text);
      return typeof v === 'string' ? N.FALSE : netValuePlan(field, lookup, v);
    }),
  // Raw nodes, including ranges that are not CIDR blocks.
  fc
    .record({
      field: fc.constantFrom<'network' | 'host'>('network', 'host'),
      op: fc.constantFrom(
        'equal',
        'addr_eq',
        'addr_in',
        'contained',
        'contained_or_equal',
        'contains',
        'contains_or_equal',
      ) as fc.Arbitrary<N.NetOp>,
      a: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
      base: fc.constantFrom(0x0a000000, 0x0a010200, 0xc0a80000),
      len: fc.integer({ min: 0, max: 32 }),
      span: fc.integer({ min: 0, max: 2 ** 20 }),
      aligned: fc.boolean(),
    })
    .map(({ field, op, a, base, len, span, aligned }) => {
      const start = (base + (a % 1024)) >>> 0;
      const network = aligned ? networkOf(4, u32ToHex(start), len) : u32ToHex(start);
      const broadcast = aligned ? broadcastOf(4, u32ToHex(start), len) : u32ToHex(Math.min(2 ** 32 - 1, start + span));
      return N.net(field, op, 4, network, broadcast, len);
    }),
);

/** Filters through a relation: a prefix's site (any site test, negated or not), a site's region. */
function viaArb(resource: string): fc.Arbitrary<Plan> {
  if (resource === 'prefix') {
    const siteLeaf = fc.oneof(cmpArb('site'), fkArb, tagArb, cfArb, nullArb('site'));
    return fc.tuple(siteLeaf, fc.boolean()).map(([p, neg]) => N.via('site', 'site', neg ? N.not(p) : p));
  }
  if (resource === 'site')
    return fc
      .constantFrom(...REGION_SLUGS, 'nope')
      .map((s) => N.via('region', 'region', N.cmp('slug', 'string', 'eq', false, [s])));
  return fc.constantFrom(N.via('interface', 'interface', N.TRUE), N.via('nope', 'site', N.TRUE));
}

/** Definitions of the custom fields the datasets carry values of, for plans made by the planner. */
const cfDef = (
  name: string,
  type: CustomFieldType,
  filter_logic: CustomFieldDef['filter_logic'] = 'loose',
): CustomFieldDef => ({
  id: name,
  name,
  label: name,
  type,
  filter_logic,
  content_types: ['dcim.site', 'ipam.prefix', 'ipam.ipaddress'],
  choices: [],
  required: false,
  default: null,
});
const CF_DEFS = [
  cfDef('contact', 'text'),
  cfDef('rack_count', 'integer'),
  cfDef('features', 'multi-select'),
  cfDef('monitored', 'boolean'),
  cfDef('commissioned', 'date'),
  cfDef('extra', 'json', 'exact'),
];

/** Values a parameter is given: booleans for `__isnull`/`__empty`, ids for `<fk>_id`, else a mix
 * (invalid ones too: the planner refuses them and the query then plans nothing). */
function paramValues(spec: FilterSpec | CfFilterSpec, does: string, lookup: string | null): fc.Arbitrary<string> {
  if (does === 'isnull' || does === 'empty') return fc.constantFrom('true', 'false', '1', '0', 'True');
  if (does === 'family') return fc.constantFrom('4', '6');
  if (does === 'net') return fc.constantFrom(...NET_TEXTS);
  if (lookup !== null && /re$|regex$/.test(lookup)) return fc.constantFrom(...PATTERNS);
  const refs = [
    ...REGION_IDS.slice(0, 3),
    ...SITE_IDS.slice(0, 4),
    SITE_IDS[0].toUpperCase(),
    `{${REGION_IDS[1]}}`,
    'null',
    'NULL',
  ];
  if (spec.type === 'fk' || spec.type === 'path')
    return (spec.type === 'fk' ? spec.byId : spec.end.byId)
      ? fc.constantFrom(...refs)
      : fc.constantFrom(...refs, ...REGION_SLUGS, ...SITE_SLUGS.slice(0, 3), 'nope');
  return fc.oneof(
    shortText,
    fc.constantFrom(
      '',
      'null',
      'active',
      'retired',
      'container',
      '65001',
      '3',
      '10',
      '2024-01-01',
      ...INSTANTS,
      'bgp',
      'core',
      '10.',
      '.0',
      ...FEATURES,
    ),
  );
}

/**
 * What the planner makes of one filter parameter: every filter of the resource and its custom
 * fields, with every row of its lookup table (`__isnull`, `__empty`, `<fk>_id` and the rest),
 * one or two values.
 */
function plannedArb(resource: string): fc.Arbitrary<Plan> {
  const def = schemaResource(resource);
  const customFields = hasCustomFields(def) ? CF_DEFS : [];
  const specs: (FilterSpec | CfFilterSpec)[] = [...filtersOf(def).values(), ...customFields.map(cfFilterSpec)];
  const params = specs.flatMap((spec) =>
    [null, ...Object.keys(spec.lookups)].map((lookup) => ({
      param: `${spec.type === 'cf' ? 'cf_' : ''}${spec.name}${lookup === null ? '' : `__${lookup}`}`,
      values: paramValues(spec, resolveLookup(spec, lookup)!.does, lookup),
      flag: lookup !== null && ['isnull', 'empty'].includes(resolveLookup(spec, lookup)!.does),
    })),
  );
  const flags = params.filter((p) => p.flag);
  const pick = flags.length
    ? fc.oneof(
        { weight: 1, arbitrary: fc.constantFrom(...params) },
        { weight: 1, arbitrary: fc.constantFrom(...flags) },
      )
    : fc.constantFrom(...params);
  return pick.chain(({ param, values }) =>
    fc.array(values, { minLength: 1, maxLength: 2 }).map((vs) => {
      const planned = planQuery(def, parseQuery(vs.map((v) => [param, v] as const)), { strict: true, customFields });
      return Object.keys(planned.errors).length ? N.FALSE : planned.plan;
    }),
  );
}

function planArb(resource: string): fc.Arbitrary<Plan> {
  const leaf = fc.oneof(
    { weight: 4, arbitrary: plannedArb(resource) },
    { weight: 5, arbitrary: cmpArb(resource) },
    { weight: 1, arbitrary: fc.constantFrom(N.TRUE, N.FALSE) },
    { weight: 2, arbitrary: nullArb(resource) },
    { weight: 2, arbitrary: fkArb },
    { weight: 2, arbitrary: tagArb },
    { weight: resource === 'prefix' || resource === 'ip_address' ? 6 : 1, arbitrary: netArb },
    { weight: 3, arbitrary: cfArb },
    { weight: 2, arbitrary: viaArb(resource) },
  );
  const tree = fc.letrec<{ plan: Plan }>((tie) => ({
    plan: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 4, arbitrary: leaf },
      { weight: 1, arbitrary: fc.array(tie('plan'), { minLength: 2, maxLength: 3 }).map((cs) => N.and(cs)) },
      { weight: 1, arbitrary: fc.array(tie('plan'), { minLength: 2, maxLength: 3 }).map((cs) => N.or(cs)) },
      { weight: 2, arbitrary: tie('plan').map((c) => N.not(c)) },
    ),
  }));
  return tree.plan;
}

const pageArb = (resource: string): fc.Arbitrary<Page> =>
  fc.record({
    limit: fc.integer({ min: 1, max: 12 }),
    offset: fc.integer({ min: 0, max: 6 }),
    ordering: fc.array(fc.record({ field: fc.constantFrom(...ORDERABLE[resource]), desc: fc.boolean() }), {
      maxLength: 2,
    }) as fc.Arbitrary<OrderKey[]>,
  });

interface Query {
  readonly resource: string;
  readonly plan: Plan;
  readonly page: Page;
}
const queryArb: fc.Arbitrary<Query> = fc
  .constantFrom(...RESOURCES)
  .chain((resource) =>
    fc.record({ resource: fc.constant(resource), plan: planArb(resource), page: pageArb(resource) }),
  );

// ---- backends ---------------------------------------------------------------------------------

interface Backend {
  readonly name: string;
  readonly storage: SqlStorage;
  drop(): Promise<void>;
}

async function openBackends(kinds: readonly TestDbKind[], skipped: string[]): Promise<Backend[]> {
  const out: Backend[] = [];
  for (const kind of kinds) {
    const db = await testDatabaseOrSkip(kind);
    if ('skip' in db) {
      skipped.push(db.skip);
      continue;
    }
    const storage = new SqlStorage(
      testDbDriver(kind) === 'postgres' ? new PgDriver(db.url) : new MysqlDriver(db.url),
      STORE,
    );
    try {
      await storage.open();
    } catch (e) {
      await db.drop().catch(() => undefined);
      throw e;
    }
    out.push({ name: storage.dialect.label, storage, drop: () => db.drop() });
  }
  return out;
}

const idsOf = (rows: readonly Row[]) => rows.map((r) => r.id);
const ALL: Page = { limit: 1_000_000, offset: 0, ordering: [] };

/**
 * Runs the same ops on every store: the same outcome (success, or the same conflict) everywhere,
 * but for a store named in `known` (a difference docs/storage.md lists), which must give that one.
 */
async function sameOutcome(
  stores: readonly { name: string; storage: Storage }[],
  ops: readonly WriteOp[],
  label = '',
  known: Record<string, string> = {},
): Promise<string> {
  const outcomes: string[] = [];
  for (const s of stores) {
    try {
      await s.storage.apply(ops);
      outcomes.push('ok');
    } catch (e) {
      if (!(e instanceof StorageConflict)) throw e;
      outcomes.push(`conflict ${e.field}: ${e.message}`);
    }
  }
  for (let i = 1; i < stores.length; i++)
    expect(`${stores[i].name}: ${outcomes[i]}`, label).to.equal(
      `${stores[i].name}: ${known[stores[i].name] ?? outcomes[0]}`,
    );
  return outcomes[0];
}

describe(`sql/differential: memory vs PostgreSQL vs MariaDB vs MySQL (${ID_STYLE_RUN} ids)`, function () {
  this.timeout(30 * 60 * 1000);
  let backends: Backend[] = [];
  const skipped: string[] = [];

  before(async function () {
    backends = await openBackends(TEST_DB_KINDS, skipped);
    for (const s of skipped) console.log(`      note: ${s}`);
    if (!backends.length) this.skip();
  });

  after(async () => {
    for (const b of backends) {
      await b.storage.close().catch(() => undefined);
      await b.drop().catch(() => undefined);
    }
  });

  it(
    `random datasets and plans: identical id sets, counts and ordered pages (${RUNS} datasets, >= ${PLANS} ` + `plans)`,
    async () => {
      let queries = 0,
        plans = 0;
      await fc.assert(
        fc.asyncProperty(
          datasetArb,
          fc.array(queryArb, { minLength: PLANS_PER_DATASET.min, maxLength: PLANS_PER_DATASET.max }),
          async (spec, qs) => {
            plans += qs.length;
            const ops = buildDataset(spec);
            const mem = new MemoryStorage(null, STORE);
            await mem.apply(ops);
            for (const b of backends) {
              await b.storage.truncateAll();
              await b.storage.apply(ops);
            }
            // The reference is memory's predicate.ts + order.ts over every row (useIndexes: false): its
            // candidate indexes assume net ranges are CIDR blocks, which raw plans here need not be.
            const reference = (q: Query, page: Page) => evaluate(mem.table(q.resource), q.plan, page, mem, false);
            for (const q of qs) {
              const want = reference(q, ALL);
              const wantPage = reference(q, q.page);
              for (const b of backends) {
                const ctx = () =>
                  `${b.name} ${q.resource} ${describePlan(q.plan)}\n  plan: ${JSON.stringify(q.plan)}\n  sql: ` +
                  `${JSON.stringify(b.storage.whereSql(q.resource, q.plan))}`;
                const got = await b.storage.find(q.resource, q.plan, ALL);
                expect(idsOf(got.rows), `ids: ${ctx()}`).to.deep.equal(idsOf(want.rows));
                expect(got.count, `count: ${ctx()}`).to.equal(want.count);
                const gotPage = await b.storage.find(q.resource, q.plan, q.page);
                expect(idsOf(gotPage.rows), `page ${JSON.stringify(q.page)}: ${ctx()}`).to.deep.equal(
                  idsOf(wantPage.rows),
                );
                expect(gotPage.count).to.equal(wantPage.count);
                queries++;
              }
            }
          },
        ),
        {
          numRuns: RUNS,
          endOnFailure: process.env.DIFF_SHRINK !== '1',
          // A failure's seed and path (DIFF_SEED, DIFF_PATH) replay it.
          ...(process.env.DIFF_SEED ? { seed: Number(process.env.DIFF_SEED), path: process.env.DIFF_PATH } : {}),
        },
      );
      expect(queries).to.be.greaterThan(0);
      if (process.env.DIFF_PLANS)
        console.log(`      ${plans} plans on ${RUNS} datasets, ${queries} backend comparisons, 0 differing`);
    },
  );

  it('rows read back as written (get, getMany, findBy)', async () => {
    const ops = buildDataset({ seed: 42, sites: 10, prefixes: 20, ips: 15, cfs: 5 });
    const mem = new MemoryStorage(null, STORE);
    await mem.apply(ops);
    for (const b of backends) {
      await b.storage.truncateAll();
      await b.storage.apply(ops);
      for (const op of ops) {
        if (op.op !== 'create') continue;
        expect(await b.storage.get(op.resource, op.row.id), `${b.name} ${op.resource}`).to.deep.equal(
          await mem.get(op.resource, op.row.id),
        );
      }
      const siteIds = [SITE_IDS[3], 'not-an-id', SITE_IDS[1], SITE_IDS[11]];
      expect(idsOf(await b.storage.getMany('site', siteIds))).to.deep.equal(idsOf(await mem.getMany('site', siteIds)));
      const sorted = (rows: Row[]) => idsOf(rows).sort();
      for (const [res, field, value] of [
        ['site', 'tags', TAG_IDS[2]],
        ['tag', 'slug', 'core'],
        ['region', 'parent', null],
        ['site', 'region', REGION_IDS[0]],
        ['site', 'asn', 65001],
        ['prefix', 'family', 6],
      ] as const)
        expect(sorted(await b.storage.findBy(res, field, value)), `${b.name} findBy ${res}.${field}`).to.deep.equal(
          sorted(await mem.findBy(res, field, value)),
        );
    }
  });

  it("write conflicts are the memory store's (field and message), batches are atomic", async () => {
    const now = INSTANTS[0];
    const stores = [
      { name: 'memory', storage: new MemoryStorage(null, STORE) as Storage },
      ...backends.map((b) => ({ name: b.name, storage: b.storage as Storage })),
    ];
    for (const b of backends) await b.storage.truncateAll();
    const tag = {
      id: TAG_IDS[0],
      created: now,
      last_updated: now,
      name: 'Core',
      slug: 'core',
      color: 'ff0000',
      description: '',
    };
    const region = {
      id: REGION_IDS[0],
      created: now,
      last_updated: now,
      name: 'EU',
      slug: 'eu',
      parent: null,
      description: '',
    };
    const site = (i: number, extra: Partial<Row> = {}): Row => ({
      id: SITE_IDS[i],
      created: now,
      last_updated: now,
      name: `site ${i}`,
      slug: `s${i}`,
      status: 'active',
      region: REGION_IDS[0],
      asn: null,
      facility: '',
      physical_address: '',
      description: '',
      tags: [TAG_IDS[0]],
      custom_fields: {},
      ...extra,
    });
    const device = {
      id: PREFIX_IDS[0],
      created: now,
      last_updated: now,
      name: 'd1',
      site: SITE_IDS[0],
      status: 'active',
      serial: '',
      asset_tag: 'A1',
      comments: '',
      tags: [],
      custom_fields: {},
    };
    expect(
      await sameOutcome(stores, [
        { op: 'create', resource: 'tag', row: tag },
        { op: 'create', resource: 'region', row: region },
        { op: 'create', resource: 'site', row: site(0) },
        { op: 'create', resource: 'device', row: device },
        { op: 'create', resource: 'site', row: site(10, { region: null, tags: [] }) },
      ]),
    ).to.equal('ok');
    const cases: [string, WriteOp[], Record<string, string>?][] = [
      ['duplicate unique name', [{ op: 'create', resource: 'site', row: site(1, { name: 'site 0' }) }]],
      ['duplicate id', [{ op: 'create', resource: 'site', row: site(0, { name: 'other', slug: 'other' }) }]],
      [
        'unique together (site, name)',
        [{ op: 'create', resource: 'device', row: { ...device, id: PREFIX_IDS[1], asset_tag: null } }],
      ],
      ['missing foreign key', [{ op: 'create', resource: 'site', row: site(2, { region: REGION_IDS[5] }) }]],
      ['missing tag', [{ op: 'create', resource: 'site', row: site(2, { tags: [TAG_IDS[0], TAG_IDS[3]] }) }]],
      ['update of a missing object', [{ op: 'update', resource: 'site', row: site(5) }]],
      ['delete while referenced', [{ op: 'delete', resource: 'region', id: REGION_IDS[0] }]],
      ['delete of an assigned tag', [{ op: 'delete', resource: 'tag', id: TAG_IDS[0] }]],
      ['delete protected by device', [{ op: 'delete', resource: 'site', id: SITE_IDS[0] }]],
      [
        'atomic: a good write then a bad one',
        [
          { op: 'create', resource: 'site', row: site(3) },
          { op: 'create', resource: 'site', row: site(4, { name: 'site 0' }) },
        ],
      ],
      [
        'multi-row create with one missing reference',
        [
          { op: 'create', resource: 'site', row: site(6) },
          { op: 'create', resource: 'site', row: site(7, { region: REGION_IDS[4] }) },
        ],
      ],
      [
        'duplicate id and a missing reference in one row',
        [{ op: 'create', resource: 'site', row: site(0, { name: 'other', slug: 'other', region: REGION_IDS[4] }) }],
      ],
      [
        'taken unique name and a missing reference in one row',
        [{ op: 'create', resource: 'site', row: site(2, { name: 'site 0', region: REGION_IDS[4] }) }],
      ],
      [
        'taken name and a missing tag in one row',
        [{ op: 'create', resource: 'site', row: site(2, { name: 'site 0', tags: [TAG_IDS[3]] }) }],
      ],
      [
        'a taken id, then a missing reference in the next row',
        [
          { op: 'create', resource: 'site', row: site(6) },
          { op: 'create', resource: 'site', row: site(0, { slug: 'x0', name: 'x0' }) },
          { op: 'create', resource: 'site', row: site(7, { region: REGION_IDS[4] }) },
        ],
      ],
      // PostgreSQL checks references when the statement ends, after every row's keys.
      [
        'a missing reference, then a taken id in the next row',
        [
          { op: 'create', resource: 'site', row: site(6, { region: REGION_IDS[4] }) },
          { op: 'create', resource: 'site', row: site(0, { slug: 'x0', name: 'x0' }) },
        ],
        { PostgreSQL: `conflict id: ${MSG.idExists}` },
      ],
      [
        'update to a taken name and a missing reference',
        [{ op: 'update', resource: 'site', row: site(0, { name: 'site 10', region: REGION_IDS[4] }) }],
      ],
      // A reference found earlier in the batch, whose object the batch then deletes.
      [
        'reference deleted between two uses',
        [
          { op: 'create', resource: 'region', row: { ...region, id: REGION_IDS[1], name: 'US', slug: 'us' } },
          { op: 'create', resource: 'site', row: site(8, { region: REGION_IDS[1] }) },
          { op: 'delete', resource: 'site', id: SITE_IDS[8] },
          { op: 'delete', resource: 'region', id: REGION_IDS[1] },
          { op: 'create', resource: 'site', row: site(9, { region: REGION_IDS[1] }) },
        ],
      ],
    ];
    for (const [name, ops, known] of cases)
      expect(await sameOutcome(stores, ops, name, known), name).to.match(/^conflict /);
    // Nothing of a failed batch stays.
    for (const s of stores)
      for (const id of [SITE_IDS[3], SITE_IDS[8], REGION_IDS[1]])
        expect(await s.storage.get(id === REGION_IDS[1] ? 'region' : 'site', id), s.name).to.equal(null);
    const ok: [string, WriteOp[]][] = [
      ['delete of a missing object', [{ op: 'delete', resource: 'site', id: SITE_IDS[9] }]],
      ['update, tags replaced', [{ op: 'update', resource: 'site', row: site(0, { tags: [], description: 'x' }) }]],
      [
        'cascade planned by the caller',
        [
          { op: 'delete', resource: 'device', id: PREFIX_IDS[0] },
          { op: 'update', resource: 'site', row: site(0, { region: null, tags: [], description: 'x' }) },
          { op: 'delete', resource: 'region', id: REGION_IDS[0] },
          { op: 'delete', resource: 'tag', id: TAG_IDS[0] },
        ],
      ],
    ];
    for (const [name, ops] of ok) expect(await sameOutcome(stores, ops, name), name).to.equal('ok');
    for (const s of stores) expect((await s.storage.get('site', SITE_IDS[0]))?.description, s.name).to.equal('x');
  });

  it('explain returns the SQL, its parameters and the database plan', async () => {
    for (const b of backends) {
      const plan = netValuePlan(
        'network',
        'net_host',
        parseNetValue('10.1.2.3') as Exclude<ReturnType<typeof parseNetValue>, string>,
      );
      const e = (await b.storage.explain('prefix', plan)) as { sql: string; params: unknown[]; database_plan: unknown };
      expect(e.sql).to.match(/^SELECT /);
      expect(e.params.length).to.be.greaterThan(0);
      expect(e.database_plan).to.not.equal(undefined);
    }
  });
});

// Once, with the uuid run: opening is not a matter of id style.
(ID_STYLE_RUN === 'uuid' ? describe : describe.skip)('sql/storage open', () => {
  it('fails with one clear line when PostgreSQL is unreachable', async () => {
    const s = createPostgresStorage('postgres://postgres@127.0.0.1:1/none');
    try {
      await s.open();
      expect.fail('open() succeeded');
    } catch (e) {
      expect(e).to.be.instanceOf(StorageUnavailable);
      expect((e as Error).message).to.equal('cannot connect to PostgreSQL at 127.0.0.1:1: ECONNREFUSED');
    } finally {
      await s.close();
    }
  });

  it('fails with one clear line when MySQL is unreachable', async () => {
    const s = createMysqlStorage('mysql://root@127.0.0.1:1/none');
    try {
      await s.open();
      expect.fail('open() succeeded');
    } catch (e) {
      expect(e).to.be.instanceOf(StorageUnavailable);
      expect((e as Error).message).to.equal('cannot connect to MySQL at 127.0.0.1:1: ECONNREFUSED');
    } finally {
      await s.close();
    }
  });

  it('migrations are versioned and idempotent: a second open applies nothing', async function () {
    let ran = 0;
    for (const kind of TEST_DB_KINDS) {
      const db = await testDatabaseOrSkip(kind);
      if ('skip' in db) continue;
      const make = () =>
        new SqlStorage(testDbDriver(kind) === 'postgres' ? new PgDriver(db.url) : new MysqlDriver(db.url));
      try {
        const first = make();
        await first.open();
        expect(first.appliedMigrations, kind).to.deep.equal(MIGRATIONS.map((m) => m.version));
        await first.close();
        const again = make();
        await again.open();
        expect(again.appliedMigrations, kind).to.deep.equal([]);
        await again.close();
        ran++;
      } finally {
        await db.drop();
      }
    }
    if (!ran) this.skip();
  });
});
