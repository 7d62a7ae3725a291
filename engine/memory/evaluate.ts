// The memory evaluator: candidates from the most selective index, then the full predicate.
import type { Plan } from '../plan/nodes.js';
import type { Page } from '../plan/page.js';
import type { Family } from '../net/ip.js';
import type { IndexedTable, Row } from './indexed-table.js';
import { candidatesFor, type Candidates, type CandidateTrace } from './candidates.js';
import { describe } from '../plan/describe.js';
import { compilePredicate, idRange } from './predicate.js';
import { orderedPageSteps, pageByMembership, PAGE_PATHS, type PageTrace } from './order.js';
import { runSteps, STEP_ROWS, type Steps } from './steps.js';
import { firstPassing } from './id-order.js';
import { SlotList } from './scan-order.js';
import { Resolver, type RowMatcher, type TableSource } from './resolve.js';

export { runSteps, STEP_ROWS, type Steps } from './steps.js';

export interface MemoryExplain {
  readonly plan: string;
  readonly strategy: string;
  readonly candidates: number;
  readonly matched: number;
  readonly predicates: readonly CandidateTrace[];
  /** How the requested page is taken from the matches (when a page was given). */
  readonly page?: {
    readonly ordering: string;
    readonly offset: number;
    readonly limit: number;
    readonly method: string;
  };
}

/** The indexes' answer for the whole plan; no filter at all is every row, exactly. */
function planCandidates(
  table: IndexedTable,
  plan: Plan,
  resolver: Resolver,
  trace: CandidateTrace[] | null,
): Candidates | null {
  if (plan.kind === 'const' && plan.value)
    return { slots: table.slots(), size: table.size, index: 'all rows', exact: true, has: () => true };
  return candidatesFor(plan, table, resolver, trace);
}

/**
 * The address families a plan can match: a test of the derived family field (`family=6`), alone
 * or in an and, confines it, and the walk then skips the other family's entries.
 */
function familiesOf(plan: Plan, table: IndexedTable): Family[] {
  if (
    plan.kind === 'cmp' &&
    plan.op === 'eq' &&
    plan.values.every((v) => v === 4 || v === 6) &&
    table.def.fields.find((f) => f.name === plan.field)?.netPart === 'family'
  ) {
    return ([4, 6] as const).filter((f) => plan.values.includes(f));
  }
  if (plan.kind === 'and') {
    let out: Family[] = [4, 6];
    for (const c of plan.children) {
      const fs = familiesOf(c, table);
      out = out.filter((f) => fs.includes(f));
    }
    return out;
  }
  return [4, 6];
}

function* matchSlots(
  table: IndexedTable,
  plan: Plan,
  resolver: Resolver,
  cand: Candidates | null,
): Steps<{ slots: number[]; strategy: string; candidates: number; inIndexOrder: boolean }> {
  const slots: number[] = [];
  return { slots, ...(yield* matchInto(table, plan, resolver, cand, slots)) };
}

/** matchSlots into `out` (an export's scan collects them compactly). */
function* matchInto(
  table: IndexedTable,
  plan: Plan,
  resolver: Resolver,
  cand: Candidates | null,
  out: { push(slot: number): unknown },
): Steps<{ strategy: string; candidates: number; inIndexOrder: boolean }> {
  // The index answered the whole plan exactly: the candidates are the result.
  if (cand?.exact) {
    let k = 0;
    for (const s of cand.slots) {
      out.push(s);
      if (++k === STEP_ROWS) {
        k = 0;
        yield;
      }
    }
    return { strategy: cand.index, candidates: cand.size, inIndexOrder: !!cand.inIndexOrder };
  }
  // The and's child that gave exact candidates needs no second test.
  const rest: Plan =
    cand?.covered && plan.kind === 'and' && plan.children.includes(cand.covered)
      ? { kind: 'and', children: plan.children.filter((c) => c !== cand.covered) }
      : plan;
  const pred = compilePredicate(rest, table, resolver);
  const source = cand ? cand.slots : table.slots();
  let k = 0;
  for (const s of source) {
    if (pred(s)) out.push(s);
    if (++k === STEP_ROWS) {
      k = 0;
      yield;
    }
  }
  // Filtering keeps the candidates' order.
  return {
    strategy: cand ? cand.index : 'scan',
    candidates: cand ? cand.size : table.size,
    inIndexOrder: !!cand?.inIndexOrder,
  };
}

/** Every row of a table that satisfies a plan (a relation's target rows), through its indexes. */
const matchRows: RowMatcher = (table, plan, resolver) =>
  runSteps(matchSlots(table, plan, resolver, planCandidates(table, plan, resolver, null))).slots;

/**
 * Fewer candidates than this from the indexes are sorted as for any page; more, and a cursor page
 * walks the id order.
 */
const ID_WALK_MIN = 2048;

/** The plan's lower bound on ids (a cursor page's `start`), alone or in an and: where an id-order walk begins. */
function lowerIdBound(plan: Plan): ReturnType<typeof idRange> {
  const lower = (p: Plan) => {
    const r = idRange(p);
    return r && (r.op === 'gt' || r.op === 'gte') ? r : null;
  };
  return plan.kind === 'and' ? (plan.children.map(lower).find((r) => r !== null) ?? null) : lower(plan);
}

/**
 * A page in ascending id order with no count wanted (a cursor page): the table's id order is
 * walked from the plan's lower id bound, each row tested, until the page is full; the cost is the
 * page's share of the table, not every match. Null where it does not suit (another ordering, a
 * count wanted, or indexes that leave few candidates, which are cheaper to sort).
 */
function* pageInIdOrder(
  table: IndexedTable,
  plan: Plan,
  page: Page,
  resolver: Resolver,
  cand: Candidates | null,
): Steps<number[] | null> {
  const [key, ...more] = page.ordering;
  if (!key || more.length || key.field !== 'id' || key.desc || (cand && cand.size < ID_WALK_MIN)) return null;
  const test = cand?.exact && cand.has ? cand.has : compilePredicate(plan, table, resolver);
  const order = table.idOrdered();
  const bound = lowerIdBound(plan);
  const atBound = bound ? table.idRangeTester(bound.op, bound.value) : null;
  const want = page.offset + page.limit,
    out: number[] = [];
  for (let i = atBound ? firstPassing(order, atBound) : 0, k = 0; i < order.length && out.length < want; i++) {
    if (test(order[i])) out.push(order[i]);
    if (++k === STEP_ROWS) {
      k = 0;
      yield;
    }
  }
  return out.slice(page.offset);
}

/**
 * The engine's answer: the match count and the slots of the requested page, in order. Rows are
 * built from the columns afterwards, only for the page (evaluateSteps). `noCount`: the caller does
 * not read the count (cursor pages), which is then -1 where the page was found without it.
 */
export function* evaluatePageSteps(
  table: IndexedTable,
  plan: Plan,
  page: Page,
  tables: TableSource,
  useIndexes = true,
  trace: PageTrace = {},
  noCount = false,
): Steps<{ count: number; slots: number[] }> {
  const resolver = new Resolver(tables, matchRows);
  const cand = useIndexes ? planCandidates(table, plan, resolver, null) : null;
  if (noCount && useIndexes) {
    const walked = yield* pageInIdOrder(table, plan, page, resolver, cand);
    if (walked) {
      trace.path = 'ids';
      return { count: -1, slots: walked };
    }
  }
  // A broad exact answer (every row, a common status, a tag) in network order: its size is the
  // count and the page is read off the containment index; no list of matches is built.
  if (cand?.exact && cand.has) {
    const walked = pageByMembership(
      table,
      table.def,
      page.ordering,
      cand.size,
      cand.has,
      page.offset,
      page.limit,
      familiesOf(plan, table),
    );
    if (walked) {
      trace.path = page.offset >= cand.size || page.limit <= 0 ? 'empty' : 'membership';
      return { count: cand.size, slots: walked };
    }
  }
  const { slots, inIndexOrder } = yield* matchSlots(table, plan, resolver, cand);
  return {
    count: slots.length,
    slots: yield* orderedPageSteps(
      slots,
      table,
      table.def,
      page.ordering,
      page.offset,
      page.limit,
      inIndexOrder,
      trace,
    ),
  };
}

/** Every match of the plan (an export's scan orders them itself: scan-order.ts), and whether they come in
 * the containment index's order. */
export function* matchesSteps(
  table: IndexedTable,
  plan: Plan,
  tables: TableSource,
): Steps<{ slots: Uint32Array; inIndexOrder: boolean }> {
  const resolver = new Resolver(tables, matchRows);
  const slots = new SlotList();
  const { inIndexOrder } = yield* matchInto(table, plan, resolver, planCandidates(table, plan, resolver, null), slots);
  return { slots: slots.array(), inIndexOrder };
}

/**
 * What a find is evaluated on: `useIndexes: false` scans every row (the baseline benchmarks compare
 * the indexes with); `noCount` as in evaluatePageSteps.
 */
type EvaluateArgs = [
  table: IndexedTable,
  plan: Plan,
  page: Page,
  tables: TableSource,
  useIndexes?: boolean,
  noCount?: boolean,
];

/** evaluatePageSteps with the page's rows built. */
export function* evaluateSteps(
  ...[table, plan, page, tables, useIndexes = true, noCount = false]: EvaluateArgs
): Steps<{ count: number; rows: Row[] }> {
  const { count, slots } = yield* evaluatePageSteps(table, plan, page, tables, useIndexes, {}, noCount);
  return { count, rows: slots.map((s) => table.row(s)!) };
}

/** The count and the page's slots. */
export function evaluatePage(...[table, plan, page, tables, useIndexes = true, noCount = false]: EvaluateArgs): {
  count: number;
  slots: number[];
} {
  return runSteps(evaluatePageSteps(table, plan, page, tables, useIndexes, {}, noCount));
}

/** The count and the page's rows. */
export function evaluate(...args: EvaluateArgs): { count: number; rows: Row[] } {
  return runSteps(evaluateSteps(...args));
}

export function* explainSteps(table: IndexedTable, plan: Plan, tables: TableSource, page?: Page): Steps<MemoryExplain> {
  const trace: CandidateTrace[] = [];
  const resolver = new Resolver(tables, matchRows);
  const r = yield* matchSlots(table, plan, resolver, planCandidates(table, plan, resolver, trace));
  const out: MemoryExplain = {
    plan: describe(plan),
    strategy: r.strategy,
    candidates: r.candidates,
    matched: r.slots.length,
    predicates: trace,
  };
  if (!page) return out;
  // The page is taken as a find takes it, and the path it went reported.
  const how: PageTrace = {};
  yield* evaluatePageSteps(table, plan, page, tables, true, how);
  const ordering = page.ordering.map((o) => (o.desc ? '-' : '') + o.field).join(',');
  return { ...out, page: { ordering, offset: page.offset, limit: page.limit, method: PAGE_PATHS[how.path ?? 'heap'] } };
}

export function explain(table: IndexedTable, plan: Plan, tables: TableSource, page?: Page): MemoryExplain {
  return runSteps(explainSteps(table, plan, tables, page));
}

/**
 * Whether every one of `ids` is a row of the table that satisfies the plan (a write's permission
 * check, run synchronously inside the write): the predicate alone, no index walk.
 */
export function allMatch(table: IndexedTable, plan: Plan, tables: TableSource, ids: readonly string[]): boolean {
  const test = compilePredicate(plan, table, new Resolver(tables, matchRows));
  return ids.every((id) => {
    const s = table.slotOf(id);
    return s !== undefined && test(s);
  });
}
