// A plan tested on one row held outside any table: a change record's copy of an object (its data after
// the change, or before a delete), which no index holds. References are answered by the caller, who read
// them for every row of a page at once (app/change-scope.ts): the target ids a relation's plan keeps,
// the id of a tag reference. Values compare as the memory evaluator compares them (valueTest).
import { parseCidr } from '../net/ip.js';
import { assertNever, type FkNode, type NetNode, type Plan, type ViaNode } from '../plan/nodes.js';
import { valueTest } from './predicate.js';

type Row = Readonly<Record<string, unknown>>;

export interface RowRefs {
  /** Ids of the targets a relation node's plan keeps (of those the rows refer to), or a fk node's ids. */
  ids(n: FkNode | ViaNode): ReadonlySet<string>;
  /** The id of the tag a reference (slug or id) names, or null. */
  tagId(ref: string): string | null;
  /** The field holding the row's prefix or address as text (`prefix`, `address`), if it has one. */
  readonly netSource?: string;
}

/**
 * A network predicate on the row's prefix or address text, as the memory column answers it (same family
 * always required; hex addresses of one family have one length, so text order is address order).
 * `child_of` depends on other rows: false here.
 */
function netMatches(n: NetNode, text: unknown): boolean {
  const c = typeof text === 'string' ? parseCidr(text) : null;
  if (!c || c.family !== n.family || n.op === 'child_of') return false;
  const at = n.field === 'host' ? c.host : c.network;
  const within = (x: string) => x >= n.network && x <= n.broadcast;
  const covers = () => c.network <= n.network && c.broadcast >= n.broadcast;
  switch (n.op) {
    case 'equal':
      return c.length === n.length && at === n.network;
    case 'addr_eq':
      return at === n.network;
    case 'addr_in':
      return within(at);
    case 'contained':
      return c.length > n.length && within(c.network);
    case 'contained_or_equal':
      return c.length >= n.length && within(c.network);
    case 'contains':
      return c.length < n.length && covers();
    case 'contains_or_equal':
      return c.length <= n.length && covers();
    default:
      return assertNever(n.op);
  }
}

/** The relation nodes of a plan a row test answers by refs (not those inside them: the store answers those). */
export function relationNodes(plan: Plan, out: (FkNode | ViaNode)[] = []): (FkNode | ViaNode)[] {
  if (plan.kind === 'via' || plan.kind === 'fk') out.push(plan);
  else if (plan.kind === 'and' || plan.kind === 'or') for (const c of plan.children) relationNodes(c, out);
  else if (plan.kind === 'not') relationNodes(plan.child, out);
  return out;
}

/** Whether `row` satisfies `plan`. */
export function rowMatches(plan: Plan, row: Row, refs: RowRefs): boolean {
  switch (plan.kind) {
    case 'and':
      return plan.children.every((c) => rowMatches(c, row, refs));
    case 'or':
      return plan.children.some((c) => rowMatches(c, row, refs));
    case 'not':
      return !rowMatches(plan.child, row, refs);
    case 'const':
      return plan.value;
    case 'cmp':
      return valueTest(plan.op, plan.ci, plan.values, plan.valueType)(row[plan.field]);
    case 'null':
      return row[plan.field] === null || row[plan.field] === undefined;
    case 'fk':
    case 'via': {
      const v = row[plan.field];
      return v !== null && v !== undefined && refs.ids(plan).has(String(v));
    }
    case 'tag': {
      const id = refs.tagId(plan.ref);
      const tags = row.tags;
      return id !== null && Array.isArray(tags) && tags.includes(id);
    }
    case 'net':
      return refs.netSource !== undefined && netMatches(plan, row[refs.netSource]);
    case 'cf': {
      const cfs = row.custom_fields as Record<string, unknown> | null | undefined;
      return !!cfs && valueTest(plan.op, plan.ci, plan.values, plan.valueType)(cfs[plan.name]);
    }
    default:
      return assertNever(plan);
  }
}
