// Storage.coveredSpans on SQL (engine/allocation/sql-covered-spans.ts). PostgreSQL folds the children into run
// boundaries itself and sends only those; MySQL and MariaDB send the children in address order, a
// batch at a time, folded here; both stop once `max` runs are known.
import { bigOf, hexOf, type CoveredSpans, type HexSpan } from '../../../engine/allocation/free-space.js';
import { parseAddress, type AddrHex } from '../../../engine/net/ip.js';
import type { Dialect } from '../../../engine/sql/dialect.js';
import { childrenBatchQuery, coveredSpansQuery } from '../../../engine/allocation/sql-covered-spans.js';
import type { NetBlock } from '../../types.js';
import type { QueryResult } from '../driver.js';

export interface SpansContext {
  readonly d: Dialect;
  run(sql: string, params: readonly unknown[]): Promise<QueryResult>;
  /** How the driver binds a LIMIT value. */
  limitValue(n: number): unknown;
}

/** Children read per MySQL batch: a first small one (most walks end early), then larger. */
const FIRST_BATCH = 500;
const LARGEST_BATCH = 20000;

/**
 * `scan`: fold at most this many children; the answer then ends with the last of them, as if no
 * child followed (what it says before that holds; a walk that must stay short uses it).
 */
export function sqlCoveredSpans(
  c: SpansContext,
  hosts: boolean,
  block: NetBlock,
  max: number,
  from?: AddrHex,
  scan?: number,
): Promise<CoveredSpans> {
  return c.d.spansFoldedByDatabase
    ? foldedByDatabase(c, hosts, block, max, from, scan)
    : foldedHere(c, hosts, block, max, from, scan);
}

async function foldedByDatabase(
  c: SpansContext,
  hosts: boolean,
  block: NetBlock,
  max: number,
  from?: AddrHex,
  scan?: number,
): Promise<CoveredSpans> {
  const { sql, params } = coveredSpansQuery(c.d, {
    ...block,
    hosts,
    from,
    limit: c.limitValue(max),
    scan: scan === undefined ? undefined : c.limitValue(scan),
  });
  const { rows } = await c.run(sql, params);
  const hex = (v: unknown): AddrHex => {
    const a = typeof v === 'string' ? parseAddress(v)?.hex : undefined;
    if (!a)
      throw new Error(
        `coveredSpans: unexpected address ${JSON.stringify(v)} from ${c.d.label} in ${JSON.stringify(rows)}`,
      );
    return a;
  };
  const spans: HexSpan[] = [];
  let open: AddrHex | null = null;
  let complete = rows.length === 0;
  for (const r of rows) {
    const lo = hex(r.lo);
    const prev = r.prev_hi === null || r.prev_hi === undefined ? null : hex(r.prev_hi);
    if (prev === null || bigOf(lo) > bigOf(prev) + 1n) {
      // a run starts here; the one before ended at prev
      if (open !== null && prev !== null) spans.push({ lo: open, hi: prev });
      open = lo;
    }
    if (r.last === true) {
      spans.push({ lo: open!, hi: hex(r.cur_hi) });
      open = null;
      complete = true;
    }
  }
  // Cut short inside a run: where it ends is not known (CoveredSpans: only what lies before it is).
  if (open !== null) spans.push({ lo: open, hi: open });
  return { spans, complete };
}

async function foldedHere(
  c: SpansContext,
  hosts: boolean,
  block: NetBlock,
  max: number,
  from?: AddrHex,
  scan = Infinity,
): Promise<CoveredSpans> {
  const spans: HexSpan[] = [];
  let run: { lo: AddrHex; last: bigint } | null = null;
  let after: { lo: AddrHex; length: number } | null = null;
  for (
    let batch = Math.min(FIRST_BATCH, scan), read = 0;
    batch > 0;
    read += batch, batch = Math.min(LARGEST_BATCH, batch * 4, scan - read)
  ) {
    const { sql, params } = childrenBatchQuery(c.d, { ...block, hosts, from, after, limit: c.limitValue(batch) });
    const { rows } = await c.run(sql, params);
    for (const r of rows) {
      const loHex = (r.lo as Buffer).toString('hex');
      const lo = bigOf(loHex),
        hi = bigOf((r.hi as Buffer).toString('hex'));
      if (run && lo <= run.last + 1n) {
        if (hi > run.last) run.last = hi;
        continue;
      }
      if (run) {
        spans.push({ lo: run.lo, hi: hexOf(block.family, run.last) });
        // Enough runs: this one starts where the answer stops (its end is not read).
        if (spans.length >= max) {
          spans.push({ lo: loHex, hi: loHex });
          return { spans, complete: false };
        }
      }
      run = { lo: loHex, last: hi };
    }
    if (rows.length < batch) break;
    const tail = rows[rows.length - 1];
    after = { lo: (tail.lo as Buffer).toString('hex'), length: Number(tail.len) };
  }
  if (run) spans.push({ lo: run.lo, hi: hexOf(block.family, run.last) });
  return { spans, complete: true };
}
