// Ordering of result rows: stable across backends. Nulls sort last ascending (first descending),
// strings by code unit, addresses numerically, ties broken by id. Only the rows of the requested
// page are fully ordered: a bounded heap selects them in O(n log k) without per-row allocation.
// Every loop over the matches pauses every STEP_ROWS rows (steps.ts): a page deep into a million
// matches is sorted in pieces, not in one block of the event loop.
import type { OrderKey } from '../plan/page.js';
import { netPartField } from '../schema/registry.js';
import type { FieldDef, ResourceDef } from '../schema/types.js';
import { runSteps, STEP_ROWS, type Steps } from './steps.js';
import type { IndexedTable } from './indexed-table.js';
import type { Family } from '../net/ip.js';

/** Positions sorted in one step of a deep page (a few milliseconds of comparisons). */
export const SORT_RUN = 8192;

/** Slots ordered by their rows' ids: the tie-break of every ordering. */
export function byId(table: IndexedTable): (a: number, b: number) => number {
  return (a, b) => table.compareIds(a, b);
}

export type Key = string | number | boolean | null;

/** How one ordering key puts two slots in order: a key read once per row, or a comparison in place. */
export type KeySource =
  { readonly read: (slot: number) => Key } | { readonly compare: (a: number, b: number) => number };

export function keySource(table: IndexedTable, f: FieldDef): KeySource {
  switch (f.kind) {
    // Addresses order by family, then address, then length: compared on their words, no key built.
    case 'ip':
    case 'prefix':
    case 'address': {
      const host = f.netRole === 'host' || f.kind === 'address';
      return { compare: (a, b) => table.compareNetworks(a, b, host) };
    }
    default: {
      // Ids compare on their words (the id column keeps the style's order): no id text made per row.
      if (f.name === 'id') return { compare: (a, b) => table.compareIds(a, b) };
      const read = table.reader(f.name);
      return {
        read: (s) => {
          const v = read(s);
          return v === undefined || v === null ? null : (v as Key);
        },
      };
    }
  }
}

const UNREAD = Symbol('unread');

/**
 * Keys are read at most once per row into columns; the comparator then works on positions. The
 * first key is read for every row; later keys and the id tie-break only for rows that tie, which
 * on a page of distinct networks is almost none.
 */
function* positionComparator(
  slots: readonly number[],
  table: IndexedTable,
  def: ResourceDef,
  ordering: readonly OrderKey[],
): Steps<(a: number, b: number) => number> {
  const n = slots.length;
  const sources = ordering.map((o) =>
    keySource(
      table,
      def.fields.find((f) => f.name === o.field)!,
    ),
  );
  const cols: ((Key | typeof UNREAD)[] | null)[] = [];
  for (let i = 0; i < sources.length; i++) {
    const src = sources[i];
    if (!('read' in src)) {
      cols.push(null);
      continue;
    }
    const col = new Array<Key | typeof UNREAD>(n);
    if (i === 0)
      for (let p = 0; p < n; p++) {
        col[p] = src.read(slots[p]);
        if ((p + 1) % STEP_ROWS === 0) yield;
      }
    else col.fill(UNREAD);
    cols.push(col);
  }
  const key = (i: number, p: number): Key => {
    const col = cols[i]!;
    let v = col[p];
    if (v === UNREAD) v = col[p] = (sources[i] as { read: (slot: number) => Key }).read(slots[p]);
    return v as Key;
  };
  return keyOrder(table, sources, ordering, key, (p) => slots[p]);
}

/**
 * The list's comparison of two rows named by `slotOf(a)`, `slotOf(b)`: key by key (`key(i, a)` reads
 * key i where the source reads), nulls last ascending, then the id.
 */
export function keyOrder(
  table: IndexedTable,
  sources: readonly KeySource[],
  ordering: readonly OrderKey[],
  key: (i: number, at: number) => Key,
  slotOf: (at: number) => number,
): (a: number, b: number) => number {
  const desc = ordering.map((o) => o.desc);
  return (a, b) => {
    for (let i = 0; i < sources.length; i++) {
      let c: number;
      const src = sources[i];
      if ('compare' in src) {
        c = src.compare(slotOf(a), slotOf(b));
        if (c === 0) continue;
      } else {
        const x = key(i, a),
          y = key(i, b);
        if (x === y) continue;
        c = x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
      }
      return desc[i] ? -c : c;
    }
    return table.compareIds(slotOf(a), slotOf(b));
  };
}

/** A binary heap of positions whose root is the greatest under `cmp`. */
export function heapOps(heap: number[], cmp: (a: number, b: number) => number) {
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (cmp(heap[i], heap[p]) <= 0) break;
      [heap[i], heap[p]] = [heap[p], heap[i]];
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1,
        r = l + 1;
      let m = i;
      if (l < heap.length && cmp(heap[l], heap[m]) > 0) m = l;
      if (r < heap.length && cmp(heap[r], heap[m]) > 0) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  return { up, down };
}

/** The first `count` positions of 0..n-1 in order. */
function* firstN(n: number, count: number, cmp: (a: number, b: number) => number): Steps<number[]> {
  if (n <= count * 4) return yield* sortedPrefix(n, count, cmp);
  const heap: number[] = []; // max-heap of the best `count` so far
  const { up, down } = heapOps(heap, cmp);
  for (let s = 0; s < n; s++) {
    if (heap.length < count) {
      heap.push(s);
      up(heap.length - 1);
    } else if (cmp(s, heap[0]) < 0) {
      heap[0] = s;
      down(0);
    }
    if ((s + 1) % STEP_ROWS === 0) yield;
  }
  return heap.sort(cmp);
}

/**
 * The first `count` positions when that is most of them (a deep page): runs of SORT_RUN
 * positions are sorted one per step, then merged until `count` are out.
 */
function* sortedPrefix(n: number, count: number, cmp: (a: number, b: number) => number): Steps<number[]> {
  const runs: number[][] = [];
  for (let start = 0; start < n; start += SORT_RUN) {
    if (start > 0) yield;
    const run: number[] = [];
    for (let i = start; i < Math.min(n, start + SORT_RUN); i++) run.push(i);
    runs.push(run.sort(cmp));
  }
  if (runs.length === 1) return runs[0].slice(0, count);
  // Merge: a heap of run numbers whose root holds the least head (the comparator is reversed).
  const at = new Array<number>(runs.length).fill(0);
  const head = (r: number) => runs[r][at[r]];
  const heap = runs.map((_, r) => r);
  const { down } = heapOps(heap, (a, b) => cmp(head(b), head(a)));
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  const out: number[] = [];
  while (out.length < count) {
    const r = heap[0];
    out.push(head(r));
    if (++at[r] === runs[r].length) {
      heap[0] = heap[heap.length - 1];
      heap.pop();
    }
    down(0);
    if (out.length % STEP_ROWS === 0) yield;
  }
  return out;
}

/**
 * Is `ordering` the containment index's own order, (family, network, length)? True for the
 * network field alone or followed by its length field in the same direction (already implied).
 */
export function indexOrdered(table: IndexedTable, def: ResourceDef, ordering: readonly OrderKey[]): boolean {
  if (!table.netIndex || table.netIndex.size !== table.size || ordering.length === 0 || ordering.length > 2)
    return false;
  const f = def.fields.find((x) => x.name === ordering[0].field);
  if (!f || !(f.kind === 'ip' || f.kind === 'prefix') || f.netRole === 'host') return false;
  return (
    ordering.length === 1 ||
    (ordering[1].field === netPartField(def, 'length') && ordering[1].desc === ordering[0].desc)
  );
}

/**
 * The page read off the containment index's sorted order: mark the matched slots, walk the index
 * and stop once the page is full. Rows with the same (network, length) are ordered by id, as the
 * comparator would. Cost ~ page × (table / matched) instead of ~ matched.
 */
function pageInIndexOrder(
  slots: readonly number[],
  table: IndexedTable,
  desc: boolean,
  offset: number,
  limit: number,
): number[] {
  const member = new Uint8Array(table.slotCapacity);
  let v6 = 0;
  const idx = table.netIndex!;
  for (const s of slots) {
    member[s] = 1;
    if (idx.familyOf(s) === 6) v6++;
  }
  // A family without matches is not walked (family=6 need not pass every IPv4 entry).
  const families: Family[] = v6 === 0 ? [4] : v6 === slots.length ? [6] : [4, 6];
  return pageByWalk(table, (s) => member[s] === 1, slots.length, families, desc, offset, limit)!;
}

/**
 * Walks the containment index in order, keeping the `total` rows that `has` accepts, until the
 * page is full; null once it has visited `maxVisits` entries without filling it.
 */
function pageByWalk(
  table: IndexedTable,
  has: (slot: number) => boolean,
  total: number,
  families: readonly Family[],
  desc: boolean,
  offset: number,
  limit: number,
  maxVisits = Infinity,
): number[] | null {
  const want = offset + limit;
  let left = total,
    visits = 0;
  const out: number[] = [];
  let run: number[] = [];
  const endRun = () => {
    if (run.length > 1) run.sort(byId(table));
    for (const s of run) out.push(s);
    run = [];
  };
  let complete = true;
  table.netIndex!.walk(
    desc,
    (slot, newKey) => {
      if (newKey) {
        endRun();
        if (out.length >= want || left === 0) return false;
      }
      if (++visits > maxVisits) {
        complete = false;
        return false;
      }
      if (has(slot)) {
        run.push(slot);
        left--;
      }
      return true;
    },
    families,
  );
  if (!complete) return null;
  endRun();
  return out.slice(offset, want);
}

/**
 * The page of slots that are already in the index's (network, length) order (a containment range
 * filtered in place): take it from the front (or the back when descending); only rows with equal
 * keys need sorting, by id.
 */
function* pageOfSorted(
  slots: readonly number[],
  table: IndexedTable,
  desc: boolean,
  offset: number,
  limit: number,
): Steps<number[]> {
  const want = offset + limit,
    n = slots.length;
  const at = (i: number) => slots[desc ? n - 1 - i : i];
  const out: number[] = [];
  for (let i = 0; i < n && out.length < want;) {
    let j = i + 1;
    while (j < n && table.sameNetwork(at(j), at(i))) j++;
    const run: number[] = [];
    for (let k = i; k < j; k++) run.push(at(k));
    if (run.length > 1) run.sort(byId(table));
    out.push(...run);
    if (Math.floor(i / STEP_ROWS) !== Math.floor(j / STEP_ROWS)) yield;
    i = j;
  }
  return out.slice(offset, want);
}

/** Is walking the index (~ want × n / m entries) cheaper than selecting from all m matches? */
function walkPays(
  table: IndexedTable,
  def: ResourceDef,
  ordering: readonly OrderKey[],
  m: number,
  want: number,
): boolean {
  return m > 1000 && m * m > 4 * want * table.size && indexOrdered(table, def, ordering);
}

/**
 * The page of a broad exact answer known by its size and a membership test (no list of its
 * matches), read off the containment index; null when the ordering or the size do not suit it,
 * or when the matches lie bunched away from the walk's start (`family=6` behind every IPv4
 * entry): the walk gives up after several times the visits an even spread would need.
 */
export function pageByMembership(
  table: IndexedTable,
  def: ResourceDef,
  ordering: readonly OrderKey[],
  size: number,
  has: (slot: number) => boolean,
  offset: number,
  limit: number,
  families: readonly Family[] = [4, 6],
): number[] | null {
  if (offset >= size || limit <= 0) return [];
  const want = Math.min(size, offset + limit);
  if (!walkPays(table, def, ordering, size, want)) return null;
  return pageByWalk(
    table,
    has,
    size,
    families,
    ordering[0].desc,
    offset,
    limit,
    Math.max(4096, (8 * want * table.size) / size),
  );
}

/** How a page was taken, for explain: what each path does, in words. */
export const PAGE_PATHS = {
  empty: 'none: the page starts past the last match',
  range: 'read in order off the containment range that answered the filter; only equal networks sorted by id',
  walk: 'a walk of the containment index in network order, keeping the matches (cheaper than sorting this many)',
  heap: 'a bounded heap over every match, keeping offset + limit of them',
  membership:
    'a walk of the containment index in network order, testing each row against the index that answered ' +
    'exactly (no list of matches built)',
  ids: 'a walk of the table in id order from the lower id bound, testing each row, until the page is full (no count)',
} as const;
export type PagePath = keyof typeof PAGE_PATHS;
/** Where a page path is reported (explain); evaluation passes none. */
export interface PageTrace {
  path?: PagePath;
}

/**
 * Slots of rows [offset, offset + limit) in the requested order. `inIndexOrder`: the slots come
 * in the containment index's ascending (network, length) order.
 */
export function orderedPage(
  slots: readonly number[],
  table: IndexedTable,
  def: ResourceDef,
  ordering: readonly OrderKey[],
  offset: number,
  limit: number,
  inIndexOrder = false,
): number[] {
  return runSteps(orderedPageSteps(slots, table, def, ordering, offset, limit, inIndexOrder));
}

/** orderedPage, pausing every STEP_ROWS rows. */
export function* orderedPageSteps(
  slots: readonly number[],
  table: IndexedTable,
  def: ResourceDef,
  ordering: readonly OrderKey[],
  offset: number,
  limit: number,
  inIndexOrder = false,
  trace: PageTrace = {},
): Steps<number[]> {
  if (offset >= slots.length || limit <= 0) {
    trace.path = 'empty';
    return [];
  }
  if (inIndexOrder && indexOrdered(table, def, ordering)) {
    trace.path = 'range';
    return yield* pageOfSorted(slots, table, ordering[0].desc, offset, limit);
  }
  // Broad results in network order: walking the index (~ want × n / m) beats selecting from all m
  // matched rows once m² > want × n.
  const m = slots.length,
    want = Math.min(m, offset + limit);
  if (walkPays(table, def, ordering, m, want)) {
    trace.path = 'walk';
    return pageInIndexOrder(slots, table, ordering[0].desc, offset, limit);
  }
  trace.path = 'heap';
  const cmp = yield* positionComparator(slots, table, def, ordering);
  return (yield* firstN(slots.length, Math.min(slots.length, offset + limit), cmp)).slice(offset).map((i) => slots[i]);
}
