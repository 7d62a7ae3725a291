// Network filter terms -> net plan nodes, with PostgreSQL inet semantics and no cross-family match.
import { broadcastOf, maxLength, networkOf, parseCidr, type Cidr } from '../net/ip.js';
import type { NetLookup } from '../filters/lookups.js';
import { MSG } from '../schema/messages.js';
import { net, or, type NetOp, type Plan } from './nodes.js';

export interface NetValue {
  readonly cidr: Cidr;
  readonly bare: boolean;
}

export function parseNetValue(raw: string): NetValue | string {
  const cidr = parseCidr(raw.trim());
  return cidr ? { cidr, bare: !raw.includes('/') } : MSG.ipOrNet(raw);
}

type Field = 'network' | 'host';

/** The block a value names, host bits ignored. */
function block(field: Field, op: NetOp, v: Cidr): Plan {
  const network = networkOf(v.family, v.host, v.length);
  return net(field, op, v.family, network, broadcastOf(v.family, v.host, v.length), v.length);
}

/** One address, exact (length = 32/128). */
function address(field: Field, op: NetOp, v: Cidr): Plan {
  const len = maxLength(v.family);
  return net(field, op, v.family, v.host, v.host, len);
}

/** One value of a network lookup as a plan (several values are OR-ed by the caller). */
export function netValuePlan(field: Field, lookup: NetLookup, v: NetValue): Plan {
  const c = v.cidr;
  switch (lookup) {
    case 'base':
      if (field === 'network') return v.bare ? address(field, 'addr_eq', c) : block(field, 'equal', c);
      return v.bare ? address(field, 'addr_eq', c) : net(field, 'equal', c.family, c.host, c.host, c.length);
    case 'exact':
    case 'iexact':
      return address(field, 'addr_eq', c);
    case 'net_equals':
      return field === 'network' ? block(field, 'equal', c) : net(field, 'equal', c.family, c.host, c.host, c.length);
    case 'net_contained':
      return block(field, 'contained', c);
    case 'net_contained_or_equal':
      return block(field, 'contained_or_equal', c);
    case 'net_contains':
      return block(field, 'contains', c);
    case 'net_contains_or_equals':
      return block(field, 'contains_or_equal', c);
    case 'net_host':
      return field === 'network' ? address(field, 'contains_or_equal', c) : address(field, 'addr_eq', c);
    case 'net_host_contained':
    case 'net_in':
      return block(field, 'addr_in', c);
    case 'contains_any':
      return v.bare ? address(field, 'contains_or_equal', c) : block(field, 'contains_or_equal', c);
    case 'child_of':
      return block(field, 'child_of', c);
  }
}

export function netPlan(field: Field, lookup: NetLookup, values: readonly NetValue[]): Plan {
  return or(values.map((v) => netValuePlan(field, lookup, v)));
}
