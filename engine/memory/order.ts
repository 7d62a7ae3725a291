// Ordering of result rows: stable across backends. Nulls sort last ascending (first descending),
// strings by code unit, addresses numerically, ties broken by id.
import type { FieldDef, ResourceDef } from '../schema/types.js';
import type { IndexedTable } from './indexed-table.js';

export interface OrderKey { readonly field: string; readonly desc: boolean }

type KeyFn = (slot: number) => string | number | boolean | null;

function keyFn(table: IndexedTable, f: FieldDef): KeyFn {
  switch (f.kind) {
    // Addresses order by family, then address, then length: a numeric order, not text order.
    case 'ip': case 'prefix': case 'address': {
      const useHost = f.netRole === 'host' || f.kind === 'address';
      return (s) => { const k = table.netKeys[s]; return k ? `${k.family}${useHost ? k.host : k.network}${String(k.length).padStart(3, '0')}` : null; };
    }
    default: return (s) => { const v = table.row(s)![f.name]; return v === undefined || v === null ? null : (v as string | number | boolean); };
  }
}

export function sortSlots(slots: number[], table: IndexedTable, def: ResourceDef, ordering: readonly OrderKey[]): number[] {
  const keys = ordering.map((o) => ({ fn: keyFn(table, def.fields.find((f) => f.name === o.field)!), desc: o.desc }));
  const ids = (s: number) => table.row(s)!.id;
  const cmp = (a: number, b: number): number => {
    for (const k of keys) {
      const x = k.fn(a), y = k.fn(b);
      if (x === y) continue;
      let c: number;
      if (x === null) c = 1; else if (y === null) c = -1; else c = x < y ? -1 : 1;
      return k.desc ? -c : c;
    }
    const ia = ids(a), ib = ids(b);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  };
  return slots.sort(cmp);
}
