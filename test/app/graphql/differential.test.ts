// Differential test of GraphQL against REST (#37 point 5): random datasets (tenants, regions, sites,
// devices, interfaces, IP addresses, prefixes, tags, custom fields) on memory and on every configured SQL
// database, and random queries over them: root lists in both dialects (`sites`, `site_list`) and `site(id:)`,
// with random REST filters (any filter of the resource's REST list, any of its lookups, one value or a list),
// `limit` / `offset`, and nested lists with arguments of their own. Each answer must be the REST answer: the
// same parameters planned by the REST planner (strict) and read with the list's default order, and for a
// nested list the children filtered by `<fk>_id=<parent id>` (a prefix's `children`: `parent=<id>`) and its
// arguments, per parent: the same ids as text, in the same order, the same scalar fields; where REST refuses
// a parameter, GraphQL answers an error naming it. GQL_DIFF_QUERIES (default 240) queries at least;
// DIFF_SEED / DIFF_PATH replay a failure. Integer ids: differential-integer.test.ts.
// chai 6 ships no type declarations and @types/chai is not installed.
// @ts-ignore -- harmless once typings exist
import { expect } from 'chai';
import fc from 'fast-check';
import {
  getNamedType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLType,
} from 'graphql';
import { Inventory } from '../../../app/inventory.js';
import { GraphqlService } from '../../../app/graphql/run-graphql.js';
import { DEFAULT_GRAPHQL_LIMITS, VIEW_ALL } from '../../../app/graphql/contract.js';
import { cfFilterSpec, filtersOf, type CfFilterSpec, type FilterSpec } from '../../../engine/filters/filter-set.js';
import { defaultOrdering } from '../../../engine/plan/page.js';
import { planQuery } from '../../../engine/plan/planner.js';
import { and, fk, type Plan } from '../../../engine/plan/nodes.js';
import { parseQuery } from '../../../engine/query/parse.js';
import { mulberry32 } from '../../../engine/random/mulberry32.js';
import { contentType, resource, RESOURCES } from '../../../engine/schema/registry.js';
import type { ResourceDef } from '../../../engine/schema/types.js';
import type { IdStyleName } from '../../../engine/schema/id-style.js';
import { parentFilterPairs } from '../../../app/prefix-parent-filter.js';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';
import { createStorage } from '../../../storage/open-storage.js';
import { TEST_DB_KINDS, testDatabaseOrSkip, type TestDbKind } from '../../../storage/test-db.js';
import type { Row, Storage, WriteOp } from '../../../storage/types.js';
import { fullRow } from '../../../bench/full-row.js';

const ID_STYLE: IdStyleName = new URL(import.meta.url).searchParams.get('ids') === 'integer' ? 'integer' : 'uuid';
/** Integer stores: memory and PostgreSQL (the SQL id handling is shared by the dialects). */
const KINDS: readonly TestDbKind[] = ID_STYLE === 'integer' ? ['postgres'] : TEST_DB_KINDS;
const QUERIES = Number(process.env.GQL_DIFF_QUERIES ?? 240);
const PER_DATASET = 20;
const RUNS = Math.ceil(QUERIES / PER_DATASET);
const NOW = '2026-01-01T00:00:00.000Z';
const INSTANTS = ['2024-01-01T00:00:00.000Z', '2025-06-01T08:00:00.500Z', NOW];
const LIMITS = DEFAULT_GRAPHQL_LIMITS;

// ---- datasets -----------------------------------------------------------------------------------

type Rand = () => number;
interface Data {
  readonly ops: WriteOp[];
  /** Rows by resource, as written (pools of values for the filters). */
  readonly rows: Map<string, Row[]>;
}

/** A dataset's ids: UUID-shaped from a counter, or integers with gaps (as the sql differential draws them). */
function idMaker(r: Rand): () => string {
  let n = 0;
  return () => {
    n += 1 + Math.floor(r() * 3);
    return ID_STYLE === 'integer' ? String(n) : `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
  };
}

const WORDS = ['core', 'edge', 'Core', 'lab', 'ams', 'fra', 'a', 'b1', 'x_y', 'é'];
const choicesOf = (name: string, field: string): string[] =>
  (resource(name).fields.find((f) => f.name === field)?.choices ?? []).map((c) => c.value);

function buildData(seed: number): Data {
  const r = mulberry32(seed);
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  const maybe = (p: number) => r() < p;
  const word = () => `${pick(WORDS)}${maybe(0.5) ? `-${int(20)}` : ''}`;
  const newId = idMaker(r);
  const ops: WriteOp[] = [];
  const rows = new Map<string, Row[]>();
  const add = (name: string, body: Record<string, unknown>): string => {
    const row = fullRow(name, newId(), body);
    ops.push({ op: 'create', resource: name, row });
    rows.set(name, [...(rows.get(name) ?? []), row]);
    return String(row.id);
  };
  const ids = (name: string) => (rows.get(name) ?? []).map((x) => String(x.id));
  const some = (xs: readonly string[]) => xs.filter(() => maybe(0.35));
  const cf = () => ({
    ...(maybe(0.7) ? { rack_count: maybe(0.1) ? null : int(10) } : {}),
    ...(maybe(0.7) ? { owner: pick(['team-a', 'team-b', 'Team-A', '']) } : {}),
  });
  ['core', 'edge', 'lab'].forEach((slug, i) => add('tag', { name: `Tag ${i}`, slug, color: '9e9e9e' }));
  const types = ['dcim.site', 'dcim.device', 'ipam.prefix', 'ipam.ip_address'].filter(() => maybe(0.8));
  add('custom_field', { name: 'rack_count', type: 'integer', filter_logic: 'loose', content_types: types });
  add('custom_field', { name: 'owner', type: 'text', filter_logic: pick(['loose', 'exact']), content_types: types });
  for (let i = 0; i < 2; i++) add('tenant', { name: `Tenant ${i}`, slug: `tenant-${i}` });
  for (let i = 0; i < 3; i++)
    add('region', { name: `Region ${i}`, slug: `region-${i}`, parent: i ? pick([null, ...ids('region')]) : null });
  for (let i = 0, n = int(7); i < n; i++)
    add('site', {
      name: `${word()} ${i}`,
      slug: `site-${i}`,
      status: pick(choicesOf('site', 'status')),
      region: maybe(0.8) ? pick(ids('region')) : null,
      tenant: maybe(0.5) ? pick(ids('tenant')) : null,
      asn: maybe(0.7) ? 65000 + int(4) : null,
      facility: word(),
      description: maybe(0.5) ? word() : '',
      tags: some(ids('tag')),
      custom_fields: cf(),
    });
  buildHosts(r, add, ids, cf);
  return { ops, rows };
}

/** Devices at the sites, their interfaces, addresses on them (or none) and prefixes in 10/8 (nested). */
function buildHosts(
  r: Rand,
  add: (name: string, body: Record<string, unknown>) => string,
  ids: (name: string) => string[],
  cf: () => Record<string, unknown>,
): void {
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  const maybe = (p: number) => r() < p;
  const sites = ids('site');
  for (let i = 0, n = sites.length ? int(16) : 0; i < n; i++)
    add('device', {
      name: maybe(0.1) ? null : `${pick(WORDS)}-${int(5)}-${i}`,
      site: pick(sites),
      status: pick(choicesOf('device', 'status')),
      tenant: maybe(0.4) ? pick(ids('tenant')) : null,
      serial: maybe(0.5) ? `SN${int(100)}` : '',
      tags: ids('tag').filter(() => maybe(0.3)),
      custom_fields: cf(),
    });
  const devices = ids('device');
  for (let i = 0, n = devices.length ? int(40) : 0; i < n; i++)
    add('interface', {
      device: pick(devices),
      name: `${pick(['eth', 'xe-0/0/', 'Gi', 'lo'])}${i}`,
      type: pick(['1000base-t', '10gbase-x-sfpp', 'virtual']),
      enabled: maybe(0.7),
      mtu: maybe(0.5) ? pick([1500, 9000, 9216]) : null,
      description: maybe(0.3) ? pick(WORDS) : '',
    });
  const ifaces = ids('interface');
  for (let i = 0, n = int(40); i < n; i++) {
    const v6 = maybe(0.2);
    const address = v6
      ? `2001:db8::${(int(4096) + 1).toString(16)}/${pick([64, 128])}`
      : `10.${int(3)}.${int(4)}.${int(256)}/${pick([24, 30, 32])}`;
    add('ip_address', {
      address,
      status: pick(choicesOf('ip_address', 'status')),
      dns_name: maybe(0.5) ? `${pick(['a', 'b', 'core'])}${int(5)}.example` : '',
      interface: ifaces.length && maybe(0.8) ? pick(ifaces) : null,
      tags: ids('tag').filter(() => maybe(0.3)),
      custom_fields: cf(),
    });
  }
  for (let i = 0, n = int(26); i < n; i++) {
    const len = pick([8, 16, 16, 24, 24, 24, 28]);
    const bytes = [10, int(3), int(4), int(4) * 16].map((b, k) => (k * 8 < len ? b : 0));
    add('prefix', {
      prefix: `${bytes.join('.')}/${len}`,
      status: pick(choicesOf('prefix', 'status')),
      site: sites.length && maybe(0.6) ? pick(sites) : null,
      tenant: maybe(0.3) ? pick(ids('tenant')) : null,
      description: maybe(0.4) ? pick(WORDS) : '',
      tags: ids('tag').filter(() => maybe(0.3)),
      custom_fields: cf(),
    });
  }
}

// ---- what the schema serves -----------------------------------------------------------------------

/** A nested list of a type: the child resource and how REST narrows it to one parent. */
interface Nest {
  readonly field: string;
  readonly child: ResourceDef;
  /** The REST parameter taking the parent's id (`<fk>_id`, a prefix's `parent`), or null where the fk's
   * filter reaches further than the fk (a tree's `region_id` takes descendants too): then the fk itself. */
  readonly param: string | null;
  readonly fk: string;
  /** The resource the fk names (the parent's). */
  readonly target: string;
  /** Parameters a nested list is not given: they would OR with `param` on REST. */
  readonly excluded: ReadonlySet<string>;
}
interface Served {
  readonly type: GraphQLObjectType;
  readonly r: ResourceDef;
  readonly roots: readonly string[]; // `sites`, `site_list`
  readonly one: string | null; // `site`
  readonly nests: readonly Nest[];
  /** Fields compared by value: the registry's plain fields served as a built-in scalar. */
  readonly scalars: readonly string[];
}

const listOf = (t: GraphQLType): GraphQLType | null => {
  const u = isNonNullType(t) ? t.ofType : t;
  return isListType(u) ? u.ofType : null;
};
const rootName = (r: ResourceDef) => r.plural.replace(/-/g, '_');
const BUILT_IN = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);
const COMPARED_KINDS = new Set(['string', 'integer', 'boolean', 'choice', 'prefix', 'address']);

/** The resources with root lists, found through the schema: NetBox's `<name>_list` gives the type, Nautobot's
 * list is the REST plural where that serves the same type. */
function served(schema: GraphQLSchema): Map<string, Served> {
  const q = schema.getQueryType()!.getFields();
  const typeOf = (name: string) => {
    const inner = q[name] && listOf(q[name].type);
    const t = inner && getNamedType(inner);
    return t && isObjectType(t) ? t : null;
  };
  const out = new Map<string, Served>();
  for (const r of RESOURCES) {
    const type = typeOf(`${r.name}_list`);
    if (!type) continue;
    const fields = type.getFields();
    const builtIn = (name: string) => {
      const t = fields[name] && getNamedType(fields[name].type);
      return !!t && isLeafType(t) && BUILT_IN.has(t.name);
    };
    const scalars = r.fields
      .filter((f) => COMPARED_KINDS.has(f.kind) && !f.hidden && builtIn(f.name))
      .map((f) => f.name);
    out.set(r.name, {
      type,
      r,
      roots: [rootName(r), `${r.name}_list`].filter((n) => typeOf(n) === type),
      one: q[r.name] && getNamedType(q[r.name].type) === type ? r.name : null,
      nests: [],
      scalars,
    });
  }
  for (const s of out.values()) (s.nests as Nest[]).push(...nestsOf(s, out));
  return out;
}

/** The reverse references the type serves as lists (a child's plural, `<plural>_as_<fk>`, a tree's `children`),
 * found by their type; a prefix's `children` (the REST `?parent=<id>` list). */
function nestsOf(s: Served, all: ReadonlyMap<string, Served>): Nest[] {
  const fields = s.type.getFields();
  const listed = (name: string, child: Served) => {
    const f: GraphQLField<unknown, unknown> | undefined = fields[name];
    const inner = f && listOf(f.type);
    return !!inner && getNamedType(inner) === child.type;
  };
  const out: Nest[] = [];
  for (const c of all.values()) {
    const fks = c.r.fields.filter((f) => f.kind === 'fk' && f.target === s.r.name && !f.deferred && !f.hidden);
    for (const f of fks) {
      const names = [`${rootName(c.r)}_as_${f.name}`, ...(fks.length === 1 ? [rootName(c.r)] : [])];
      if (c.r.tree === f.name) names.push('children');
      const field = names.find((n) => listed(n, c));
      if (!field) continue;
      const spec = filtersOf(c.r).get(`${f.name}_id`);
      const param = spec?.type === 'fk' && !spec.tree ? spec.name : null;
      const excluded = new Set([f.name, `${f.name}_id`]);
      out.push({ field, child: c.r, param, fk: f.name, target: s.r.name, excluded });
    }
  }
  if (s.r.name === 'prefix' && listed('children', s))
    out.push({
      field: 'children',
      child: s.r,
      param: 'parent',
      fk: 'parent',
      target: s.r.name,
      excluded: new Set(['parent']),
    });
  return out;
}

// ---- random queries ---------------------------------------------------------------------------------

type Spec = FilterSpec | CfFilterSpec;
/** A filter argument: its REST parameter name, the texts REST reads, the GraphQL literal. */
interface Arg {
  readonly name: string;
  readonly values: readonly string[];
  readonly literal: string;
}
interface Level {
  readonly s: Served;
  readonly field: string;
  readonly nest: Nest | null;
  readonly args: readonly Arg[];
  readonly limit: number | null;
  readonly offset: number | null;
  readonly scalars: readonly string[];
  readonly children: readonly Level[];
}
/** A list at the root, or `site(id:)` (`one`: the id) whose nested lists are checked as a list of one. */
interface Query {
  readonly root: Level;
  readonly one: string | null;
}

const NETS = ['10.0.0.0/8', '10.1.0.0/16', '10.0.1.0/24', '10.2.3.0/24', '10.1.2.3', '2001:db8::/32', '2001:db8::5'];
const PATTERNS = ['^a', '1$', 'e.g', '[0-9]', 'Core|lab', '^$', '('];
/** A GraphQL name (a filter whose name is none cannot be an argument). */
const GRAPHQL_NAME = /^(?!__)[_A-Za-z][_0-9A-Za-z]*$/;
const MISSING_ID = ID_STYLE === 'integer' ? '999999' : '00000000-0000-4000-8000-0000ffffffff';

/** Values a filter and lookup may be given, drawn from the data so most of them match something. */
function valuePool(spec: Spec, lookup: string | null, r: ResourceDef, data: Data): string[] {
  const rowsOf = (name: string) => data.rows.get(name) ?? [];
  const texts = (name: string, field: string) =>
    rowsOf(name).flatMap((x) => (x[field] === null || x[field] === undefined ? [] : [String(x[field])]));
  const refs = (target: string) => [
    ...texts(target, 'id'),
    ...texts(target, resource(target).refField ?? 'slug'),
    MISSING_ID,
  ];
  if (lookup !== null && spec.lookups[lookup]?.does === 'isnull') return ['true', 'false'];
  if (lookup !== null && /^n?i?re$|regex$/.test(lookup)) return PATTERNS;
  switch (spec.type) {
    case 'cf':
      return spec.def.type === 'integer' ? ['0', '3', '5', '9', 'x'] : ['team-a', 'Team-A', 'team', 'b'];
    case 'tag':
      return ['core', 'edge', 'lab', 'nope'];
    case 'net':
    case 'net_alias':
      return [...NETS, ...texts('prefix', 'id').slice(0, 2)];
    case 'q':
      return WORDS;
    case 'fk':
      return spec.byId ? [...texts(spec.target, 'id'), MISSING_ID, 'null'] : [...refs(spec.target), 'null'];
    case 'path':
      return spec.name.endsWith('_id') ? [...texts(spec.end.target, 'id'), MISSING_ID] : refs(spec.end.target);
    case 'generic':
      return [];
  }
  const own = texts(r.name, spec.field);
  switch (spec.parse) {
    case 'integer':
      return [...own, '0', '1', '24', '1500', '65001'];
    case 'boolean':
      return ['true', 'false'];
    case 'choice':
      return [...(spec.choices ?? []).map((c) => c.value), 'nope'];
    case 'uuid':
      return [...own, MISSING_ID];
    case 'datetime':
      return INSTANTS;
    case 'family':
      return ['4', '6'];
    case 'mac':
      return ['00:11:22:33:44:55'];
    default:
      return [...own, ...own.map((t) => t.slice(0, 2)), ...WORDS];
  }
}

/** A GraphQL literal for a text: a number or a boolean where it reads as one (half the time), else a string. */
function literal(rand: Rand, text: string): string {
  if (rand() < 0.5 && /^-?\d{1,9}$/.test(text)) return text;
  if (rand() < 0.5 && (text === 'true' || text === 'false')) return text;
  return JSON.stringify(text);
}

function randomArgs(rand: Rand, s: Served, data: Data, cfs: readonly Spec[], excluded: ReadonlySet<string>): Arg[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const specs = [...filtersOf(s.r).values(), ...cfs].filter((f) => f.type !== 'generic' && !excluded.has(f.name));
  const n = pick([0, 0, 0, 1, 1, 1, 2, 3]);
  const out: Arg[] = [];
  for (let k = 0; k < n && specs.length; k++) {
    const spec = pick(specs);
    const lookup = rand() < 0.5 ? null : pick([null, ...Object.keys(spec.lookups)]);
    const pool = valuePool(spec, lookup, s.r, data);
    const name = `${spec.type === 'cf' ? `cf_${spec.name}` : spec.name}${lookup === null ? '' : `__${lookup}`}`;
    if (!pool.length || !GRAPHQL_NAME.test(name) || out.some((a) => a.name === name)) continue;
    const values = rand() < 0.75 ? [pick(pool)] : [pick(pool), pick(pool)];
    const lits = values.map((v) => literal(rand, v));
    out.push({ name, values, literal: values.length === 1 ? lits[0] : `[${lits.join(', ')}]` });
  }
  return out;
}

interface Gen {
  readonly rand: Rand;
  readonly served: ReadonlyMap<string, Served>;
  readonly data: Data;
  readonly cfs: ReadonlyMap<string, readonly Spec[]>;
}

function randomLevel(g: Gen, s: Served, field: string, nest: Nest | null, depth: number): Level {
  const { rand } = g;
  const nests = depth < 3 ? s.nests.filter(() => rand() < 0.45) : [];
  return {
    s,
    field,
    nest,
    args: randomArgs(rand, s, g.data, g.cfs.get(s.r.name) ?? [], nest?.excluded ?? new Set()),
    limit: rand() < 0.3 ? 1 + Math.floor(rand() * 6) : null,
    offset: rand() < 0.2 ? Math.floor(rand() * 4) : null,
    scalars: s.scalars.filter(() => rand() < 0.4),
    children: nests.map((n) => randomLevel(g, g.served.get(n.child.name)!, n.field, n, depth + 1)),
  };
}

function randomQuery(g: Gen): Query {
  const { rand } = g;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const withRows = [...g.served.values()].filter((s) => g.data.rows.has(s.r.name) && s.roots.length);
  // Half the time a resource in proportion to its rows (interfaces, addresses, prefixes: long lists).
  const weighted = withRows.flatMap((s) => (g.data.rows.get(s.r.name) ?? []).map(() => s));
  const s = rand() < 0.5 ? pick(weighted) : pick(withRows);
  const rows = g.data.rows.get(s.r.name) ?? [];
  if (s.one && rows.length && rand() < 0.15) {
    const root = randomLevel(g, s, s.one, null, 1);
    return { root: { ...root, args: [], limit: null, offset: null }, one: String(pick(rows).id) };
  }
  return { root: randomLevel(g, s, pick(s.roots), null, 1), one: null };
}

function render(l: Level, one: string | null = null): string {
  const args = one !== null ? [`id: ${JSON.stringify(one)}`] : l.args.map((a) => `${a.name}: ${a.literal}`);
  if (l.limit !== null) args.push(`limit: ${l.limit}`);
  if (l.offset !== null) args.push(`offset: ${l.offset}`);
  const inner = ['id', ...l.scalars, ...l.children.map((c) => render(c))].join(' ');
  return `${l.field}${args.length ? `(${args.join(', ')})` : ''} { ${inner} }`;
}

// ---- the REST answer and the comparison ---------------------------------------------------------------

interface Backend {
  readonly name: string;
  readonly storage: Storage;
  readonly inventory: Inventory;
  readonly service: GraphqlService;
}

type Errors = Record<string, string[]>;
const pairsOf = (args: readonly Arg[]): [string, string][] =>
  args.flatMap((a) => a.values.map((v): [string, string] => [a.name, v]));

/** REST's plan of these parameters (a prefix's `parent=<id>` read as its CIDR first), or its errors. */
type Planned = { readonly plan: Plan; readonly errors?: undefined } | { readonly errors: Errors };
async function restPlan(b: Backend, r: ResourceDef, pairs: [string, string][]): Promise<Planned> {
  const p = await parentFilterPairs(b.storage, r, pairs);
  if ('errors' in p) return { errors: p.errors as Errors };
  const customFields = await b.inventory.customFieldsFor(r);
  const planned = planQuery(r, parseQuery(p.pairs), { strict: true, customFields, ids: b.storage.ids });
  return Object.keys(planned.errors).length ? { errors: planned.errors as Errors } : { plan: planned.plan };
}

/** The REST list: these parameters, this page, the list's default order. */
async function restRows(b: Backend, l: Level, parent: string | null): Promise<readonly Row[]> {
  const nest = l.nest;
  const pairs = pairsOf(l.args);
  if (nest?.param && parent !== null) pairs.push([nest.param, parent]);
  const planned = await restPlan(b, l.s.r, pairs);
  if (planned.errors) throw new Error(`REST refused ${JSON.stringify(planned.errors)}`);
  const own = nest && !nest.param && parent !== null ? fk(nest.fk, nest.target, [parent], false, true) : null;
  const limit = l.limit === null ? 1_000_000 : Math.min(l.limit, LIMITS.maxPageSize);
  const page = { limit, offset: l.offset ?? 0, ordering: defaultOrdering(l.s.r) };
  return (await b.storage.find(l.s.r.name, own ? and([planned.plan, own]) : planned.plan, page)).rows;
}

/** Parameters REST refuses at each level (the same for every parent), by level. */
async function refusals(b: Backend, l: Level, out = new Map<Level, Errors>()): Promise<Map<Level, Errors>> {
  const planned = await restPlan(b, l.s.r, pairsOf(l.args));
  if (planned.errors) out.set(l, planned.errors);
  for (const c of l.children) await refusals(b, c, out);
  return out;
}

interface Tally {
  compared: number;
  objects: number;
  refused: number;
}

type Obj = Record<string, unknown>;

/** `got` (one level's answer under one parent) against REST; children against REST under each row. */
async function compareLevel(
  b: Backend,
  l: Level,
  got: unknown,
  want: readonly Row[],
  refused: Map<Level, Errors>,
  t: Tally,
) {
  const where = `${b.name} ${l.field}`;
  expect(refused.has(l), `${where}: REST refuses ${JSON.stringify(refused.get(l))}, GraphQL answered`).to.equal(false);
  expect(got, `${where}: a list`).to.be.an('array');
  const objs = got as Obj[];
  expect(
    objs.map((o) => o.id),
    `${where}: ids`,
  ).to.deep.equal(want.map((r) => String(r.id)));
  t.objects += objs.length;
  for (const [i, o] of objs.entries()) {
    for (const f of l.scalars) expect(o[f], `${where} #${i} ${f}`).to.deep.equal(want[i][f] ?? null);
    for (const c of l.children) {
      const rows = await restRows(b, c, String(want[i].id));
      await compareLevel(b, c, o[c.field], rows, refused, t);
    }
  }
}

/** The query against REST on one store; a failure names the store and the query. */
async function compare(b: Backend, q: Query, t: Tally): Promise<void> {
  try {
    await compareQuery(b, q, t);
  } catch (e) {
    if (e instanceof Error) e.message = `${b.name}: { ${render(q.root, q.one)} }\n${e.message}`;
    throw e;
  }
}

async function compareQuery(b: Backend, q: Query, t: Tally): Promise<void> {
  const text = `{ ${render(q.root, q.one)} }`;
  const res = await b.service.run({ query: text }, { limits: LIMITS, viewer: VIEW_ALL });
  const refused = await refusals(b, q.root);
  const ctx = `${b.name}: ${text}`;
  if (res.errors?.length) {
    const messages = res.errors.map((e) => e.message).join('\n');
    const named = [...refused.values()].flatMap((e) => Object.keys(e));
    expect(named, `${ctx}\nGraphQL errors where REST refuses nothing:\n${messages}`).to.not.be.empty;
    expect(
      named.some((n) => messages.includes(n)),
      `${ctx}\nno error names one of ${named.join(', ')}:\n${messages}`,
    ).to.equal(true);
    t.refused++;
    return;
  }
  const data = res.data as Obj;
  if (q.one !== null) {
    const row = await b.storage.get(q.root.s.r.name, q.one);
    await compareLevel(b, q.root, [data[q.root.field]], row ? [row] : [], refused, t);
  } else {
    expect(refused.has(q.root), `${ctx}: REST refuses ${JSON.stringify(refused.get(q.root))}`).to.equal(false);
    await compareLevel(b, q.root, data[q.root.field], await restRows(b, q.root, null), refused, t);
  }
  t.compared++;
}

// ---- the stores ---------------------------------------------------------------------------------------

interface SqlStore {
  readonly name: string;
  readonly storage: Storage & { truncateAll(): Promise<void> };
  drop(): Promise<void>;
}

const LABELS: Record<TestDbKind, string> = { postgres: 'PostgreSQL', mysql: 'MariaDB', mysql9: 'MySQL 9' };

async function openSql(skipped: string[]): Promise<SqlStore[]> {
  const out: SqlStore[] = [];
  for (const kind of KINDS) {
    const db = await testDatabaseOrSkip(kind);
    if ('skip' in db) {
      skipped.push(db.skip);
      continue;
    }
    const storage = await createStorage(db.url, { idStyle: ID_STYLE });
    await storage.open();
    if (!('truncateAll' in storage) || typeof storage.truncateAll !== 'function')
      throw new Error(`${kind}: a SQL store without truncateAll`);
    out.push({ name: LABELS[kind], storage: storage as SqlStore['storage'], drop: () => db.drop() });
  }
  return out;
}

/** The dataset on memory and on every SQL store, each with its Inventory and GraphqlService. */
async function load(data: Data, sql: readonly SqlStore[]): Promise<Backend[]> {
  const mem = new MemoryStorage(null, { idStyle: ID_STYLE });
  await mem.apply(data.ops);
  const out: Backend[] = [];
  const add = (name: string, storage: Storage) => {
    const inventory = new Inventory(storage);
    out.push({ name, storage, inventory, service: new GraphqlService(inventory, storage) });
  };
  add('memory', mem);
  for (const s of sql) {
    await s.storage.truncateAll();
    await s.storage.apply(data.ops);
    add(s.name, s.storage);
  }
  return out;
}

async function customFilterSpecs(b: Backend, all: ReadonlyMap<string, Served>): Promise<Map<string, Spec[]>> {
  const out = new Map<string, Spec[]>();
  for (const s of all.values())
    out.set(
      s.r.name,
      (await b.inventory.customFieldsFor(s.r)).filter((d) => d.filter_logic !== 'disabled').map(cfFilterSpec),
    );
  return out;
}

const TITLE = `graphql/differential: GraphQL answers as REST on memory, PostgreSQL, MariaDB, MySQL 9 (${ID_STYLE} ids)`;
describe(TITLE, function () {
  this.timeout(30 * 60 * 1000);
  let sql: SqlStore[] = [];
  const skipped: string[] = [];

  before(async () => {
    sql = await openSql(skipped);
    for (const s of skipped) console.log(`      note: ${s}`);
  });

  after(async () => {
    for (const s of sql) {
      await s.storage.close().catch(() => undefined);
      await s.drop().catch(() => undefined);
    }
  });

  it(`random queries in both dialects, nested lists with arguments: REST's ids, order, fields`, async () => {
    const t: Tally = { compared: 0, objects: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.array(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { minLength: PER_DATASET, maxLength: PER_DATASET }),
        async (dataSeed, querySeeds) => {
          const data = buildData(dataSeed);
          const backends = await load(data, sql);
          try {
            const all = served(await backends[0].service.schema());
            const g0 = { served: all, data, cfs: await customFilterSpecs(backends[0], all) };
            for (const seed of querySeeds) {
              const q = randomQuery({ ...g0, rand: mulberry32(seed) });
              for (const b of backends) await compare(b, q, t);
            }
          } finally {
            for (const b of backends) b.inventory.close();
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
    // The comparisons must mostly be of answers, not of refusals, and reach objects.
    expect(t.compared).to.be.greaterThan(t.refused);
    expect(t.objects).to.be.greaterThan(0);
    console.log(
      `      ${t.compared} answers compared (${t.objects} objects), ${t.refused} refusals on ${1 + sql.length} stores`,
    );
  });

  it('the schema serves what the test draws from: both dialects, nested lists (devices, interfaces, ...)', async () => {
    const mem = new MemoryStorage(null, { idStyle: ID_STYLE });
    const inventory = new Inventory(mem);
    try {
      const all = served(await new GraphqlService(inventory, mem).schema());
      const nests = (name: string) => all.get(name)?.nests.map((n) => n.field) ?? [];
      expect(all.get('site')?.roots).to.deep.equal(['sites', 'site_list']);
      expect(all.get('site')?.one).to.equal('site');
      expect(nests('site')).to.include.members(['devices', 'prefixes']);
      expect(nests('device')).to.include('interfaces');
      expect(nests('interface')).to.include('ip_addresses');
      expect(nests('prefix')).to.include('children');
      expect(all.get('device')?.scalars).to.include('name');
    } finally {
      inventory.close();
    }
  });
});
