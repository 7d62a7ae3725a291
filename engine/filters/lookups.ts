// The lookup catalogue: every `field__lookup` suffix and what it means, as rows of tables. Each
// filter spec (filter-set.ts) carries the table of its lookups, composed from these, and a `base`
// row for its bare name; the planner resolves a parameter's lookup once, in its spec's table, and
// builds the plan from the row (engine/plan/planner.ts). Nothing else checks a lookup's name.
import type { CustomFieldType } from '../schema/types.js';
import type { CmpOp } from './ops.js';

/** A network lookup (engine/plan/net-terms.ts): `base` is a network filter without a lookup,
 * `contains_any` the `contains` convenience filter of prefixes (a CIDR or a bare address). */
export type NetLookup =
  | 'base'
  | 'exact'
  | 'iexact'
  | 'net_equals'
  | 'net_contained'
  | 'net_contained_or_equal'
  | 'net_contains'
  | 'net_contains_or_equals'
  | 'net_host'
  | 'net_host_contained'
  | 'net_in'
  | 'contains_any'
  | 'child_of';

/** What a lookup does with its filter's values. */
export type LookupSpec =
  /** The field compared with the values (any of them); `negate`: the exact complement, so objects
   * without a value are kept. */
  | { readonly does: 'cmp'; readonly op: CmpOp; readonly ci: boolean; readonly negate: boolean; readonly doc: string }
  /** A network lookup on a prefix's network or an address's host. */
  | { readonly does: 'net'; readonly op: NetLookup; readonly doc: string }
  /** The address family of the network field: 4 or 6. */
  | { readonly does: 'family'; readonly doc: string }
  /** Takes booleans. true: the field has no value (null, or a missing custom field); false: it has one. */
  | { readonly does: 'isnull'; readonly doc: string }
  /** Takes booleans. true: no value or `""`; false: a non-empty value. */
  | { readonly does: 'empty'; readonly doc: string };

export type CmpLookup = Extract<LookupSpec, { does: 'cmp' }>;
export type LookupTable = Readonly<Record<string, LookupSpec>>;

/** A bare filter name: equals any of the values. */
export const EXACT = {
  does: 'cmp',
  op: 'eq',
  ci: false,
  negate: false,
  doc: 'equals (several values: any of them)',
} as const satisfies LookupSpec;
/** `q`: contains any of the values, case-insensitive. */
export const SEARCH = {
  does: 'cmp',
  op: 'contains',
  ci: true,
  negate: false,
  doc: 'contains, case-insensitive',
} as const satisfies LookupSpec;

export const STRING_LOOKUPS = {
  n: { does: 'cmp', op: 'eq', ci: false, negate: true, doc: 'not equal (several values: none of them)' },
  ic: { does: 'cmp', op: 'contains', ci: true, negate: false, doc: 'contains, case-insensitive' },
  nic: { does: 'cmp', op: 'contains', ci: true, negate: true, doc: 'does not contain, case-insensitive' },
  isw: { does: 'cmp', op: 'startswith', ci: true, negate: false, doc: 'starts with, case-insensitive' },
  nisw: { does: 'cmp', op: 'startswith', ci: true, negate: true, doc: 'does not start with, case-insensitive' },
  iew: { does: 'cmp', op: 'endswith', ci: true, negate: false, doc: 'ends with, case-insensitive' },
  niew: { does: 'cmp', op: 'endswith', ci: true, negate: true, doc: 'does not end with, case-insensitive' },
  ie: { does: 'cmp', op: 'eq', ci: true, negate: false, doc: 'equals, case-insensitive' },
  nie: { does: 'cmp', op: 'eq', ci: true, negate: true, doc: 'does not equal, case-insensitive' },
  re: {
    does: 'cmp',
    op: 'regex',
    ci: false,
    negate: false,
    doc: 'matches the regular expression (RE2, searched anywhere)',
  },
  nre: { does: 'cmp', op: 'regex', ci: false, negate: true, doc: 'does not match the regular expression' },
  ire: { does: 'cmp', op: 'regex', ci: true, negate: false, doc: 'matches the regular expression, case-insensitive' },
  nire: {
    does: 'cmp',
    op: 'regex',
    ci: true,
    negate: true,
    doc: 'does not match the regular expression, case-insensitive',
  },
  empty: { does: 'empty', doc: '`true`: empty (null or `""`); `false`: a non-empty value' },
} as const satisfies Record<string, LookupSpec>;

export const NUMERIC_LOOKUPS = {
  n: STRING_LOOKUPS.n,
  lt: { does: 'cmp', op: 'lt', ci: false, negate: false, doc: 'less than' },
  lte: { does: 'cmp', op: 'lte', ci: false, negate: false, doc: 'less than or equal' },
  gt: { does: 'cmp', op: 'gt', ci: false, negate: false, doc: 'greater than' },
  gte: { does: 'cmp', op: 'gte', ci: false, negate: false, doc: 'greater than or equal' },
} as const satisfies Record<string, LookupSpec>;

/** Foreign keys, relations, tags and multi-select custom fields. */
export const NEGATION_ONLY = { n: STRING_LOOKUPS.n } as const satisfies Record<string, LookupSpec>;

/** Added to every nullable field and every custom field (Nautobot 2.1). */
export const NULLABLE_LOOKUPS = {
  isnull: { does: 'isnull', doc: '`true`: no value (null); `false`: a value' },
} as const satisfies Record<string, LookupSpec>;

/** String lookups on the text of an address (`192.168.0.0`): Nautobot's MySQL-only set, here everywhere. */
export const ADDRESS_TEXT_LOOKUPS = {
  startswith: { does: 'cmp', op: 'startswith', ci: false, negate: false, doc: 'address text starts with' },
  istartswith: {
    does: 'cmp',
    op: 'startswith',
    ci: true,
    negate: false,
    doc: 'address text starts with, case-insensitive',
  },
  endswith: { does: 'cmp', op: 'endswith', ci: false, negate: false, doc: 'address text ends with' },
  iendswith: { does: 'cmp', op: 'endswith', ci: true, negate: false, doc: 'address text ends with, case-insensitive' },
  regex: { does: 'cmp', op: 'regex', ci: false, negate: false, doc: 'address text matches the regular expression' },
  iregex: {
    does: 'cmp',
    op: 'regex',
    ci: true,
    negate: false,
    doc: 'address text matches the regular expression, case-insensitive',
  },
} as const satisfies Record<string, LookupSpec>;

/** Network lookups (PostgreSQL inet semantics); the meaning on each field in docs/filtering.md. */
export const NETWORK_LOOKUPS = {
  exact: { does: 'net', op: 'exact', doc: 'address equals' },
  iexact: { does: 'net', op: 'iexact', doc: 'address equals' },
  net_equals: { does: 'net', op: 'net_equals', doc: 'same network and length' },
  net_contained: { does: 'net', op: 'net_contained', doc: 'strictly inside the given network' },
  net_contained_or_equal: { does: 'net', op: 'net_contained_or_equal', doc: 'inside or equal to the given network' },
  net_contains: { does: 'net', op: 'net_contains', doc: 'strictly contains the given network' },
  net_contains_or_equals: { does: 'net', op: 'net_contains_or_equals', doc: 'contains or equals the given network' },
  net_host: { does: 'net', op: 'net_host', doc: 'contains (or is) the given IP' },
  net_host_contained: { does: 'net', op: 'net_host_contained', doc: 'address falls inside the given network' },
  net_in: { does: 'net', op: 'net_in', doc: 'address inside any of the given networks' },
  family: { does: 'family', doc: '4 or 6' },
} as const satisfies Record<string, LookupSpec>;

/** The bare network filter, and the base rows of the Nautobot 1.x convenience filters. */
export const NET_BASE = {
  does: 'net',
  op: 'base',
  doc: 'a CIDR: same network (host) and length; a bare address: the address equals',
} as const satisfies LookupSpec;
/** The `parent` filter of prefixes (as Nautobot 2 has it): the direct children of the given prefix
 * (a CIDR here; the API also takes the parent's id and turns it into its CIDR). */
export const NET_CHILD_OF = {
  does: 'net',
  op: 'child_of',
  doc: 'direct children: the given prefix is their nearest strictly containing one',
} as const satisfies LookupSpec;
export const NET_CONTAINS_ANY = {
  does: 'net',
  op: 'contains_any',
  doc: 'a CIDR: contains or equals; a bare IP: contains the host',
} as const satisfies LookupSpec;

/** The names of the network lookups (the address text lookups aside). */
export const NET_LOOKUPS: readonly string[] = Object.keys(NETWORK_LOOKUPS);

/** Custom field lookups by type: every custom field also takes `__isnull`. */
export const CF_LOOKUPS: Readonly<Record<CustomFieldType, LookupTable>> = {
  text: { ...STRING_LOOKUPS, ...NULLABLE_LOOKUPS },
  url: { ...STRING_LOOKUPS, ...NULLABLE_LOOKUPS },
  select: { ...STRING_LOOKUPS, ...NULLABLE_LOOKUPS },
  integer: { ...NUMERIC_LOOKUPS, ...NULLABLE_LOOKUPS },
  date: { ...NUMERIC_LOOKUPS, ...NULLABLE_LOOKUPS },
  'multi-select': { ...NEGATION_ONLY, ...NULLABLE_LOOKUPS },
  boolean: NULLABLE_LOOKUPS,
  json: NULLABLE_LOOKUPS,
};

/** A lookup by user-given name: own entries only (`constructor`, `__proto__` are not lookups). */
export function ownLookup(table: LookupTable, name: string): LookupSpec | null {
  return Object.prototype.hasOwnProperty.call(table, name) ? table[name] : null;
}
