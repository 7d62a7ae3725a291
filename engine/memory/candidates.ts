// Picks, per predicate, the index that narrows the rows before the full predicate runs.
// Returns null when no index serves the node (the rows are then scanned).
import type { AndNode, CfNode, CmpNode, NetNode, OrNode, Plan } from '../plan/nodes.js';
import type { ContainmentIndex } from '../net/containment-index.js';
import type { IndexedTable } from './indexed-table.js';
import type { SortedIndex } from './sorted-index.js';
import { describe } from '../plan/describe.js';
import { broadcastOf, networkOf } from '../net/ip.js';
import type { Resolver } from './resolve.js';
import { regexGrams } from './regex-grams.js';

export interface Candidates {
  readonly slots: Iterable<number>;
  readonly size: number;
  readonly index: string;
  /** Exactly the rows the node matches (not a superset): the plan then needs no row test. */
  readonly exact?: boolean;
  /** For an and: the child whose exact answer these candidates are; the row test may skip it. */
  readonly covered?: Plan;
  /** The slots come in the containment index's (network, length) order. */
  readonly inIndexOrder?: boolean;
  /**
   * Membership in `slots` without reading them (a hash index's test): a broad exact answer can
   * then be paged by walking the containment index, with no list of its matches built.
   */
  readonly has?: (slot: number) => boolean;
  /** For an exact answer: its rows as a bit per slot (a large tag's), so an and of them is counted word by word. */
  readonly bits?: Uint32Array;
}

export interface CandidateTrace {
  readonly predicate: string;
  readonly index: string;
  readonly candidates: number | null;
}

const EMPTY: Candidates = { slots: [], size: 0, index: 'none (no match possible)' };

function union(parts: readonly (ReadonlySet<number> | undefined)[], index: string): Candidates {
  const present = parts.filter((p): p is ReadonlySet<number> => !!p && p.size > 0);
  if (present.length === 0) return { ...EMPTY, index };
  if (present.length === 1) return { slots: present[0], size: present[0].size, index };
  const all = new Set<number>();
  for (const p of present) for (const s of p) all.add(s);
  return { slots: all, size: all.size, index };
}

function fromArray(slots: ArrayLike<number> & Iterable<number>, index: string, exact = false): Candidates {
  return { slots, size: slots.length, index, exact };
}

const exactly = (c: Candidates, has?: (slot: number) => boolean, bits?: Uint32Array | null): Candidates => ({
  ...c,
  exact: true,
  has,
  ...(bits ? { bits } : {}),
});

function netCandidates(n: NetNode, table: IndexedTable): Candidates | null {
  const idx: ContainmentIndex | null = table.netIndex;
  const addr: ContainmentIndex | null = table.addrIndex;
  if (!idx || !addr) return null;
  const { family, network, broadcast, length } = n;
  const label = `containment(${n.field}).${n.op}`;
  // The index answers for CIDR blocks; a node whose range is not exactly its block (never built by
  // the planner, possible from other producers) falls back to the predicate over every row.
  const isBlock = networkOf(family, network, length) === network && broadcastOf(family, network, length) === broadcast;
  if (!isBlock && n.op !== 'addr_in' && n.op !== 'addr_eq' && !(n.op === 'equal' && n.field === 'host')) return null;
  // The answers below are exact (same family, range and length rules as netTest), except `equal`
  // on a host, whose address index does not know the mask length.
  switch (n.op) {
    case 'equal':
      return n.field === 'host'
        ? fromArray(addr.networkInRange(family, network, network), label)
        : fromArray(idx.equal(family, network, length), label, true);
    case 'addr_eq':
      return fromArray(addr.networkInRange(family, network, network), label, true);
    case 'addr_in':
      return fromArray(addr.networkInRange(family, network, broadcast), label, true);
    // A containedIn answer is one contiguous range of the sorted index: already in page order.
    case 'contained':
      return { ...fromArray(idx.containedIn(family, network, length, false), label, true), inIndexOrder: true };
    case 'contained_or_equal':
      return { ...fromArray(idx.containedIn(family, network, length, true), label, true), inIndexOrder: true };
    case 'contains':
      return fromArray(idx.containing(family, network, length, false), label, true);
    case 'child_of':
      return { ...fromArray(table.childSlots(n), label, true), inIndexOrder: true };
    case 'contains_or_equal':
      return fromArray(idx.containing(family, network, length, true), label, true);
  }
  return null;
}

/** `trace`: filled for explain; null on the query path, which should not format descriptions. */
export function candidatesFor(
  plan: Plan,
  table: IndexedTable,
  resolver: Resolver,
  trace: CandidateTrace[] | null,
): Candidates | null {
  const c = candidatesInner(plan, table, resolver, trace);
  if (trace && plan.kind !== 'and' && plan.kind !== 'or')
    trace.push({ predicate: describe(plan), index: c?.index ?? 'scan', candidates: c?.size ?? null });
  return c;
}

function candidatesInner(
  plan: Plan,
  table: IndexedTable,
  resolver: Resolver,
  trace: CandidateTrace[] | null,
): Candidates | null {
  switch (plan.kind) {
    case 'const':
      return plan.value ? null : EMPTY;
    case 'cmp':
      return cmpCandidates(plan, table);
    case 'null': {
      const h = table.hashOf(plan.field);
      return h ? union([h.get(null)], `hash(${plan.field})`) : null;
    }
    case 'fk':
    case 'via': {
      const h = table.hashOf(plan.field);
      if (!h) return null;
      const ids = [...resolver.refIds(plan)];
      const c = union(
        ids.map((id) => h.get(id)),
        `hash(${plan.field})`,
      );
      // Membership: one key's own test (a bitmap when large); for many keys the union's set, not a test per
      // key tried in turn for each slot (a batch of 5,000 parents' ids would cost 5,000 tests a slot).
      const slots = c.slots;
      return exactly(c, ids.length === 1 ? h.tester(ids[0]) : slots instanceof Set ? (s) => slots.has(s) : () => false);
    }
    case 'tag': {
      if (!table.tags) return EMPTY;
      const id = resolver.tagId(plan.ref);
      return id === null
        ? { ...EMPTY, index: 'tags' }
        : exactly(union([table.tags.get(id)], 'tags'), table.tags.tester(id), table.tags.bitmap(id));
    }
    case 'net':
      return netCandidates(plan, table);
    case 'cf':
      return cfCandidates(plan, table);
    case 'not':
      return null;
    case 'and':
      return andCandidates(plan, table, resolver, trace);
    case 'or':
      return orCandidates(plan, table, resolver, trace);
  }
}

function cmpCandidates(plan: CmpNode, table: IndexedTable): Candidates | null {
  const e = plan.op === 'eq' ? table.fieldEquality(plan.field, plan.ci, plan.values) : null;
  if (e)
    return exactly(
      union(
        e.keys.map((k) => e.idx.get(k)),
        e.label,
      ),
      e.idx.testerOfAny(e.keys),
    );
  // Substring-shaped text lookups (case-insensitive): the trigram index gives a superset.
  if (
    plan.ci &&
    plan.valueType === 'string' &&
    ['contains', 'startswith', 'endswith', 'eq'].includes(plan.op) &&
    plan.values.every((v) => String(v).length >= 3)
  ) {
    const idx = table.trigram(plan.field);
    if (idx) {
      const parts = plan.values.map((v) => idx.candidates(String(v)));
      if (parts.every((p) => p !== null)) return union(parts as Set<number>[], `trigram(${plan.field})`);
    }
  }
  // A regex with literal fragments: the rows holding their trigrams (pg_trgm's way with `~`).
  if (plan.op === 'regex' && plan.valueType === 'string') {
    // The fragments first: a pattern without one leaves nothing to narrow, so the field's trigram index is not
    // built (built at first use, it would hold the event loop for a query that scans every row anyway).
    const queries = plan.values.map((v) => regexGrams(String(v), plan.ci));
    const idx = queries.every((q) => q !== null) ? table.trigram(plan.field) : null;
    if (idx) {
      const parts = queries.map((q) => idx.candidatesAny(q!));
      if (parts.every((p) => p !== null)) return union(parts as Set<number>[], `trigram(${plan.field})`);
    }
  }
  const sorted = table.sortedFor(plan.field, plan.valueType);
  if (sorted && ['lt', 'lte', 'gt', 'gte'].includes(plan.op) && plan.values.length === 1) {
    const [lo, loX, hi, hiX] = BOUNDS[plan.op as 'lt'](plan.values[0] as number | string);
    const r = sorted.range(lo, loX, hi, hiX);
    // The sorted index holds every non-null value, all of the field's own type: exact.
    return exactly(fromArray(r, `sorted(${plan.field})`), sorted.tester(lo, loX, hi, hiX));
  }
  return null;
}

/** Exact values and list membership: equality index; numeric and date ranges: sorted index. */
function cfCandidates(plan: CfNode, table: IndexedTable): Candidates | null {
  if (plan.op === 'eq' || plan.op === 'has') {
    const e = table.cfEquality(plan.name, plan.ci && plan.op === 'eq', plan.values);
    return union(
      e.keys.map((k) => e.idx.get(k)),
      e.label,
    );
  }
  if (
    RANGE_OPS.has(plan.op) &&
    plan.values.length === 1 &&
    (plan.valueType === 'number' || plan.valueType === 'string')
  ) {
    const v = plan.values[0] as number | string;
    const idx = table.cfRange(plan.name, plan.valueType);
    const r =
      plan.op === 'lt'
        ? idx.range(null, false, v, true)
        : plan.op === 'lte'
          ? idx.range(null, false, v, false)
          : plan.op === 'gt'
            ? idx.range(v, true, null, false)
            : idx.range(v, false, null, false);
    return fromArray(r, `cf_sorted(${plan.name})`, true); // only values of the node's type are indexed
  }
  return null;
}

/** Most selective indexed child wins; the full predicate filters the rest. */
function andCandidates(
  plan: AndNode,
  table: IndexedTable,
  resolver: Resolver,
  trace: CandidateTrace[] | null,
): Candidates | null {
  const bounded = boundedRange(plan.children, table);
  let best: Candidates | null = bounded;
  let bestChild: Plan | undefined;
  const answers: (Candidates | null)[] = [];
  for (const c of plan.children) {
    const got = candidatesFor(c, table, resolver, trace);
    answers.push(got);
    if (got && (!best || got.size < best.size)) {
      best = got;
      bestChild = c;
    }
  }
  // Every child answered exactly with a membership test (equalities, tags): the and is exact
  // too, and keeps a test a broad page can walk with.
  if (best && best !== bounded && answers.every((a) => a?.exact && a.has))
    return intersect(best, answers as Candidates[]);
  // One child's rows are exact for the whole only when it is the only child.
  if (best && best !== bounded && plan.children.length > 1)
    best = { ...best, exact: false, covered: best.exact ? bestChild : undefined };
  return best;
}

function orCandidates(
  plan: OrNode,
  table: IndexedTable,
  resolver: Resolver,
  trace: CandidateTrace[] | null,
): Candidates | null {
  const parts: Candidates[] = [];
  for (const c of plan.children) {
    const got = candidatesFor(c, table, resolver, trace);
    if (!got) return null;
    parts.push(got);
  }
  const all = new Set<number>();
  for (const p of parts) for (const s of p.slots) all.add(s);
  return {
    slots: all,
    size: all.size,
    index: `union(${parts.map((p) => p.index).join(', ')})`,
    exact: parts.every((p) => p.exact),
  };
}

/** The rows of `smallest` every other answer's test accepts, and the test of all of them. */
function intersect(smallest: Candidates, answers: readonly Candidates[]): Candidates {
  const all = answers.map((a) => a.has!);
  const has = (s: number) => {
    for (const t of all) if (!t(s)) return false;
    return true;
  };
  const index = `and(${answers.map((a) => a.index).join(', ')})`;
  if (answers.every((a) => a.bits))
    return intersectBits(
      answers.map((a) => a.bits!),
      has,
      index,
    );
  const others = answers.filter((a) => a !== smallest).map((a) => a.has!);
  const slots: number[] = [];
  outer: for (const s of smallest.slots) {
    for (const t of others) if (!t(s)) continue outer;
    slots.push(s);
  }
  return { slots, size: slots.length, index, exact: true, has };
}

/** Bits set in a word. */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * An and of large tags: counted word by word over their bitmaps, with no list of matches built
 * (a page is then walked with `has`); the slots are read off the words only if something iterates them.
 */
function intersectBits(maps: readonly Uint32Array[], has: (s: number) => boolean, index: string): Candidates {
  const words = Math.min(...maps.map((m) => m.length));
  const word = (w: number) => {
    let x = maps[0][w];
    for (let i = 1; i < maps.length && x; i++) x &= maps[i][w];
    return x;
  };
  let size = 0;
  for (let w = 0; w < words; w++) size += popcount(word(w));
  const slots = {
    *[Symbol.iterator]() {
      for (let w = 0; w < words; w++) for (let x = word(w), b = 0; x; x >>>= 1, b++) if (x & 1) yield w * 32 + b;
    },
  };
  return { slots, size, index, exact: true, has };
}

const RANGE_OPS = new Set(['lt', 'lte', 'gt', 'gte']);

type Bounds = [lo: number | string | null, loX: boolean, hi: number | string | null, hiX: boolean];
/** A one-sided range's bounds, as `SortedIndex.range` takes them. */
const BOUNDS: Record<'lt' | 'lte' | 'gt' | 'gte', (v: number | string) => Bounds> = {
  lt: (v) => [null, false, v, true],
  lte: (v) => [null, false, v, false],
  gt: (v) => [v, true, null, false],
  gte: (v) => [v, false, null, false],
};

/** `x__gte=a&x__lte=b` on a sorted field: one range lookup bounded at both ends. */
function boundedRange(children: readonly Plan[], table: IndexedTable): Candidates | null {
  const byField = new Map<
    string,
    { idx: SortedIndex; lo: number | string | null; loX: boolean; hi: number | string | null; hiX: boolean; n: number }
  >();
  for (const c of children) {
    if (c.kind !== 'cmp' || !RANGE_OPS.has(c.op) || c.values.length !== 1) continue;
    const idx = table.sortedFor(c.field, c.valueType);
    if (!idx) continue;
    const v = c.values[0] as number | string;
    const r = byField.get(c.field) ?? { idx, lo: null, loX: false, hi: null, hiX: false, n: 0 };
    if (c.op === 'gt' || c.op === 'gte') {
      if (r.lo === null || v > r.lo) {
        r.lo = v;
        r.loX = c.op === 'gt';
      }
    } else if (r.hi === null || v < r.hi) {
      r.hi = v;
      r.hiX = c.op === 'lt';
    }
    r.n++;
    byField.set(c.field, r);
  }
  let best: Candidates | null = null;
  for (const [field, r] of byField) {
    if (r.n < 2 || r.lo === null || r.hi === null) continue;
    const got = fromArray(r.idx.range(r.lo, r.loX, r.hi, r.hiX), `sorted(${field}) bounded`);
    // Exact when the and holds nothing but these range conditions; its size is then the count.
    if (r.n === children.length) return exactly(got, r.idx.tester(r.lo, r.loX, r.hi, r.hiX));
    if (!best || got.size < best.size) best = got;
  }
  return best;
}
