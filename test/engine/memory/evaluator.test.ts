// The memory evaluator (index candidates + predicate) returns exactly the rows of a plain,
// independently written scan, on random data and random plans (fast-check).
import { expect } from 'chai';
import fc from 'fast-check';
import * as N from '../../../engine/plan/nodes.js';
import type { Plan } from '../../../engine/plan/nodes.js';
import { broadcastOf, formatCidr, networkOf, parseCidr } from '../../../engine/net/ip.js';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';
import type { Row } from '../../../storage/types.js';

const SITES = ['s-a', 's-b', 's-c'];
const TAGS = ['t-x', 't-y'];
const STATUSES = ['active', 'reserved', 'deprecated', 'container'];
const id = (prefix: string, i: number) => `00000000-0000-4000-8000-${prefix}${String(i).padStart(11, '0')}`;

const v4 = fc
  .tuple(
    fc.constantFrom(10, 192),
    fc.integer({ min: 0, max: 3 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 8, max: 32 }),
  )
  .map(([a, b, c, d, len]) => {
    const x = parseCidr(`${a}.${b}.${c}.${d}/${len}`)!;
    return formatCidr(4, networkOf(4, x.host, len), len);
  });
const v6 = fc
  .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 16, max: 128 }))
  .map(([a, b, len]) => {
    const x = parseCidr(`2001:db8:${a}:${b.toString(16)}::${b.toString(16)}/${len}`)!;
    return formatCidr(6, networkOf(6, x.host, len), len);
  });

const rowArb = fc.record({
  prefix: fc.oneof(v4, v4, v6),
  status: fc.constantFrom(...STATUSES),
  site: fc.option(fc.integer({ min: 0, max: SITES.length - 1 }), { nil: null }),
  tags: fc.subarray([0, 1]),
  // 'ore cor' / 'ink lin' hold every trigram of 'core' / 'link' without the word: index false positives.
  description: fc.constantFrom('', 'Core', 'edge link', 'CORE-2', 'lab', 'ore cor', 'ink lin'),
  // A list value is indexed per element but never equals a scalar: another superset case.
  cf: fc.record(
    {
      n: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
      t: fc.constantFrom<unknown>('alpha', 'Beta', '', ['alpha', 'Beta']),
    },
    { requiredKeys: [] },
  ),
});

const blockArb = fc.oneof(v4, v6).map((t) => parseCidr(t)!);
const netOps: N.NetOp[] = [
  'equal',
  'addr_eq',
  'contained',
  'contained_or_equal',
  'contains',
  'contains_or_equal',
  'addr_in',
  'child_of',
];

const leafArb: fc.Arbitrary<Plan> = fc.oneof(
  fc.subarray(STATUSES, { minLength: 1 }).map((v) => N.cmp('status', 'string', 'eq', false, v)),
  fc.constantFrom('core', 'LINK', 'e').map((v) => N.cmp('description', 'string', 'contains', true, [v.toLowerCase()])),
  fc
    .tuple(fc.constantFrom<N.CmpOp>('lt', 'lte', 'gt', 'gte', 'eq'), fc.integer({ min: 8, max: 128 }))
    .map(([op, v]) => N.cmp('prefix_length', 'number', op, false, [v])),
  // A text bound on an integer field matches no row.
  fc
    .tuple(fc.constantFrom<N.CmpOp>('lt', 'lte', 'gt', 'gte'), fc.integer({ min: 8, max: 128 }))
    .map(([op, v]) => N.cmp('prefix_length', 'string', op, false, [String(v)])),
  // Id ranges (a cursor's `start`) with text bounds, and with a number bound, which matches no id.
  fc
    .tuple(
      fc.constantFrom<N.CmpOp>('lt', 'lte', 'gt', 'gte'),
      fc.integer({ min: 0, max: 60 }),
      fc.constantFrom<'string' | 'number'>('string', 'number'),
    )
    .map(([op, i, vt]) => N.cmp('id', vt, op, false, [id('3', i)])),
  fc.constant(N.isNull('site')),
  fc.subarray(SITES, { minLength: 1 }).map((refs) => N.fk('site', 'site', refs, false)),
  fc.constantFrom(...TAGS, 'nope').map((t) => N.tag(t)),
  fc
    .tuple(fc.constantFrom(...netOps), blockArb)
    .map(([op, c]) =>
      N.net(
        'network',
        op,
        c.family,
        op === 'addr_eq' ? c.host : networkOf(c.family, c.host, c.length),
        broadcastOf(c.family, c.host, c.length),
        op === 'addr_eq' ? (c.family === 4 ? 32 : 128) : c.length,
      ),
    ),
  fc
    .tuple(fc.constantFrom<N.CmpOp>('lt', 'eq', 'gte'), fc.integer({ min: 0, max: 5 }))
    .map(([op, v]) => N.cf('n', 'number', op, false, [v])),
  fc.constantFrom('alp', 'BETA').map((v) => N.cf('t', 'string', 'contains', true, [v.toLowerCase()])),
  fc.subarray(['ALPHA', 'beta', 'Beta', '', 'x'], { minLength: 1 }).map((vs) => N.cf('t', 'string', 'eq', true, vs)),
  fc.subarray(['alpha', 'Beta', 'beta'], { minLength: 1 }).map((vs) => N.cf('t', 'string', 'eq', false, vs)),
);
const planArb: fc.Arbitrary<Plan> = fc.letrec<{ plan: Plan }>((tie) => ({
  plan: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    leafArb,
    fc.array(tie('plan'), { minLength: 1, maxLength: 3 }).map(N.and),
    fc.array(tie('plan'), { minLength: 1, maxLength: 3 }).map(N.or),
    tie('plan').map(N.not),
  ),
})).plan;

// --- the reference: a plain scan written without the engine's helpers ---
const big = (hex: string) => BigInt('0x' + hex);
/** The live rows of the case being checked: `child_of` depends on the other rows. */
let liveRows: Row[] = [];
function refNet(n: N.NetNode, row: Row): boolean {
  const c = parseCidr(row.prefix as string)!;
  if (c.family !== n.family) return false;
  const rn = big(c.network),
    rb = big(c.broadcast),
    qn = big(n.network),
    qb = big(n.broadcast);
  switch (n.op) {
    case 'equal':
      return rn === qn && c.length === n.length;
    case 'addr_eq':
      return rn === qn;
    case 'addr_in':
      return rn >= qn && rn <= qb;
    case 'contained':
      return c.length > n.length && rn >= qn && rb <= qb;
    case 'contained_or_equal':
      return c.length >= n.length && rn >= qn && rb <= qb;
    case 'contains':
      return c.length < n.length && rn <= qn && rb >= qb;
    case 'contains_or_equal':
      return c.length <= n.length && rn <= qn && rb >= qb;
    case 'child_of':
      return (
        c.length > n.length &&
        rn >= qn &&
        rb <= qb &&
        !liveRows.some((q) => {
          const d = parseCidr(q.prefix as string)!;
          return (
            d.family === c.family &&
            d.length > n.length &&
            d.length < c.length &&
            big(d.network) <= rn &&
            big(d.broadcast) >= rb
          );
        })
      );
  }
}
function refEval(p: Plan, row: Row, siteSlugs: Map<string, string>, tagSlugs: Map<string, string>): boolean {
  const cmpNum = (op: string, a: number, b: number) =>
    (({ lt: a < b, lte: a <= b, gt: a > b, gte: a >= b, eq: a === b }) as Record<string, boolean>)[op];
  switch (p.kind) {
    case 'const':
      return p.value;
    case 'and':
      return p.children.every((c) => refEval(c, row, siteSlugs, tagSlugs));
    case 'or':
      return p.children.some((c) => refEval(c, row, siteSlugs, tagSlugs));
    case 'not':
      return !refEval(p.child, row, siteSlugs, tagSlugs);
    case 'null':
      return row[p.field] === null || row[p.field] === undefined;
    case 'fk':
      return row[p.field] !== null && p.refs.includes(siteSlugs.get(row[p.field] as string)!);
    case 'tag':
      return (row.tags as string[]).some((t) => tagSlugs.get(t) === p.ref);
    case 'net':
      return refNet(p, row);
    case 'cmp': {
      const v = row[p.field];
      if (p.valueType === 'number') return typeof v === 'number' && p.values.some((x) => cmpNum(p.op, v, x as number));
      if (p.op === 'contains') return p.values.some((x) => String(v).toLowerCase().includes(String(x)));
      if (p.op !== 'eq')
        return (
          typeof v === 'string' &&
          p.values.some(
            (x) =>
              (
                ({ lt: v < String(x), lte: v <= String(x), gt: v > String(x), gte: v >= String(x) }) as Record<
                  string,
                  boolean
                >
              )[p.op],
          )
        );
      return p.values.includes(v as string);
    }
    case 'via':
      throw new Error('relations are compared with SQL in test/storage/sql/differential.test.ts');
    case 'cf': {
      const v = (row.custom_fields as Record<string, unknown>)[p.name];
      if (v === null || v === undefined) return false;
      if (Array.isArray(v)) return false; // a list answers only `has` (multi-select), never a scalar test
      if (p.valueType === 'number') return p.values.some((x) => cmpNum(p.op, v as number, x as number));
      if (p.op === 'eq')
        return (
          typeof v === 'string' && p.values.some((x) => (p.ci ? v.toLowerCase() === String(x).toLowerCase() : v === x))
        );
      return p.values.some((x) => String(v).toLowerCase().includes(String(x)));
    }
  }
}

describe('memory evaluator equals a plain scan (property)', () => {
  it('on random prefixes and random plans, including after deletes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowArb, { maxLength: 60 }),
        fc.array(planArb, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (raw, plans, deletes) => {
          const store = new MemoryStorage(null);
          const now = '2026-01-01T00:00:00.000Z';
          const siteSlugs = new Map<string, string>(),
            tagSlugs = new Map<string, string>();
          SITES.forEach((slug, i) => {
            siteSlugs.set(id('1', i), slug);
            store.table('site').insert({ id: id('1', i), name: slug, slug, created: now, last_updated: now });
          });
          TAGS.forEach((slug, i) => {
            tagSlugs.set(id('2', i), slug);
            store.table('tag').insert({ id: id('2', i), name: slug, slug, created: now, last_updated: now });
          });
          const rows: Row[] = raw.map((r, i) => {
            const c = parseCidr(r.prefix)!;
            return {
              id: id('3', i),
              created: now,
              last_updated: now,
              prefix: r.prefix,
              prefix_length: c.length,
              family: c.family,
              status: r.status,
              site: r.site === null ? null : id('1', r.site),
              tags: r.tags.map((t) => id('2', t)),
              description: r.description,
              custom_fields: r.cf,
            };
          });
          for (const r of rows) store.table('prefix').insert(r);
          const live = new Map(rows.map((r) => [r.id, r]));
          for (const d of deletes)
            if (rows.length) {
              const r = rows[d % rows.length];
              store.table('prefix').remove(r.id);
              live.delete(r.id);
            }
          liveRows = [...live.values()];
          for (const plan of plans) {
            const got = await store.find('prefix', plan, { limit: 1e6, offset: 0, ordering: [] });
            const want = [...live.values()]
              .filter((r) => refEval(plan, r, siteSlugs, tagSlugs))
              .map((r) => r.id)
              .sort();
            expect(got.rows.map((r) => r.id).sort()).to.deep.equal(want);
          }
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 150) },
    );
  });

  it('cursor pages (ids from a start on, no count) equal a plain scan in id order, as rows come and go', async () => {
    // Enough rows that indexes leave more candidates than the id walk's threshold; ids scattered
    // so that insertion order is not id order.
    const scattered = (i: number) => id('3', (i * 7919) % 100_003);
    const now = '2026-01-01T00:00:00.000Z';
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(planArb, fc.nat(), fc.integer({ min: 1, max: 80 }), fc.nat({ max: 90 })), {
          minLength: 1,
          maxLength: 6,
        }),
        async (raw, steps) => {
          const store = new MemoryStorage(null);
          const siteSlugs = new Map<string, string>(),
            tagSlugs = new Map<string, string>();
          SITES.forEach((slug, i) => {
            siteSlugs.set(id('1', i), slug);
            store.table('site').insert({ id: id('1', i), name: slug, slug, created: now, last_updated: now });
          });
          TAGS.forEach((slug, i) => {
            tagSlugs.set(id('2', i), slug);
            store.table('tag').insert({ id: id('2', i), name: slug, slug, created: now, last_updated: now });
          });
          let made = 0;
          const make = (): Row => {
            const r = raw[made % raw.length],
              c = parseCidr(r.prefix)!,
              i = made++;
            return {
              id: scattered(i),
              created: now,
              last_updated: now,
              prefix: r.prefix,
              prefix_length: c.length,
              family: c.family,
              status: r.status,
              site: r.site === null ? null : id('1', r.site),
              tags: r.tags.map((t) => id('2', t)),
              description: r.description,
              custom_fields: r.cf,
            };
          };
          const live = new Map<string, Row>();
          const table = store.table('prefix');
          for (let i = 0; i < 2600; i++) {
            const r = make();
            table.insert(r);
            live.set(r.id, r);
          }
          for (const [plan, at, limit, churn] of steps) {
            liveRows = [...live.values()];
            // A start that is an id of the table, or one between two (made, not stored).
            const start = at % 2 ? scattered(at % (made + 50)) : [...live.keys()][at % live.size];
            const got = await store.find(
              'prefix',
              N.and([plan, N.cmp('id', 'string', 'gte', false, [start])]),
              { limit, offset: 0, ordering: [{ field: 'id', desc: false }] },
              { noCount: true },
            );
            const want = liveRows
              .filter((r) => r.id >= start && refEval(plan, r, siteSlugs, tagSlugs))
              .map((r) => r.id)
              .sort()
              .slice(0, limit);
            expect(got.rows.map((r) => r.id)).to.deep.equal(want);
            // Rows come and go between pages: a few are followed in the order, many make it rebuild.
            for (let k = 0; k < churn; k++) {
              if (k % 3 === 2) {
                const gone = [...live.keys()][(at + k * 31) % live.size];
                table.remove(gone);
                live.delete(gone);
              } else {
                const r = make();
                table.insert(r);
                live.set(r.id, r);
              }
            }
          }
        },
      ),
      { numRuns: Math.max(10, Math.round(Number(process.env.PROPERTY_RUNS ?? 150) / 10)) },
    );
  });
});
