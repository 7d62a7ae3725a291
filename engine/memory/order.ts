// Ordering of result rows: stable across backends. Nulls sort last ascending (first descending),
// strings by code unit, addresses numerically, ties broken by id. Sort keys are computed once per
// row, and only the rows of the requested page are fully ordered (a bounded heap selects them).
import type { FieldDef, ResourceDef } from '../schema/types.js';
import type { IndexedTable } from './indexed-table.js';

export interface OrderKey { readonly field: string; readonly desc: boolean }

type Key = string | number | boolean | null;

function keyFn(table: IndexedTable, f: FieldDef): (slot: number) => Key {
  switch (f.kind) {
    // Addresses order by family, then address, then length: a numeric order, not text order.
    case 'ip': case 'prefix': case 'address': {
      const useHost = f.netRole === 'host' || f.kind === 'address';
      return (s) => { const k = table.netKeys[s]; return k ? `${k.family}${useHost ? k.host : k.network}${String(k.length).padStart(3, '0')}` : null; };
    }
    default: return (s) => { const v = table.row(s)![f.name]; return v === undefined || v === null ? null : (v as Key); };
  }
}

interface Item { readonly slot: number; readonly keys: Key[]; readonly id: string }

function comparator(desc: readonly boolean[]): (a: Item, b: Item) => number {
  return (a, b) => {
    for (let i = 0; i < desc.length; i++) {
      const x = a.keys[i], y = b.keys[i];
      if (x === y) continue;
      const c = x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
      return desc[i] ? -c : c;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

/** The first `count` items in order, without sorting everything when count is small. */
function firstN(items: Item[], count: number, cmp: (a: Item, b: Item) => number): Item[] {
  if (items.length <= count * 4) return items.sort(cmp).slice(0, count);
  // Max-heap of the best `count` seen so far: O(n log count).
  const heap: Item[] = [];
  const up = (i: number) => { while (i > 0) { const p = (i - 1) >> 1; if (cmp(heap[i], heap[p]) <= 0) break; [heap[i], heap[p]] = [heap[p], heap[i]]; i = p; } };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < heap.length && cmp(heap[l], heap[m]) > 0) m = l;
      if (r < heap.length && cmp(heap[r], heap[m]) > 0) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (const it of items) {
    if (heap.length < count) { heap.push(it); up(heap.length - 1); }
    else if (count > 0 && cmp(it, heap[0]) < 0) { heap[0] = it; down(0); }
  }
  return heap.sort(cmp);
}

/** Slots of rows [offset, offset + limit) in the requested order. */
export function orderedPage(slots: readonly number[], table: IndexedTable, def: ResourceDef, ordering: readonly OrderKey[], offset: number, limit: number): number[] {
  if (offset >= slots.length || limit <= 0) return [];
  const fns = ordering.map((o) => keyFn(table, def.fields.find((f) => f.name === o.field)!));
  const items: Item[] = slots.map((slot) => ({ slot, keys: fns.map((fn) => fn(slot)), id: table.row(slot)!.id }));
  const cmp = comparator(ordering.map((o) => o.desc));
  return firstN(items, Math.min(slots.length, offset + limit), cmp).slice(offset).map((i) => i.slot);
}
