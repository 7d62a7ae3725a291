// Property test of permission constraints (engine/permissions/constraint-plan.ts): random datasets
// (tag, tenant groups, tenants, a region tree, sites, prefixes, IP addresses, custom fields) and random
// constraints over them (any path the generator knows, any lookup it applies to, values drawn from the
// pools the data comes from, `$user`, lists of objects). What the plan selects on memory and on every
// configured SQL store (PostgreSQL, MariaDB, MySQL 9) must be what a plain scan selects that applies
// the constraint by hand as Django's ORM reads it (this file's evaluator, written from Django's rules,
// not from the product's code). CONSTRAINT_RUNS (default 150) constraints per dataset; CONSTRAINT_SEED
// replays one.
import { expect } from 'chai';
import fc from 'fast-check';
import { constraintPlan, errorLines } from '../../../engine/permissions/constraint-plan.js';
import { mulberry32 } from '../../../engine/random/mulberry32.js';
import { resource } from '../../../engine/schema/registry.js';
import type { CustomFieldDef } from '../../../engine/schema/types.js';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';
import { createStorage } from '../../../storage/open-storage.js';
import { TEST_DB_KINDS, testDatabaseOrSkip } from '../../../storage/test-db.js';
import type { Row, Storage, WriteOp } from '../../../storage/types.js';
import { fullRow } from '../../../bench/full-row.js';

const RUNS = Number(process.env.CONSTRAINT_RUNS ?? 150);
const DATASETS = 4;

// ---- pools: the data and the constraints draw from the same values ---------------------------------

const ID_POOL = Array.from(
  { length: 80 },
  (_, n) => `00000000-0000-4000-8000-${(n + 1).toString(16).padStart(12, '0')}`,
);
const WORDS = ['core', 'Core', 'edge', 'ams', 'AMS-1', 'fra', 'lab', 'x_y', ''];
const TAGS = ['gold', 'silver', 'bronze'];
const GROUPS = ['g-red', 'g-blue'];
const TENANTS = ['t-a', 't-b', 't-c'];
const REGIONS = ['eu', 'eu-nl', 'us'];
const OWNERS = ['team-a', 'Team-A', 'team-b', ''];
const ASNS = [65000, 65001, 65002, 65003];
const STATUS = (name: string) =>
  (resource(name).fields.find((f) => f.name === 'status')?.choices ?? []).map((c) => c.value);
const PATTERNS = ['^a', 'e$', '[0-9]', 'ams|fra', 'o.e', '^$'];
const NETS = [
  '10.0.0.0/8',
  '10.1.0.0/16',
  '10.1.2.0/24',
  '10.2.0.0/16',
  '10.1.2.128/25',
  '192.168.0.0/16',
  '0.0.0.0/0',
];
const HOSTS = ['10.1.2.5', '10.1.2.200', '10.2.3.4', '192.168.1.1', '10.1.0.0'];
/** The custom fields every dataset defines (their ids the first of the pool). */
const CF_DEFS: readonly CustomFieldDef[] = [
  ['owner', 'text', ['dcim.site', 'ipam.prefix', 'ipam.ip_address']] as const,
  ['racks', 'integer', ['dcim.site', 'ipam.prefix', 'ipam.ip_address']] as const,
].map(([name, type, content_types], i) => ({
  id: ID_POOL[i],
  name,
  label: name,
  type,
  filter_logic: 'loose',
  content_types,
  choices: [],
  required: false,
  default: null,
}));

interface Data {
  readonly ops: WriteOp[];
  readonly rows: Map<string, Map<string, Row>>;
}

function buildData(seed: number): Data {
  const r = mulberry32(seed);
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  const maybe = (p: number) => r() < p;
  let next = 0;
  const ops: WriteOp[] = [];
  const rows = new Map<string, Map<string, Row>>();
  const add = (name: string, body: Record<string, unknown>): string => {
    const row = fullRow(name, ID_POOL[next++], body);
    ops.push({ op: 'create', resource: name, row });
    if (!rows.has(name)) rows.set(name, new Map());
    rows.get(name)!.set(String(row.id), row);
    return String(row.id);
  };
  const ids = (name: string) => [...(rows.get(name)?.keys() ?? [])];
  const cf = () => ({
    ...(maybe(0.7) ? { owner: maybe(0.1) ? null : pick(OWNERS) } : {}),
    ...(maybe(0.6) ? { racks: int(6) } : {}),
  });
  CF_DEFS.forEach(({ id: _id, ...d }) => add('custom_field', d));
  TAGS.forEach((slug) => add('tag', { name: slug.toUpperCase(), slug }));
  GROUPS.forEach((slug) => add('tenant_group', { name: slug, slug }));
  TENANTS.forEach((slug) => add('tenant', { name: slug, slug, group: maybe(0.7) ? pick(ids('tenant_group')) : null }));
  add('region', { name: 'Europe', slug: 'eu' });
  add('region', { name: 'NL', slug: 'eu-nl', parent: ids('region')[0] });
  add('region', { name: 'US', slug: 'us' });
  for (let i = 0, n = 2 + int(6); i < n; i++)
    add('site', {
      name: `${pick(WORDS)}${i}`,
      slug: `site-${i}`,
      status: pick(STATUS('site')),
      region: maybe(0.8) ? pick(ids('region')) : null,
      tenant: maybe(0.6) ? pick(ids('tenant')) : null,
      asn: maybe(0.7) ? pick(ASNS) : null,
      description: pick(WORDS),
      tags: ids('tag').filter(() => maybe(0.35)),
      custom_fields: cf(),
    });
  const seen = new Set<string>();
  for (let i = 0, n = 4 + int(14); i < n; i++) {
    const len = pick([8, 16, 16, 24, 24, 25, 28]);
    const bytes = [10, int(3), int(4), int(2) * 128].map((b, k) => (k * 8 < len ? b : 0));
    if (len === 25) bytes[3] = int(2) * 128;
    const p = `${bytes.join('.')}/${len}`;
    if (seen.has(p)) continue;
    seen.add(p);
    add('prefix', {
      prefix: p,
      status: pick(STATUS('prefix')),
      site: maybe(0.6) ? pick(ids('site')) : null,
      tenant: maybe(0.4) ? pick(ids('tenant')) : null,
      description: pick(WORDS),
      tags: ids('tag').filter(() => maybe(0.3)),
      custom_fields: cf(),
    });
  }
  for (let i = 0, n = int(12); i < n; i++)
    add('ip_address', {
      address: `${pick(['10.1.2', '10.2.3', '192.168.1', '10.1.0'])}.${pick([0, 5, 200, 4, 1])}/${pick([16, 24, 32])}`,
      status: pick(STATUS('ip_address')),
      dns_name: maybe(0.5) ? `${pick(['a', 'core', 'b'])}.example` : '',
      tenant: maybe(0.4) ? pick(ids('tenant')) : null,
      tags: ids('tag').filter(() => maybe(0.3)),
      custom_fields: cf(),
    });
  return { ops, rows };
}

// ---- constraints: (path, lookup, value) triples ---------------------------------------------------------

interface Pair {
  readonly path: readonly string[];
  readonly lookup: string | null;
  readonly value: unknown;
}
const keyOf = (p: Pair) => [...p.path, ...(p.lookup ? [p.lookup] : [])].join('__');

const textLookups = ['exact', 'iexact', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith'];
const word = fc.constantFrom(...WORDS, 'a', 'e', 'O');
/** A text field's pairs: any text lookup, `in`, `regex`, `isnull`, `empty`. */
const textPairs = (path: string[], pool: fc.Arbitrary<string>): fc.Arbitrary<Pair>[] => [
  fc.record({ path: fc.constant(path), lookup: fc.constantFrom(null, ...textLookups), value: pool }),
  fc.record({ path: fc.constant(path), lookup: fc.constant('in'), value: fc.array(pool, { maxLength: 3 }) }),
  fc.record({
    path: fc.constant(path),
    lookup: fc.constantFrom('regex', 'iregex'),
    value: fc.constantFrom(...PATTERNS),
  }),
  fc.record({ path: fc.constant(path), lookup: fc.constantFrom('isnull', 'empty'), value: fc.boolean() }),
];
const numberPairs = (path: string[], pool: fc.Arbitrary<number | string | null>): fc.Arbitrary<Pair>[] => [
  fc.record({
    path: fc.constant(path),
    lookup: fc.constantFrom(null, 'exact', 'gt', 'gte', 'lt', 'lte'),
    value: pool.filter((v) => v !== null),
  }),
  fc.record({ path: fc.constant(path), lookup: fc.constant(null), value: fc.constant(null) }),
  fc.record({ path: fc.constant(path), lookup: fc.constant('in'), value: fc.array(pool, { maxLength: 3 }) }),
  fc.record({
    path: fc.constant(path),
    lookup: fc.constant('range'),
    value: fc.tuple(
      pool.filter((v) => v !== null),
      pool.filter((v) => v !== null),
    ),
  }),
  fc.record({ path: fc.constant(path), lookup: fc.constant('isnull'), value: fc.boolean() }),
];
const refPairs = (path: string[]): fc.Arbitrary<Pair>[] => [
  fc.record({
    path: fc.constant(path),
    lookup: fc.constantFrom(null, 'exact'),
    value: fc.constantFrom(...ID_POOL.slice(0, 40), null),
  }),
  fc.record({
    path: fc.constant([...path, 'id']),
    lookup: fc.constant('in'),
    value: fc.array(fc.constantFrom(...ID_POOL.slice(0, 40)), { maxLength: 3 }),
  }),
  fc.record({ path: fc.constant(path), lookup: fc.constant('isnull'), value: fc.boolean() }),
];
const slugPairs = (path: string[], pool: readonly string[]): fc.Arbitrary<Pair>[] => [
  fc.record({
    path: fc.constant([...path, 'slug']),
    lookup: fc.constantFrom(null, 'iexact', 'startswith'),
    value: fc.constantFrom(...pool),
  }),
  fc.record({
    path: fc.constant([...path, 'slug']),
    lookup: fc.constant('in'),
    value: fc.array(fc.constantFrom(...pool), { maxLength: 2 }),
  }),
  fc.record({ path: fc.constant([...path, 'slug']), lookup: fc.constant('isnull'), value: fc.boolean() }),
];
const tagPairs: fc.Arbitrary<Pair>[] = [
  fc.record({
    path: fc.constant(['tags', 'slug']),
    lookup: fc.constant(null),
    value: fc.constantFrom(...TAGS, 'none'),
  }),
  fc.record({
    path: fc.constant(['tags', 'slug']),
    lookup: fc.constant('in'),
    value: fc.array(fc.constantFrom(...TAGS), { maxLength: 2 }),
  }),
];
const cfPairs: fc.Arbitrary<Pair>[] = [
  ...textPairs(['custom_field_data', 'owner'], fc.constantFrom(...OWNERS, 'team')).filter((_, i) => i !== 3),
  fc
    .record({
      path: fc.constant(['cf_owner']),
      lookup: fc.constantFrom(null, 'isnull'),
      value: fc.constantFrom('team-a', ''),
    })
    .map((p) => (p.lookup === 'isnull' ? { ...p, value: p.value === '' } : p)),
  fc.record({
    path: fc.constant(['cf_racks']),
    lookup: fc.constantFrom(null, 'gt', 'lte'),
    value: fc.integer({ min: 0, max: 6 }),
  }),
  fc.record({ path: fc.constant(['custom_field_data', 'racks']), lookup: fc.constant('isnull'), value: fc.boolean() }),
];
const tenantPairs = (at: string[]): fc.Arbitrary<Pair>[] => [
  ...refPairs([...at, 'tenant']),
  ...slugPairs([...at, 'tenant'], TENANTS),
  ...slugPairs([...at, 'tenant', 'group'], GROUPS),
  fc.record({
    path: fc.constant([...at, 'tenant', 'group', 'name']),
    lookup: fc.constantFrom(null, 'icontains'),
    value: fc.constantFrom('RED', 'g-', 'g-blue'),
  }),
];
const sitePairs = (at: string[]): fc.Arbitrary<Pair>[] => [
  ...textPairs([...at, 'name'], word),
  ...textPairs([...at, 'description'], word),
  fc.record({
    path: fc.constant([...at, 'status']),
    lookup: fc.constant(null),
    value: fc.constantFrom(...STATUS('site')),
  }),
  fc.record({
    path: fc.constant([...at, 'status']),
    lookup: fc.constant('in'),
    value: fc.array(fc.constantFrom(...STATUS('site')), { maxLength: 2 }),
  }),
  ...numberPairs([...at, 'asn'], fc.constantFrom<number | string | null>(...ASNS, '65001', null)),
  fc.record({ path: fc.constant([...at, 'asn']), lookup: fc.constant(null), value: fc.constant('$user') }),
  ...slugPairs([...at, 'region'], REGIONS),
  ...slugPairs([...at, 'region', 'parent'], REGIONS),
  ...tenantPairs(at),
  ...(at.length ? [] : [...tagPairs, ...cfPairs]),
  fc.record({ path: fc.constant([...at, 'tags', 'slug']), lookup: fc.constant(null), value: fc.constantFrom(...TAGS) }),
];
const netPairs = (field: string, hosts: boolean): fc.Arbitrary<Pair>[] => [
  fc.record({
    path: fc.constant([field]),
    lookup: fc.constantFrom(
      'net_contained',
      'net_contained_or_equal',
      'net_contains',
      'net_contains_or_equals',
      'net_host_contained',
    ),
    value: fc.constantFrom(...NETS),
  }),
  fc.record({ path: fc.constant([field]), lookup: fc.constant('net_host'), value: fc.constantFrom(...HOSTS) }),
  fc
    .record({
      path: fc.constant([field]),
      lookup: fc.constantFrom(null, 'in'),
      value: fc.constantFrom(...NETS, ...(hosts ? ['10.1.2.5/24', '10.1.2.5'] : [])),
    })
    .map((p) => (p.lookup === 'in' ? { ...p, value: [p.value, NETS[1]] } : p)),
  fc.record({
    path: fc.constant([field]),
    lookup: fc.constant('net_in'),
    value: fc.array(fc.constantFrom(...HOSTS, ...NETS, '10.1.2.5/24'), { maxLength: 3 }),
  }),
  fc.record({ path: fc.constant([field, 'family']), lookup: fc.constant(null), value: fc.constantFrom(4, 6) }),
  fc.record({
    path: fc.constant([field, 'net_mask_length']),
    lookup: fc.constantFrom(null, 'gte', 'lt'),
    value: fc.constantFrom(8, 16, 24, 25, 32),
  }),
  fc.record({
    path: fc.constant([field]),
    lookup: fc.constantFrom('startswith', 'endswith', 'icontains'),
    value: fc.constantFrom('10.1.', '/24', '.0/', '192'),
  }),
];

/** The pairs of each resource, in groups drawn equally often (each group's pairs equally often within it). */
const PAIRS: Record<string, fc.Arbitrary<Pair>[][]> = {
  site: [sitePairs([]).slice(0, 8), sitePairs([]).slice(8, 16), sitePairs([]).slice(16), [...tagPairs], [...cfPairs]],
  prefix: [
    netPairs('prefix', false),
    [
      fc.record({
        path: fc.constant(['status']),
        lookup: fc.constantFrom(null, 'iexact'),
        value: fc.constantFrom(...STATUS('prefix')),
      }),
      ...textPairs(['description'], word),
    ],
    [...refPairs(['site']), ...sitePairs(['site'])],
    tenantPairs([]),
    [...tagPairs, ...cfPairs],
  ],
  ip_address: [
    netPairs('address', true),
    textPairs(['dns_name'], fc.constantFrom('a.example', 'core', '.example', '')),
    tenantPairs([]),
    [...tagPairs, ...cfPairs],
  ],
};

/** A constraint: null, one object, or a list of objects; each pair list also kept for the evaluator. */
type Drawn = { json: unknown; objects: Pair[][] | null };
/** One pair per key, and one condition on the tags of each object reached (two are refused). */
const slotOf = (p: Pair) =>
  p.path.includes('tags') ? `${p.path.slice(0, p.path.indexOf('tags')).join('__')}#tags` : keyOf(p);
const objectOf = (pairs: Pair[]): Pair[] => [...new Map(pairs.map((p) => [slotOf(p), p])).values()];
const toJson = (pairs: Pair[]) => Object.fromEntries(pairs.map((p) => [keyOf(p), p.value]));
const constraintArb = (name: string): fc.Arbitrary<Drawn> => {
  const obj = fc
    .array(fc.oneof(...PAIRS[name].map((g) => fc.oneof(...g))), { minLength: 1, maxLength: 3 })
    .map(objectOf);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<Drawn>({ json: null, objects: null }) },
    { weight: 6, arbitrary: obj.map((o) => ({ json: toJson(o), objects: [o] })) },
    {
      weight: 3,
      arbitrary: fc
        .array(obj, { maxLength: 3 })
        .map((os) => ({ json: os.map(toJson), objects: os.length ? os : null })),
    },
  );
};

// ---- the evaluator: Django's reading, by hand -----------------------------------------------------------

const v4 = (s: string): number => s.split('.').reduce((a, b) => a * 256 + Number(b), 0);
/** An IPv4 value as (address, length, network start, network end); a bare address is a /32. */
function net(text: string) {
  const [a, l] = text.split('/');
  const len = l === undefined ? 32 : Number(l);
  const addr = v4(a);
  const size = 2 ** (32 - len);
  const start = addr - (addr % size);
  return { addr, len, start, end: start + size - 1 };
}
function netTest(lookup: string, stored: string, given: string): boolean {
  const s = net(stored);
  const g = net(given);
  const within = s.start >= g.start && s.end <= g.end; // the stored block inside the given one
  const around = g.start >= s.start && g.end <= s.end;
  switch (lookup) {
    case 'exact':
    case 'in':
      return s.addr === g.addr && s.len === g.len;
    case 'net_contained':
      return within && s.len > g.len;
    case 'net_contained_or_equal':
      return within && s.len >= g.len;
    case 'net_contains':
      return around && s.len < g.len;
    case 'net_contains_or_equals':
      return around && s.len <= g.len;
    case 'net_host':
      return s.addr === g.addr;
    case 'net_host_contained':
      return s.addr >= g.start && s.addr <= g.end;
    case 'net_in':
      return given.includes('/') ? s.addr === g.addr && s.len === g.len : s.addr === g.addr;
    default:
      throw new Error(`no network lookup ${lookup}`);
  }
}

type Db = Map<string, Map<string, Row>>;
/** The value a path reaches: `nullOnWay` when a reference on the way is null; tags as their rows. */
function reach(
  db: Db,
  name: string,
  row: Row,
  path: readonly string[],
): { nullOnWay: boolean; value: unknown; tags?: Row[] } {
  let r = resource(name);
  let cur = row;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (seg === 'tags')
      return { nullOnWay: false, value: null, tags: (cur.tags as string[]).map((id) => db.get('tag')!.get(id)!) };
    if (seg === 'custom_field_data')
      return { nullOnWay: false, value: (cur.custom_fields as Record<string, unknown>)[path[i + 1]] ?? null };
    if (seg.startsWith('cf_'))
      return { nullOnWay: false, value: (cur.custom_fields as Record<string, unknown>)[seg.slice(3)] ?? null };
    const part = path[i + 1];
    if (part === 'family' || part === 'net_mask_length') {
      const text = String(cur[seg]);
      return { nullOnWay: false, value: part === 'family' ? (text.includes(':') ? 6 : 4) : Number(text.split('/')[1]) };
    }
    const f = r.fields.find((x) => x.name === seg)!;
    const last = i === path.length - 1 || path[i + 1] === 'id';
    if (f.kind === 'fk' && !last) {
      const target = cur[seg] === null ? undefined : db.get(f.target!)?.get(String(cur[seg]));
      if (!target) return { nullOnWay: true, value: null };
      cur = target;
      r = resource(f.target!);
      continue;
    }
    return { nullOnWay: false, value: cur[seg] ?? null };
  }
  throw new Error(`path ${path.join('__')} reaches nothing`);
}

const TEXT: Record<string, (v: string, g: string) => boolean> = {
  exact: (v, g) => v === g,
  iexact: (v, g) => v.toLowerCase() === g.toLowerCase(),
  contains: (v, g) => v.includes(g),
  icontains: (v, g) => v.toLowerCase().includes(g.toLowerCase()),
  startswith: (v, g) => v.startsWith(g),
  istartswith: (v, g) => v.toLowerCase().startsWith(g.toLowerCase()),
  endswith: (v, g) => v.endsWith(g),
  iendswith: (v, g) => v.toLowerCase().endsWith(g.toLowerCase()),
  regex: (v, g) => new RegExp(g).test(v),
  iregex: (v, g) => new RegExp(g, 'i').test(v),
};
const ORDER: Record<string, (v: number, g: number) => boolean> = {
  gt: (v, g) => v > g,
  gte: (v, g) => v >= g,
  lt: (v, g) => v < g,
  lte: (v, g) => v <= g,
};

function pairHolds(db: Db, name: string, row: Row, p: Pair, userId: number): boolean {
  const lookup = p.lookup ?? 'exact';
  const given = p.value === '$user' ? userId : p.value;
  const at = reach(db, name, row, p.path);
  if (at.tags) {
    const slugs = at.tags.map((t) => t.slug);
    return lookup === 'in' ? (given as string[]).some((g) => slugs.includes(g)) : slugs.includes(given as string);
  }
  const absent = at.nullOnWay || at.value === null;
  if (lookup === 'isnull') return given ? absent : !absent;
  if (given === null) return absent; // `exact: null`
  if (at.value === null) return false;
  const v = at.value;
  const isNet = (p.path.at(-1) === 'prefix' || p.path.at(-1) === 'address') && name !== 'site';
  if (lookup === 'empty') return given ? v === '' : v !== '';
  if (isNet && (lookup.startsWith('net_') || lookup === 'exact' || lookup === 'in'))
    return (Array.isArray(given) ? given : [given]).some((g) => netTest(lookup, String(v), String(g)));
  if (lookup === 'in') return (given as unknown[]).some((g) => g !== null && String(g) === String(v));
  if (lookup === 'range') {
    const [lo, hi] = (given as unknown[]).map(Number);
    return Number(v) >= lo && Number(v) <= hi;
  }
  if (ORDER[lookup]) return ORDER[lookup](Number(v), Number(given));
  return TEXT[lookup](String(v), String(given));
}

function selects(db: Db, name: string, row: Row, d: Drawn, userId: number): boolean {
  if (!d.objects) return true;
  return d.objects.some((o) => o.every((p) => pairHolds(db, name, row, p, userId)));
}

// ---- the stores ----------------------------------------------------------------------------------------

interface Store {
  readonly name: string;
  readonly storage: Storage;
  reset?(): Promise<void>;
  drop?(): Promise<void>;
}

describe('permission constraints: random constraints on random objects select what Django would', function () {
  this.timeout(20 * 60 * 1000);
  const stores: Store[] = [];

  before(async () => {
    for (const kind of TEST_DB_KINDS) {
      const db = await testDatabaseOrSkip(kind);
      if ('skip' in db) {
        console.log(`      note: ${db.skip}`);
        continue;
      }
      const storage = await createStorage(db.url);
      await storage.open();
      if (!('truncateAll' in storage) || typeof storage.truncateAll !== 'function')
        throw new Error(`${kind}: a SQL store without truncateAll`);
      const truncate = storage.truncateAll as () => Promise<void>;
      stores.push({ name: kind, storage, reset: () => truncate.call(storage), drop: () => db.drop() });
    }
  });
  after(async () => {
    for (const s of stores) {
      await s.storage.close().catch(() => undefined);
      await s.drop?.().catch(() => undefined);
    }
  });

  for (let n = 0; n < DATASETS; n++)
    it(`dataset ${n}: site, prefix, ip_address constraints on memory and every SQL store`, async () => {
      const data = buildData(1000 + n);
      const mem = new MemoryStorage(null);
      await mem.apply(data.ops);
      for (const s of stores) {
        await s.reset!();
        await s.storage.apply(data.ops);
      }
      const all: Store[] = [{ name: 'memory', storage: mem }, ...stores];
      let selected = 0;
      let compared = 0;
      let selecting = 0; // constraints that select at least one object
      await fc.assert(
        fc.asyncProperty(
          fc
            .constantFrom('site', 'prefix', 'ip_address')
            .chain((name) => fc.tuple(fc.constant(name), constraintArb(name))),
          fc.constantFrom(...ASNS),
          async ([name, drawn], userId) => {
            const res = constraintPlan(resource(name), drawn.json, { userId, customFields: CF_DEFS });
            if (!res.ok) throw new Error(`${JSON.stringify(drawn.json)} refused: ${errorLines(res.errors).join('; ')}`);
            const rows = [...(data.rows.get(name)?.values() ?? [])];
            const want = rows
              .filter((r) => selects(data.rows, name, r, drawn, userId))
              .map((r) => String(r.id))
              .sort();
            for (const s of all) {
              const got = (await s.storage.find(name, res.plan, { limit: 10000, offset: 0, ordering: [] })).rows;
              expect(
                got.map((r) => String(r.id)).sort(),
                `${s.name}: ${name} ${JSON.stringify(drawn.json)} user ${userId}`,
              ).to.deep.equal(want);
            }
            selected += want.length;
            if (want.length) selecting++;
            compared++;
          },
        ),
        { numRuns: RUNS, ...(process.env.CONSTRAINT_SEED ? { seed: Number(process.env.CONSTRAINT_SEED) } : {}) },
      );
      // The generator must not drift to constraints that select nothing (the comparisons would prove little);
      // a total of objects varies too much between seeds (149 to 338 seen), the share of selecting ones less.
      expect(selecting, 'constraints that select objects').to.be.at.least(Math.ceil(compared / 10));
      console.log(
        `      ${compared} constraints (${selecting} selecting), ${selected} objects selected, ` +
          `on ${all.map((s) => s.name).join(', ')}`,
      );
    });
});
