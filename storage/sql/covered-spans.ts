// Storage.coveredSpans on SQL: one statement (engine/sql/covered-spans.ts) returns the children
// that start a run of touching or overlapping blocks and the last child; the runs are rebuilt from
// them here. The walk over the children happens in the database, which sends only run boundaries.
import { bigOf, type CoveredSpans, type HexSpan } from '../../engine/net/free-space.js';
import { parseAddress, type AddrHex } from '../../engine/net/ip.js';
import type { Dialect } from '../../engine/sql/dialect.js';
import { coveredSpansQuery } from '../../engine/sql/covered-spans.js';
import type { NetBlock } from '../types.js';
import type { QueryResult } from './driver.js';

export interface SpansContext {
  readonly d: Dialect;
  run(sql: string, params: readonly unknown[]): Promise<QueryResult>;
  /** How the driver binds a LIMIT value. */
  limitValue(n: number): unknown;
}

export async function sqlCoveredSpans(c: SpansContext, hosts: boolean, block: NetBlock, max: number): Promise<CoveredSpans> {
  const { sql, params } = coveredSpansQuery(c.d, { ...block, hosts, limit: c.limitValue(max) });
  const { rows } = await c.run(sql, params);
  // PostgreSQL answers address text, MySQL upper-case hex of the bytes.
  const hex = (v: unknown): AddrHex => {
    const a = typeof v === 'string' ? (c.d.name === 'postgres' ? parseAddress(v)?.hex : v.toLowerCase()) : undefined;
    if (!a) throw new Error(`coveredSpans: unexpected address ${JSON.stringify(v)} from ${c.d.label} in ${JSON.stringify(rows)}`);
    return a;
  };
  const spans: HexSpan[] = [];
  let open: AddrHex | null = null;
  let complete = rows.length === 0;
  for (const r of rows) {
    const lo = hex(r.lo);
    const prev = r.prev_hi === null || r.prev_hi === undefined ? null : hex(r.prev_hi);
    if (prev === null || bigOf(lo) > bigOf(prev) + 1n) { // a run starts here; the one before ended at prev
      if (open !== null && prev !== null) spans.push({ lo: open, hi: prev });
      open = lo;
    }
    if (r.last === true || Number(r.last) === 1) {
      spans.push({ lo: open!, hi: hex(r.cur_hi) });
      open = null;
      complete = true;
    }
  }
  // Cut short inside a run: where it ends is not known (CoveredSpans: only what lies before it is).
  if (open !== null) spans.push({ lo: open, hi: open });
  return { spans, complete };
}
