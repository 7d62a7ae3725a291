// ORDER BY as memory's order.ts sorts.
import type { OrderKey } from '../plan/page.js';
import type { Dialect } from './dialect.js';
import type { TableModel } from './table-model.js';
import { ALIAS } from './where-parts.js';

/** ORDER BY terms as memory's order.ts sorts: nulls last ascending, addresses numerically, then id. */
export function orderByTerms(d: Dialect, m: TableModel, ordering: readonly OrderKey[]): string[] {
  const terms: string[] = [];
  // Keys an earlier key already decides are dropped (same order, and the SQL then matches an index):
  // an address key orders by (family, address, length), so length and family are decided, and on a
  // prefix every address field orders alike.
  const decided = new Set<string>();
  for (const k of ordering) {
    const c = m.byField.get(k.field);
    if (!c) throw new Error(`cannot order ${m.table} by unknown field ${k.field}`);
    if (decided.has(k.field)) continue;
    const kind = c.field.kind;
    if (kind === 'ip' || kind === 'prefix' || kind === 'address') {
      for (const e of d.netOrder(m, ALIAS, k.field)) terms.push(d.orderTerm(e, k.desc, false));
      decided.add(k.field);
      for (const other of m.byField.values())
        if (other.field.netPart === 'length' || other.field.netPart === 'family') decided.add(other.field.name);
      const sameKey = m.net?.kind === 'prefix' ? ['prefix', 'network', 'broadcast'] : ['address', 'host'];
      if (sameKey.includes(k.field)) for (const f of sameKey) decided.add(f);
    } else if (c.cls === 'json' || c.cls === 'opaque') {
      continue; // lists and objects have no order (the API never offers them for ordering)
    } else {
      terms.push(d.orderTerm(`${ALIAS}.${d.quote(c.name)}`, k.desc, !c.notNull));
      decided.add(k.field);
      // A unique whole number never ties (the change log's seq): nothing after it decides anything,
      // and ORDER BY seq alone is its index's order (with the id after it, every read sorted the table).
      if (c.field.unique && c.notNull && c.field.kind === 'integer') return terms;
    }
  }
  if (!decided.has('id')) terms.push(d.orderTerm(`${ALIAS}.${d.quote('id')}`, false, false));
  return terms;
}
