// Compiles a plan into a row predicate over one IndexedTable. References (foreign keys, tags)
// are resolved once per evaluation, not per row.
import type { CfNode, CmpNode, NetNode, Plan, Scalar } from '../plan/nodes.js';
import { assertNever } from '../plan/nodes.js';
import { compileRegex } from '../text/regex.js';
import type { IndexedTable, NetKey } from './indexed-table.js';
import type { Resolver } from './resolve.js';

export type SlotPredicate = (slot: number) => boolean;

type ValueTest = (v: unknown) => boolean;

function lower(x: Scalar): Scalar { return typeof x === 'string' ? x.toLowerCase() : x; }

/** A test on one value for a cmp/cf op; false for null or missing values. */
export function valueTest(op: CmpNode['op'] | CfNode['op'], ci: boolean, values: readonly Scalar[], valueType: string): ValueTest {
  const vals = ci ? values.map(lower) : values;
  const norm = ci ? (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v) : (v: unknown) => v;
  const comparable = valueType === 'number' ? (v: unknown) => typeof v === 'number' : (v: unknown) => typeof v === 'string';
  switch (op) {
    case 'eq': {
      if (vals.length === 1) { const x = vals[0]; return (v) => v !== null && v !== undefined && norm(v) === x; }
      const set = new Set<unknown>(vals);
      return (v) => v !== null && v !== undefined && set.has(norm(v));
    }
    case 'has': return (v) => Array.isArray(v) && v.some((e) => vals.includes(e));
    case 'lt': return (v) => comparable(v) && vals.some((x) => (v as Scalar) < x);
    case 'lte': return (v) => comparable(v) && vals.some((x) => (v as Scalar) <= x);
    case 'gt': return (v) => comparable(v) && vals.some((x) => (v as Scalar) > x);
    case 'gte': return (v) => comparable(v) && vals.some((x) => (v as Scalar) >= x);
    case 'contains': return (v) => typeof v === 'string' && vals.some((x) => (norm(v) as string).includes(x as string));
    case 'startswith': return (v) => typeof v === 'string' && vals.some((x) => (norm(v) as string).startsWith(x as string));
    case 'endswith': return (v) => typeof v === 'string' && vals.some((x) => (norm(v) as string).endsWith(x as string));
    case 'regex': {
      // Patterns were validated by the planner; case folding is the engine's flag, not lower-casing.
      const res = values.map((p) => compileRegex(String(p), ci)).filter((r) => typeof r !== 'string') as { test(s: string): boolean }[];
      return (v) => typeof v === 'string' && res.some((r) => r.test(v));
    }
    default: return assertNever(op);
  }
}

/** Does the row's network key satisfy the net node? Same family always required. */
export function netTest(n: NetNode): (k: NetKey | undefined) => boolean {
  const { family, network, broadcast, length } = n;
  switch (n.op) {
    case 'equal': return (k) => !!k && k.family === family && (n.field === 'host' ? k.host : k.network) === network && k.length === length;
    case 'addr_eq': return (k) => !!k && k.family === family && (n.field === 'host' ? k.host : k.network) === network;
    case 'addr_in': return (k) => { if (!k || k.family !== family) return false; const a = n.field === 'host' ? k.host : k.network; return a >= network && a <= broadcast; };
    case 'contained': return (k) => !!k && k.family === family && k.length > length && k.network >= network && k.network <= broadcast;
    case 'contained_or_equal': return (k) => !!k && k.family === family && k.length >= length && k.network >= network && k.network <= broadcast;
    case 'contains': return (k) => !!k && k.family === family && k.length < length && k.network <= network && k.broadcast >= broadcast;
    case 'contains_or_equal': return (k) => !!k && k.family === family && k.length <= length && k.network <= network && k.broadcast >= broadcast;
    default: return assertNever(n.op);
  }
}

export function compilePredicate(plan: Plan, table: IndexedTable, resolver: Resolver): SlotPredicate {
  const rowOf = (s: number) => table.row(s)!;
  switch (plan.kind) {
    case 'const': { const v = plan.value; return () => v; }
    case 'and': { const ps = plan.children.map((c) => compilePredicate(c, table, resolver)); return (s) => ps.every((p) => p(s)); }
    case 'or': { const ps = plan.children.map((c) => compilePredicate(c, table, resolver)); return (s) => ps.some((p) => p(s)); }
    case 'not': { const p = compilePredicate(plan.child, table, resolver); return (s) => !p(s); }
    case 'cmp': {
      // Equality on an indexed field: membership in the index's slot sets, no row read (rows are
      // scattered over a large heap; each read is a cache miss).
      if (plan.op === 'eq' && (!plan.ci || plan.valueType === 'string')) {
        const e = table.fieldEquality(plan.field, plan.ci, plan.values);
        if (e) return e.idx.testerOfAny(e.keys);
      }
      const t = valueTest(plan.op, plan.ci, plan.values, plan.valueType);
      const f = plan.field;
      return (s) => t(rowOf(s)[f]);
    }
    case 'null': { const f = plan.field; return (s) => { const v = rowOf(s)[f]; return v === null || v === undefined; }; }
    case 'fk': { const ids = resolver.fkIds(plan); const f = plan.field; return (s) => ids.has(rowOf(s)[f] as string); }
    case 'tag': {
      // Membership in the tag index: no string compares over the row's tags.
      const id = resolver.tagId(plan.ref);
      return id === null || !table.tags ? () => false : table.tags.tester(id);
    }
    case 'net': { const t = netTest(plan); return (s) => t(table.netKeys[s]); }
    case 'cf': {
      const t = valueTest(plan.op, plan.ci, plan.values, plan.valueType);
      const name = plan.name;
      return (s) => { const cfs = rowOf(s).custom_fields as Record<string, unknown> | undefined; return !!cfs && t(cfs[name]); };
    }
    default: return assertNever(plan);
  }
}
