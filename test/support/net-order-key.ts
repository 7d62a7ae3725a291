// The (family, address, length) order of network rows written out as text from the row's network
// field: the reference the memory store's word comparisons are checked against.
import type { IndexedTable } from '../../engine/memory/indexed-table.js';
import { parseCidr } from '../../engine/net/ip.js';

export function netOrderKey(t: IndexedTable, slot: number, host = false, field = 'prefix'): string | null {
  const v = t.value(slot, field);
  const c = typeof v === 'string' ? parseCidr(v) : null;
  return c ? `${c.family}${host ? c.host : c.network}${String(c.length).padStart(3, '0')}` : null;
}
