// The memory evaluator: candidates from the most selective index, then the full predicate.
import type { Plan } from '../plan/nodes.js';
import type { IndexedTable, Row } from './indexed-table.js';
import { candidatesFor, type CandidateTrace } from './candidates.js';
import { describe } from '../plan/describe.js';
import { compilePredicate } from './predicate.js';
import { orderedPage, type OrderKey } from './order.js';
import { Resolver, type TableSource } from './resolve.js';

export interface PageRequest { readonly limit: number; readonly offset: number; readonly ordering: readonly OrderKey[] }

export interface MemoryExplain {
  readonly plan: string;
  readonly strategy: string;
  readonly candidates: number;
  readonly matched: number;
  readonly predicates: readonly CandidateTrace[];
}

function matchSlots(table: IndexedTable, plan: Plan, tables: TableSource, trace: CandidateTrace[] | null, useIndexes = true): { slots: number[]; strategy: string; candidates: number } {
  const resolver = new Resolver(tables);
  const cand = useIndexes ? candidatesFor(plan, table, resolver, trace) : null;
  const pred = compilePredicate(plan, table, resolver);
  const out: number[] = [];
  const source = cand ? cand.slots : table.slots();
  for (const s of source) if (pred(s)) out.push(s);
  return { slots: out, strategy: cand ? cand.index : 'scan', candidates: cand ? cand.size : table.size };
}

/** `useIndexes: false` scans every row: the baseline benchmarks compare the indexes with. */
export function evaluate(table: IndexedTable, plan: Plan, page: PageRequest, tables: TableSource, useIndexes = true): { count: number; rows: Row[] } {
  const { slots } = matchSlots(table, plan, tables, null, useIndexes);
  const pageSlots = orderedPage(slots, table, table.def, page.ordering, page.offset, page.limit);
  return { count: slots.length, rows: pageSlots.map((s) => table.row(s)!) };
}

export function explain(table: IndexedTable, plan: Plan, tables: TableSource): MemoryExplain {
  const trace: CandidateTrace[] = [];
  const r = matchSlots(table, plan, tables, trace);
  return { plan: describe(plan), strategy: r.strategy, candidates: r.candidates, matched: r.slots.length, predicates: trace };
}
