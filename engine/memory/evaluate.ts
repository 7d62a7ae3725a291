// The memory evaluator: candidates from the most selective index, then the full predicate.
import type { Plan } from '../plan/nodes.js';
import type { IndexedTable, Row } from './indexed-table.js';
import { candidatesFor, type CandidateTrace } from './candidates.js';
import { describe } from '../plan/describe.js';
import { compilePredicate } from './predicate.js';
import { sortSlots, type OrderKey } from './order.js';
import { Resolver, type TableSource } from './resolve.js';

export interface PageRequest { readonly limit: number; readonly offset: number; readonly ordering: readonly OrderKey[] }

export interface MemoryExplain {
  readonly plan: string;
  readonly strategy: string;
  readonly candidates: number;
  readonly matched: number;
  readonly predicates: readonly CandidateTrace[];
}

function matchSlots(table: IndexedTable, plan: Plan, tables: TableSource, trace: CandidateTrace[]): { slots: number[]; strategy: string; candidates: number } {
  const resolver = new Resolver(tables);
  const cand = candidatesFor(plan, table, resolver, trace);
  const pred = compilePredicate(plan, table, resolver);
  const out: number[] = [];
  const source = cand ? cand.slots : table.slots();
  for (const s of source) if (pred(s)) out.push(s);
  return { slots: out, strategy: cand ? cand.index : 'scan', candidates: cand ? cand.size : table.size };
}

export function evaluate(table: IndexedTable, plan: Plan, page: PageRequest, tables: TableSource): { count: number; rows: Row[] } {
  const { slots } = matchSlots(table, plan, tables, []);
  sortSlots(slots, table, table.def, page.ordering);
  return { count: slots.length, rows: slots.slice(page.offset, page.offset + page.limit).map((s) => table.row(s)!) };
}

export function explain(table: IndexedTable, plan: Plan, tables: TableSource): MemoryExplain {
  const trace: CandidateTrace[] = [];
  const r = matchSlots(table, plan, tables, trace);
  return { plan: describe(plan), strategy: r.strategy, candidates: r.candidates, matched: r.slots.length, predicates: trace };
}
