// The plan: a tagged union of immutable predicate nodes. It is the only thing evaluators
// (memory) and compilers (SQL) see. Semantics are two-valued: a predicate on a null or missing
// value is false, and `not` is the exact complement (so `__n` keeps null foreign keys).
import type { AddrHex, Family } from '../net/ip.js';
import type { CmpOp, ValueType } from '../filters/ops.js';

export type { CmpOp, ValueType } from '../filters/ops.js';
export type Scalar = string | number | boolean;

export interface AndNode {
  readonly kind: 'and';
  readonly children: readonly Plan[];
}
export interface OrNode {
  readonly kind: 'or';
  readonly children: readonly Plan[];
}
export interface NotNode {
  readonly kind: 'not';
  readonly child: Plan;
}
export interface ConstNode {
  readonly kind: 'const';
  readonly value: boolean;
}
/** field <op> any of values (OR). `ci`: case-insensitive. */
export interface CmpNode {
  readonly kind: 'cmp';
  readonly field: string;
  readonly valueType: ValueType;
  readonly op: CmpOp;
  readonly ci: boolean;
  readonly values: readonly Scalar[];
}
/** field is null or absent. */
export interface NullNode {
  readonly kind: 'null';
  readonly field: string;
}
/** Foreign key equals one of the referenced objects (ids or their text reference; `byId`: ids
 * only, as `<fk>_id` filters take them; `refOnly`: text references only, as an integer store's plain
 * reference filter takes them, so that `site=17` never means two things); `tree`: or any descendant. */
export interface FkNode {
  readonly kind: 'fk';
  readonly field: string;
  readonly target: string;
  readonly refs: readonly string[];
  readonly tree: boolean;
  readonly byId: boolean;
  readonly refOnly: boolean;
}
/** Object carries the tag (slug or id). */
export interface TagNode {
  readonly kind: 'tag';
  readonly ref: string;
}
/** `child_of`: prefixes whose nearest strictly containing prefix is the block (its direct children). */
export type NetOp =
  'equal' | 'addr_eq' | 'contained' | 'contained_or_equal' | 'contains' | 'contains_or_equal' | 'addr_in' | 'child_of';
/**
 * Network predicate on a prefix's network (`field: 'network'`) or an address's host (`field: 'host'`).
 * equal: same network (or host) and length. addr_eq: network address (or host) equals `network`.
 * contained*, contains*: on the block (network-of-row, length) against (network, length).
 * addr_in: the network address (or host) lies in [network, broadcast].
 */
export interface NetNode {
  readonly kind: 'net';
  readonly field: 'network' | 'host';
  readonly op: NetOp;
  readonly family: Family;
  readonly network: AddrHex;
  readonly broadcast: AddrHex;
  readonly length: number;
}
/** Custom field predicate. `op: 'has'` is list membership (multi-select); `op: 'present'` (no
 * values) holds for any value. Key must be present and non-null. */
export interface CfNode {
  readonly kind: 'cf';
  readonly name: string;
  readonly valueType: ValueType | 'list';
  readonly op: CmpOp | 'has' | 'present';
  readonly ci: boolean;
  readonly values: readonly Scalar[];
}

/** The row's foreign key `field` names a `target` row that satisfies `plan` (false when the key is
 * null): a filter through a relation, such as the region of a device's site. */
export interface ViaNode {
  readonly kind: 'via';
  readonly field: string;
  readonly target: string;
  readonly plan: Plan;
}

export type Plan =
  AndNode | OrNode | NotNode | ConstNode | CmpNode | NullNode | FkNode | TagNode | NetNode | CfNode | ViaNode;

export const TRUE: ConstNode = Object.freeze({ kind: 'const', value: true });
export const FALSE: ConstNode = Object.freeze({ kind: 'const', value: false });

export function and(children: readonly Plan[]): Plan {
  const flat = children.flatMap((c) => (c.kind === 'and' ? c.children : c.kind === 'const' && c.value ? [] : [c]));
  if (flat.some((c) => c.kind === 'const' && !c.value)) return FALSE;
  return flat.length === 0
    ? TRUE
    : flat.length === 1
      ? flat[0]
      : Object.freeze({ kind: 'and', children: Object.freeze(flat) });
}
export function or(children: readonly Plan[]): Plan {
  const flat = children.flatMap((c) => (c.kind === 'or' ? c.children : c.kind === 'const' && !c.value ? [] : [c]));
  if (flat.some((c) => c.kind === 'const' && c.value)) return TRUE;
  return flat.length === 0
    ? FALSE
    : flat.length === 1
      ? flat[0]
      : Object.freeze({ kind: 'or', children: Object.freeze(flat) });
}
export function not(child: Plan): Plan {
  if (child.kind === 'const') return child.value ? FALSE : TRUE;
  if (child.kind === 'not') return child.child;
  return Object.freeze({ kind: 'not', child });
}
export function cmp(field: string, valueType: ValueType, op: CmpOp, ci: boolean, values: readonly Scalar[]): CmpNode {
  return Object.freeze({ kind: 'cmp', field, valueType, op, ci, values: Object.freeze([...values]) });
}
export function isNull(field: string): NullNode {
  return Object.freeze({ kind: 'null', field });
}
export function fk(
  field: string,
  target: string,
  refs: readonly string[],
  tree: boolean,
  byId = false,
  refOnly = false,
): FkNode {
  return Object.freeze({ kind: 'fk', field, target, refs: Object.freeze([...refs]), tree, byId, refOnly });
}
export function tag(ref: string): TagNode {
  return Object.freeze({ kind: 'tag', ref });
}
export function via(field: string, target: string, plan: Plan): Plan {
  if (plan.kind === 'const' && !plan.value) return plan;
  return Object.freeze({ kind: 'via', field, target, plan });
}
export function net(
  field: 'network' | 'host',
  op: NetOp,
  family: Family,
  network: AddrHex,
  broadcast: AddrHex,
  length: number,
): NetNode {
  return Object.freeze({ kind: 'net', field, op, family, network, broadcast, length });
}
export function cf(
  name: string,
  valueType: CfNode['valueType'],
  op: CfNode['op'],
  ci: boolean,
  values: readonly Scalar[],
): CfNode {
  return Object.freeze({ kind: 'cf', name, valueType, op, ci, values: Object.freeze([...values]) });
}

/** The tag references of a plan, each once. */
export function tagRefs(plan: Plan, out = new Set<string>()): Set<string> {
  switch (plan.kind) {
    case 'tag':
      out.add(plan.ref);
      break;
    case 'and':
    case 'or':
      for (const c of plan.children) tagRefs(c, out);
      break;
    case 'not':
      tagRefs(plan.child, out);
      break;
    case 'via':
      tagRefs(plan.plan, out);
      break;
    default:
      break;
  }
  return out;
}

export function assertNever(x: never): never {
  throw new Error(`unhandled plan node ${JSON.stringify(x)}`);
}
