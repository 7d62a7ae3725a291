// The lookups of NetBox's object-permission constraints: Django's names (`status__in`,
// `name__istartswith`, `prefix__net_contained`) and what each does, as rows of one table. A path's
// end (constraint-paths.ts) has a value class; a lookup applies where its row lists that class.
// docs/permission-constraints.md lists this table (checked by a test).
import type { NetLookup } from '../filters/lookups.js';
import type { CmpOp } from '../filters/ops.js';

/**
 * What a path ends on. text: strings, slugs, choices, MAC addresses (and a prefix's or an address's
 * text); number, datetime, boolean: those fields; id: the object's own id; ref: a foreign key (its id);
 * net: a prefix's or an address's network; tag: a tag's slug or id; list: a multi-select custom field.
 */
export type ValueClass = 'text' | 'number' | 'datetime' | 'boolean' | 'id' | 'ref' | 'net' | 'tag' | 'list';

export type ConstraintLookup =
  /** The field compared with the value; `list`: the value is a list, any of its items. */
  | {
      readonly does: 'cmp';
      readonly op: CmpOp;
      readonly ci: boolean;
      readonly list: boolean;
      readonly on: readonly ValueClass[];
      readonly doc: string;
    }
  /** `[low, high]`, both included. */
  | { readonly does: 'range'; readonly on: readonly ValueClass[]; readonly doc: string }
  /** true: no value (null, or through a null reference on the way); false: a value. */
  | { readonly does: 'isnull'; readonly on: readonly ValueClass[]; readonly doc: string }
  /** NetBox's `empty`: true, the empty text; false, a non-empty text. */
  | { readonly does: 'empty'; readonly on: readonly ValueClass[]; readonly doc: string }
  /** A network lookup (engine/plan/net-terms.ts), per value; `list`: a list of values, any of them. */
  | {
      readonly does: 'net';
      readonly op: NetLookup;
      readonly list: boolean;
      readonly on: readonly ValueClass[];
      readonly doc: string;
    };

// A network field takes `exact`, `in` (network and mask) and the text lookups (its text) too.
const EQ_ON: readonly ValueClass[] = ['text', 'number', 'datetime', 'boolean', 'id', 'ref', 'tag', 'net'];
const TEXT_ON: readonly ValueClass[] = ['text', 'net'];
const ORDER_ON: readonly ValueClass[] = ['number', 'datetime'];
const ALL_ON: readonly ValueClass[] = ['text', 'number', 'datetime', 'boolean', 'id', 'ref', 'net', 'list'];

const text = (op: CmpOp, ci: boolean, doc: string): ConstraintLookup => ({
  does: 'cmp',
  op,
  ci,
  list: false,
  on: TEXT_ON,
  doc,
});
const order = (op: CmpOp, doc: string): ConstraintLookup => ({
  does: 'cmp',
  op,
  ci: false,
  list: false,
  on: ORDER_ON,
  doc,
});
const network = (op: NetLookup, doc: string, list = false): ConstraintLookup => ({
  does: 'net',
  op,
  list,
  on: ['net'],
  doc,
});

/** The lookup a pair without one runs as (`site__slug: "ams1"`). */
export const IMPLICIT_LOOKUP = 'exact';

/** Every lookup a constraint may name, by Django's name. */
export const CONSTRAINT_LOOKUPS: Readonly<Record<string, ConstraintLookup>> = {
  exact: { does: 'cmp', op: 'eq', ci: false, list: false, on: EQ_ON, doc: 'equals (the implicit lookup)' },
  iexact: text('eq', true, 'equals, case-insensitive'),
  in: { does: 'cmp', op: 'eq', ci: false, list: true, on: EQ_ON, doc: 'equals any item of a list (`[]`: nothing)' },
  // On a multi-select custom field: one of its choices is the value.
  contains: {
    ...text('contains', false, 'contains (a multi-select custom field: holds the choice)'),
    on: ['text', 'net', 'list'],
  },
  icontains: text('contains', true, 'contains, case-insensitive'),
  startswith: text('startswith', false, 'starts with'),
  istartswith: text('startswith', true, 'starts with, case-insensitive'),
  endswith: text('endswith', false, 'ends with'),
  iendswith: text('endswith', true, 'ends with, case-insensitive'),
  regex: text('regex', false, 'matches the regular expression (RE2 syntax, searched anywhere)'),
  iregex: text('regex', true, 'matches the regular expression, case-insensitive'),
  gt: order('gt', 'greater than'),
  gte: order('gte', 'greater than or equal'),
  lt: order('lt', 'less than'),
  lte: order('lte', 'less than or equal'),
  range: { does: 'range', on: ORDER_ON, doc: '`[low, high]`: between, both included' },
  isnull: { does: 'isnull', on: ALL_ON, doc: '`true`: no value (or a null reference on the way); `false`: a value' },
  empty: { does: 'empty', on: ['text'], doc: '`true`: the empty text; `false`: a non-empty text' },
  net_contained: network('net_contained', 'strictly inside the given network'),
  net_contained_or_equal: network('net_contained_or_equal', 'inside or equal to the given network'),
  net_contains: network('net_contains', 'strictly contains the given network'),
  net_contains_or_equals: network('net_contains_or_equals', 'contains or equals the given network'),
  net_host: network('exact', 'the address (without its mask) equals the given address'),
  net_host_contained: network('net_host_contained', 'the address (without its mask) lies in the given network'),
  net_in: network('base', 'a list: with a mask, equal to it; without, the address equals', true),
};

/** How a network field (`prefix`, `address`) answers the lookups that are not network lookups: `exact`
 * and `in` compare network and mask, the text lookups read its text (`10.0.0.0/24`). */
export const NET_EQUAL: NetLookup = 'net_equals';

/** Django's transforms of a network field: the family (4 or 6) and the mask length, then compared as numbers. */
export const NET_TRANSFORMS = { family: 'family', net_mask_length: 'length' } as const;

/** A lookup by user-given name: own entries only (`constructor` is not a lookup). */
export function constraintLookup(name: string): ConstraintLookup | null {
  return Object.prototype.hasOwnProperty.call(CONSTRAINT_LOOKUPS, name) ? CONSTRAINT_LOOKUPS[name] : null;
}
