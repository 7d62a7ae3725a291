// The lookup catalogue: every `field__lookup` suffix and what it means, as data.
// Filters for each resource are generated from these tables and the schema registry.
import type { CmpOp } from '../plan/nodes.js';

export interface LookupSpec { readonly op: CmpOp; readonly ci: boolean; readonly negate: boolean; readonly doc: string }

export const STRING_LOOKUPS = {
  n: { op: 'eq', ci: false, negate: true, doc: 'not equal (several values: none of them)' },
  ic: { op: 'contains', ci: true, negate: false, doc: 'contains, case-insensitive' },
  nic: { op: 'contains', ci: true, negate: true, doc: 'does not contain, case-insensitive' },
  isw: { op: 'startswith', ci: true, negate: false, doc: 'starts with, case-insensitive' },
  nisw: { op: 'startswith', ci: true, negate: true, doc: 'does not start with, case-insensitive' },
  iew: { op: 'endswith', ci: true, negate: false, doc: 'ends with, case-insensitive' },
  niew: { op: 'endswith', ci: true, negate: true, doc: 'does not end with, case-insensitive' },
  ie: { op: 'eq', ci: true, negate: false, doc: 'equals, case-insensitive' },
  nie: { op: 'eq', ci: true, negate: true, doc: 'does not equal, case-insensitive' },
  re: { op: 'regex', ci: false, negate: false, doc: 'matches the regular expression (RE2, searched anywhere)' },
  nre: { op: 'regex', ci: false, negate: true, doc: 'does not match the regular expression' },
  ire: { op: 'regex', ci: true, negate: false, doc: 'matches the regular expression, case-insensitive' },
  nire: { op: 'regex', ci: true, negate: true, doc: 'does not match the regular expression, case-insensitive' },
} as const satisfies Record<string, LookupSpec>;

export const NUMERIC_LOOKUPS = {
  n: { op: 'eq', ci: false, negate: true, doc: 'not equal (several values: none of them)' },
  lt: { op: 'lt', ci: false, negate: false, doc: 'less than' },
  lte: { op: 'lte', ci: false, negate: false, doc: 'less than or equal' },
  gt: { op: 'gt', ci: false, negate: false, doc: 'greater than' },
  gte: { op: 'gte', ci: false, negate: false, doc: 'greater than or equal' },
} as const satisfies Record<string, LookupSpec>;

export const NEGATION_ONLY = { n: STRING_LOOKUPS.n } as const satisfies Record<string, LookupSpec>;

/** String lookups on the text of an address (`192.168.0.0`): Nautobot's MySQL-only set, here everywhere. */
export const ADDRESS_TEXT_LOOKUPS = {
  startswith: { op: 'startswith', ci: false, negate: false, doc: 'address text starts with' },
  istartswith: { op: 'startswith', ci: true, negate: false, doc: 'address text starts with, case-insensitive' },
  endswith: { op: 'endswith', ci: false, negate: false, doc: 'address text ends with' },
  iendswith: { op: 'endswith', ci: true, negate: false, doc: 'address text ends with, case-insensitive' },
  regex: { op: 'regex', ci: false, negate: false, doc: 'address text matches the regular expression' },
  iregex: { op: 'regex', ci: true, negate: false, doc: 'address text matches the regular expression, case-insensitive' },
} as const satisfies Record<string, LookupSpec>;

/** Network lookups (PostgreSQL inet semantics); meanings in docs/filtering.md. */
export const NET_LOOKUPS = [
  'exact', 'iexact', 'net_equals', 'net_contained', 'net_contained_or_equal', 'net_contains',
  'net_contains_or_equals', 'net_host', 'net_host_contained', 'net_in', 'family',
] as const;
export type NetLookup = (typeof NET_LOOKUPS)[number] | 'base';

export type LookupTable = Readonly<Record<string, LookupSpec>>;

/** A lookup by user-given name: own entries only (`constructor`, `__proto__` are not lookups). */
export function ownLookup(table: LookupTable, name: string): LookupSpec | null {
  return Object.prototype.hasOwnProperty.call(table, name) ? table[name] : null;
}
