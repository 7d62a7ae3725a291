// Compiles a plan into a row predicate over one IndexedTable. References (foreign keys, tags)
// are resolved once per evaluation, not per row.
import type { CfNode, CmpNode, Plan, Scalar } from '../plan/nodes.js';
import { assertNever } from '../plan/nodes.js';
import { compileRegex } from '../text/regex.js';
import type { IndexedTable } from './indexed-table.js';
import type { Resolver } from './resolve.js';

export type SlotPredicate = (slot: number) => boolean;

type IdRangeOp = 'lt' | 'lte' | 'gt' | 'gte';
const ID_RANGE_OPS: ReadonlySet<string> = new Set<IdRangeOp>(['lt', 'lte', 'gt', 'gte']);

/**
 * `id <op> <text>` (a cursor page's `start`), which the id column answers on its words; null for
 * any other node. Only for text bounds: a number bound matches no id (valueTest), as on SQL.
 */
export function idRange(plan: Plan): { op: IdRangeOp; value: Scalar } | null {
  return plan.kind === 'cmp' &&
    plan.field === 'id' &&
    !plan.ci &&
    plan.valueType === 'string' &&
    plan.values.length === 1 &&
    ID_RANGE_OPS.has(plan.op)
    ? { op: plan.op as IdRangeOp, value: plan.values[0] }
    : null;
}

/**
 * A range on an integer store's ids with any text bounds: each bound an integer compares as a number,
 * any other text as text, as the id column orders them (and as SQL compares a bigint id column); null
 * for any other node. A `number`-typed node on ids matches nothing (valueTest: ids are text), as on SQL.
 */
function integerIdRanges(plan: Plan, table: IndexedTable): ((slot: number) => boolean) | null {
  if (plan.kind !== 'cmp' || plan.field !== 'id' || plan.ci || plan.valueType !== 'string') return null;
  if (table.idStyle.name !== 'integer') return null;
  if (!ID_RANGE_OPS.has(plan.op) || !plan.values.every((v) => typeof v === 'string')) return null;
  const read = table.reader('id');
  const tests = plan.values.map((v) => {
    const byNumber = table.idRangeTester(plan.op as IdRangeOp, v);
    if (byNumber) return byNumber;
    const t = valueTest(plan.op, false, [v], 'string');
    return (s: number) => t(read(s));
  });
  return (s) => tests.some((t) => t(s));
}

type ValueTest = (v: unknown) => boolean;

function lower(x: Scalar): Scalar {
  return typeof x === 'string' ? x.toLowerCase() : x;
}

/** A test on one value for a cmp/cf op; false for null or missing values. */
export function valueTest(
  op: CmpNode['op'] | CfNode['op'],
  ci: boolean,
  values: readonly Scalar[],
  valueType: string,
): ValueTest {
  const vals = ci ? values.map(lower) : values;
  const norm = ci ? (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v) : (v: unknown) => v;
  const comparable =
    valueType === 'number' ? (v: unknown) => typeof v === 'number' : (v: unknown) => typeof v === 'string';
  switch (op) {
    case 'eq': {
      if (vals.length === 1) {
        const x = vals[0];
        return (v) => v !== null && v !== undefined && norm(v) === x;
      }
      const set = new Set<unknown>(vals);
      return (v) => v !== null && v !== undefined && set.has(norm(v));
    }
    case 'has':
      return (v) => Array.isArray(v) && v.some((e) => vals.includes(e));
    case 'present':
      return (v) => v !== null && v !== undefined;
    case 'lt':
      return (v) => comparable(v) && vals.some((x) => (v as Scalar) < x);
    case 'lte':
      return (v) => comparable(v) && vals.some((x) => (v as Scalar) <= x);
    case 'gt':
      return (v) => comparable(v) && vals.some((x) => (v as Scalar) > x);
    case 'gte':
      return (v) => comparable(v) && vals.some((x) => (v as Scalar) >= x);
    case 'contains':
      return (v) => typeof v === 'string' && vals.some((x) => (norm(v) as string).includes(x as string));
    case 'startswith':
      return (v) => typeof v === 'string' && vals.some((x) => (norm(v) as string).startsWith(x as string));
    case 'endswith':
      return (v) => typeof v === 'string' && vals.some((x) => (norm(v) as string).endsWith(x as string));
    case 'regex': {
      // Patterns were validated by the planner; case folding is the engine's flag, not lower-casing.
      const res = values.map((p) => compileRegex(String(p), ci)).filter((r) => typeof r !== 'string') as {
        test(s: string): boolean;
      }[];
      return (v) => typeof v === 'string' && res.some((r) => r.test(v));
    }
    default:
      return assertNever(op);
  }
}

export function compilePredicate(plan: Plan, table: IndexedTable, resolver: Resolver): SlotPredicate {
  switch (plan.kind) {
    case 'const': {
      const v = plan.value;
      return () => v;
    }
    case 'and': {
      const ps = plan.children.map((c) => compilePredicate(c, table, resolver));
      return (s) => ps.every((p) => p(s));
    }
    case 'or': {
      const ps = plan.children.map((c) => compilePredicate(c, table, resolver));
      return (s) => ps.some((p) => p(s));
    }
    case 'not': {
      const p = compilePredicate(plan.child, table, resolver);
      return (s) => !p(s);
    }
    case 'cmp': {
      // Equality on an indexed field: membership in the index's slot sets, no row read (rows are
      // scattered over a large heap; each read is a cache miss).
      if (plan.op === 'eq' && (!plan.ci || plan.valueType === 'string')) {
        const e = table.fieldEquality(plan.field, plan.ci, plan.values);
        if (e) return e.idx.testerOfAny(e.keys);
      }
      // A range on ids: words compared, no id text made per row.
      const ids = idRange(plan);
      const byWords = ids && table.idRangeTester(ids.op, ids.value);
      if (byWords) return byWords;
      const integerIds = integerIdRanges(plan, table);
      if (integerIds) return integerIds;
      const t = valueTest(plan.op, plan.ci, plan.values, plan.valueType);
      const read = table.reader(plan.field);
      return (s) => t(read(s));
    }
    case 'null': {
      const read = table.reader(plan.field);
      return (s) => {
        const v = read(s);
        return v === null || v === undefined;
      };
    }
    case 'fk':
    case 'via': {
      const ids = resolver.refIds(plan);
      const read = table.reader(plan.field);
      return (s) => ids.has(read(s) as string);
    }
    case 'tag': {
      // Membership in the tag index: no string compares over the row's tags.
      const id = resolver.tagId(plan.ref);
      return id === null || !table.tags ? () => false : table.tags.tester(id);
    }
    case 'net':
      return table.netMatcher(plan);
    case 'cf': {
      const t = valueTest(plan.op, plan.ci, plan.values, plan.valueType);
      const name = plan.name,
        read = table.reader('custom_fields');
      return (s) => {
        const cfs = read(s) as Record<string, unknown> | undefined;
        return !!cfs && t(cfs[name]);
      };
    }
    default:
      return assertNever(plan);
  }
}
