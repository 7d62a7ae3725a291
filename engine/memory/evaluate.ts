// The memory evaluator: candidates from the most selective index, then the full predicate.
import type { Plan } from '../plan/nodes.js';
import type { IndexedTable, Row } from './indexed-table.js';
import { candidatesFor, type CandidateTrace } from './candidates.js';
import { describe } from '../plan/describe.js';
import { compilePredicate } from './predicate.js';
import { orderedPageSteps, type OrderKey } from './order.js';
import { runSteps, STEP_ROWS, type Steps } from './steps.js';

export { runSteps, STEP_ROWS, type Steps } from './steps.js';
import { Resolver, type TableSource } from './resolve.js';

export interface PageRequest { readonly limit: number; readonly offset: number; readonly ordering: readonly OrderKey[] }

export interface MemoryExplain {
  readonly plan: string;
  readonly strategy: string;
  readonly candidates: number;
  readonly matched: number;
  readonly predicates: readonly CandidateTrace[];
}

function* matchSlots(table: IndexedTable, plan: Plan, tables: TableSource, trace: CandidateTrace[] | null, useIndexes = true): Steps<{ slots: number[]; strategy: string; candidates: number; inIndexOrder: boolean }> {
  const resolver = new Resolver(tables);
  const cand = useIndexes ? candidatesFor(plan, table, resolver, trace) : null;
  const out: number[] = [];
  // The index answered the whole plan exactly: the candidates are the result.
  if (cand?.exact) {
    for (const s of cand.slots) out.push(s);
    return { slots: out, strategy: cand.index, candidates: cand.size, inIndexOrder: !!cand.inIndexOrder };
  }
  // The and's child that gave exact candidates needs no second test.
  const rest: Plan = cand?.covered && plan.kind === 'and' && plan.children.includes(cand.covered)
    ? { kind: 'and', children: plan.children.filter((c) => c !== cand.covered) }
    : plan;
  const pred = compilePredicate(rest, table, resolver);
  const source = cand ? cand.slots : table.slots();
  let k = 0;
  for (const s of source) {
    if (pred(s)) out.push(s);
    if (++k === STEP_ROWS) { k = 0; yield; }
  }
  // Filtering keeps the candidates' order.
  return { slots: out, strategy: cand ? cand.index : 'scan', candidates: cand ? cand.size : table.size, inIndexOrder: !!cand?.inIndexOrder };
}

export function* evaluateSteps(table: IndexedTable, plan: Plan, page: PageRequest, tables: TableSource, useIndexes = true): Steps<{ count: number; rows: Row[] }> {
  const { slots, inIndexOrder } = yield* matchSlots(table, plan, tables, null, useIndexes);
  const pageSlots = yield* orderedPageSteps(slots, table, table.def, page.ordering, page.offset, page.limit, inIndexOrder);
  return { count: slots.length, rows: pageSlots.map((s) => table.row(s)!) };
}

/** `useIndexes: false` scans every row: the baseline benchmarks compare the indexes with. */
export function evaluate(table: IndexedTable, plan: Plan, page: PageRequest, tables: TableSource, useIndexes = true): { count: number; rows: Row[] } {
  return runSteps(evaluateSteps(table, plan, page, tables, useIndexes));
}

export function* explainSteps(table: IndexedTable, plan: Plan, tables: TableSource): Steps<MemoryExplain> {
  const trace: CandidateTrace[] = [];
  const r = yield* matchSlots(table, plan, tables, trace);
  return { plan: describe(plan), strategy: r.strategy, candidates: r.candidates, matched: r.slots.length, predicates: trace };
}

export function explain(table: IndexedTable, plan: Plan, tables: TableSource): MemoryExplain {
  return runSteps(explainSteps(table, plan, tables));
}
