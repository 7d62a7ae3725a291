// The whole ordered answer of an export's scan, kept compact: the matches' slot numbers in one Uint32Array,
// ordered without a key copied per row (keys are read from the columns as they are compared), handed out a
// chunk at a time. The order is the list's (order.ts): the containment index's own order where the ordering
// is it, else runs sorted by the list's comparison one per step and merged lazily, a chunk per call.
import type { OrderKey } from '../plan/page.js';
import type { ResourceDef } from '../schema/types.js';
import type { IndexedTable } from './indexed-table.js';
import { byId, heapOps, indexOrdered, keyOrder, keySource, SORT_RUN, type Key } from './order.js';
import { STEP_ROWS, type Steps } from './steps.js';

/** The slots of an ordered answer, a chunk at a time. */
export interface SlotCursor {
  /** The next `count` slots in order (fewer at the end, none once every one was taken). */
  take(count: number): number[];
}

/** Slot numbers collected in a Uint32Array that doubles as it fills. */
export class SlotList {
  private a = new Uint32Array(1024);
  private n = 0;
  push(slot: number): void {
    if (this.n === this.a.length) {
      const b = new Uint32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = slot;
  }
  /** The slots pushed (a view, not a copy). */
  array(): Uint32Array {
    return this.a.subarray(0, this.n);
  }
}

/** Slots compared as a list orders them, each key read from its column at each comparison. */
export function slotComparator(
  table: IndexedTable,
  def: ResourceDef,
  ordering: readonly OrderKey[],
): (a: number, b: number) => number {
  const sources = ordering.map((o) =>
    keySource(
      table,
      def.fields.find((f) => f.name === o.field)!,
    ),
  );
  const key = (i: number, s: number) => (sources[i] as { read: (slot: number) => Key }).read(s);
  return keyOrder(table, sources, ordering, key, (s) => s);
}

/**
 * The matches `slots` in the list's order from position `skip` on (sorted in place). `inIndexOrder`: the
 * slots come in the containment index's ascending (network, length) order.
 */
export function* orderedScanSteps(
  slots: Uint32Array,
  inIndexOrder: boolean,
  table: IndexedTable,
  def: ResourceDef,
  ordering: readonly OrderKey[],
  skip: number,
): Steps<SlotCursor> {
  if (!indexOrdered(table, def, ordering)) return yield* mergedOrder(slots, slotComparator(table, def, ordering), skip);
  const desc = ordering[0].desc;
  const order = inIndexOrder ? slots : walkedOrder(slots, table, desc);
  if (inIndexOrder && desc) order.reverse();
  // Rows of one (network, length) are ordered by id, whichever the direction.
  const ids = byId(table);
  for (let i = 0, n = order.length; i < n;) {
    let j = i + 1;
    while (j < n && table.sameNetwork(order[j], order[i])) j++;
    if (j - i > 1) order.subarray(i, j).sort(ids);
    if (Math.floor(i / STEP_ROWS) !== Math.floor(j / STEP_ROWS)) yield;
    i = j;
  }
  return arrayCursor(order, skip);
}

/** The matches in the containment index's order (equal networks not yet ordered by id). */
function walkedOrder(slots: Uint32Array, table: IndexedTable, desc: boolean): Uint32Array {
  const member = new Uint8Array(table.slotCapacity);
  for (const s of slots) member[s] = 1;
  const out = new Uint32Array(slots.length);
  let n = 0;
  table.netIndex!.walk(desc, (slot) => {
    if (member[slot] === 1) out[n++] = slot;
    return n < out.length;
  });
  return out.subarray(0, n);
}

function arrayCursor(order: Uint32Array, from: number): SlotCursor {
  let at = from;
  return {
    take(count) {
      const part = Array.from(order.subarray(at, at + count));
      at += part.length;
      return part;
    },
  };
}

/**
 * Runs of SORT_RUN slots sorted in place, one per step, then merged as chunks are taken: a heap of run
 * numbers whose root holds the least head (the comparison is reversed).
 */
function* mergedOrder(order: Uint32Array, cmp: (a: number, b: number) => number, skip: number): Steps<SlotCursor> {
  const n = order.length;
  for (let start = 0; start < n; start += SORT_RUN) {
    order.subarray(start, Math.min(n, start + SORT_RUN)).sort(cmp);
    yield;
  }
  const runs = Math.ceil(n / SORT_RUN);
  const at = new Uint32Array(runs).map((_, r) => r * SORT_RUN);
  const heap = Array.from({ length: runs }, (_, r) => r);
  const { down } = heapOps(heap, (a, b) => cmp(order[at[b]], order[at[a]]));
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  const next = (): number => {
    const r = heap[0];
    const s = order[at[r]];
    if (++at[r] === Math.min(n, (r + 1) * SORT_RUN)) {
      heap[0] = heap[heap.length - 1];
      heap.pop();
    }
    down(0);
    return s;
  };
  for (let k = 0; k < skip && heap.length; k++) {
    next();
    if ((k + 1) % STEP_ROWS === 0) yield;
  }
  return {
    take(count) {
      const part: number[] = [];
      while (part.length < count && heap.length) part.push(next());
      return part;
    },
  };
}
