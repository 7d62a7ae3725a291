// Cover marks on SQL stores (engine/allocation/cover-mark-math.ts, engine/allocation/sql-cover-marks.ts): per prefix
// block, an address up to which its first addresses are covered by prefixes inside it, so the
// free-space read of an allocation starts there instead of walking every child (100,000 children:
// ~50 ms on PostgreSQL, ~1 s on MySQL / MariaDB). Kept in the transaction of every prefix write:
// - a create moves the mark of each block whose mark it covers past it and the batch's other new
//   prefixes (one statement per batch finds them), then past the prefixes already there from that
//   point (a walk of at most WALK children; where it stops the mark is still true);
// - a delete, or a move of a prefix, lowers the mark of every block containing it to its first
//   address at most.
// A stored mark moves forward only under the gate (engine/allocation/sql-cover-marks.ts), and only if it still
// holds the value it was read with; a new block's row starts past the batch's own prefixes inside
// it. A walk over other transactions' prefixes counts only when no delete has committed since the
// transaction's reads began (the generation it reads equals the one it locked), and none can commit
// before it does, so a prefix it steps over is there.
// The read raises a mark it finds lagging (a prefix made over existing children starts at its
// start, as does every prefix of a database migrated to version 9) in a short transaction of its
// own, under the gate and only while the generation it read before its walk is still current.
import { bigOf, hexOf, type CoveredSpans, type HexSpan } from '../../../engine/allocation/free-space.js';
import { maxLength, type AddrHex, type Family } from '../../../engine/net/ip.js';
import {
  ancestorKeys,
  blockKey,
  blockOfCidr,
  blocksInside,
  byAddress,
  coveredRuns,
  keyBlock,
  markBlock,
  markText,
  markValue,
  sweep,
  type MarkBlock,
} from '../../../engine/allocation/cover-mark-math.js';
import {
  clearMarks,
  gateForInserts,
  gateSeen,
  insertMarks,
  lowerMarks,
  marksPerInsert,
  marksIn,
  prefixesOver,
  raiseMark,
  readGate,
  readMark,
  setMark,
  storedPrefix,
  takeGate,
  waitForGate,
} from '../../../engine/allocation/sql-cover-marks.js';
import type { Dialect } from '../../../engine/sql/dialect.js';
import type { TableModel } from '../../../engine/sql/table-model.js';
import type { AllocationHint, NetBlock, Row } from '../../types.js';
import type { QueryResult, SqlDriver, SqlSession } from '../driver.js';
import { sqlCoveredSpans } from './covered-spans.js';

/** Children a write's walk folds at most. */
export const WALK = 1000;
/** Runs (ranges) per statement that looks for the marks a batch covers; new rows per INSERT of a VALUES list. */
const RANGES_PER_STATEMENT = 200;
const ROWS_PER_INSERT = 500;

type Run = (sql: string, params: readonly unknown[]) => Promise<QueryResult>;
type Driver = Pick<SqlDriver, 'pageValue' | 'transaction'>;

const isPrefix = (m: TableModel) => m.resource.name === 'prefix' && !!m.net;

const netBlock = (b: MarkBlock): NetBlock => ({
  family: b.family,
  network: hexOf(b.family, b.lo),
  broadcast: hexOf(b.family, b.hi),
  length: b.length,
});

/**
 * How far the prefixes inside `a` cover from `w` on, along the run that starts at `w`, folding at
 * most `scan` children. A prefix over `w` that started before it (the mark was lowered into it by
 * a delete inside it) is not looked for: the walk stops at `w` then, and the next read steps over it.
 */
async function walk(run: Run, d: Dialect, driver: Driver, a: MarkBlock, w: bigint, scan?: number): Promise<bigint> {
  if (w > a.hi) return w;
  const got = await sqlCoveredSpans(
    { d, run, limitValue: (n) => driver.pageValue(n) },
    false,
    netBlock(a),
    2,
    hexOf(a.family, w),
    scan,
  );
  const first = got.spans[0];
  return first && bigOf(first.lo) === w ? bigOf(first.hi) + 1n : w;
}

/** `w`, or past the end of the prefixes inside `a` that contain it. */
async function pastPrefixesOver(run: Run, d: Dialect, a: MarkBlock, w: bigint): Promise<bigint> {
  const st = prefixesOver(d, a.family, netBlock(a), hexOf(a.family, w));
  let out = w;
  for (const r of (await run(st.sql, st.params)).rows) {
    const b = blockOfCidr(r.prefix);
    if (b && b.hi >= out) out = b.hi + 1n;
  }
  return out;
}

/**
 * After a group of prefixes was inserted in the transaction: the marks they cover moved past them
 * (and on along the children there), and rows for their blocks. The marks are found by a plain read
 * and each is set only if it still holds the value read (a mark moves under the gate only, so one
 * that still holds it is true, whatever happened in between); the gate is taken once a mark is to
 * move, or first where new rows need it (gateForInserts).
 */
export async function afterPrefixCreates(
  s: SqlSession,
  driver: Driver,
  d: Dialect,
  m: TableModel,
  rows: readonly Row[],
): Promise<void> {
  if (!isPrefix(m)) return;
  const blocks = rows.map((r) => blockOfCidr(r[m.net!.source])).filter((b): b is MarkBlock => b !== null);
  if (!blocks.length) return;
  let gate: { gen: number } | null | undefined; // undefined: not asked yet; null: another transaction has it
  const takeIt = async () => {
    if (gate === undefined) {
      const r = (await s.query(takeGate(d).sql, takeGate(d).params)).rows[0];
      gate = r ? { gen: Number(r.gen) } : null;
    }
    return gate;
  };
  if (gateForInserts(d) && !(await takeIt())) return; // another transaction writes marks now: these stay (still true)
  // A walk steps over other transactions' prefixes: only when its reads see every delete committed before the gate.
  let mayWalk: boolean | undefined = gateSeen(d) ? true : undefined;
  const walkable = async (g: { gen: number }) => {
    mayWalk ??= Number((await s.query(readGate(d).sql, readGate(d).params)).rows[0]?.gen) === g.gen;
    return mayWalk;
  };
  const run: Run = (sql, params) => s.query(sql, params);
  for (const family of [4, 6] as const) {
    const sorted = byAddress(blocks.filter((b) => b.family === family));
    if (!sorted.length) continue;
    const runs = coveredRuns(sorted);
    for (let i = 0; i < runs.length; i += RANGES_PER_STATEMENT) {
      const ranges = runs
        .slice(i, i + RANGES_PER_STATEMENT)
        .map((r) => [markText(family, r.lo), markText(family, r.hi)] as const);
      const st = marksIn(d, family, ranges);
      for (const r of (await s.query(st.sql, st.params)).rows) {
        const a = keyBlock(String(r.block)),
          w = markValue(String(r.mark));
        const swept = sweep(w, blocksInside(sorted, a));
        if (swept === w) continue;
        const g = await takeIt();
        if (!g) break;
        const to = (await walkable(g)) ? await walk(run, d, driver, a, swept, WALK) : swept;
        const set = setMark(d, String(r.block), String(r.mark), markText(family, to));
        await s.query(set.sql, set.params);
      }
    }
    // Rows for the new blocks (a prefix of the longest length has nothing inside), each past the
    // batch's new prefixes inside it; a block that has a row keeps it (a duplicate: it was kept).
    const fresh = new Map<string, { key: string; family: Family; mark: string }>();
    for (const b of sorted) {
      const key = blockKey(b);
      if (b.length < maxLength(family) && !fresh.has(key))
        fresh.set(key, { key, family, mark: markText(family, sweep(b.lo, blocksInside(sorted, b))) });
    }
    const news = [...fresh.values()].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
    for (let i = 0, per = marksPerInsert(d, ROWS_PER_INSERT); i < news.length; i += per) {
      const st = insertMarks(d, news.slice(i, i + per));
      await s.query(st.sql, st.params);
    }
  }
}

/** Lowers the marks of the blocks containing `b` to its first address (it is gone from there). */
async function lowerAround(s: SqlSession, d: Dialect, b: MarkBlock): Promise<void> {
  if (b.length === 0) return;
  const st = lowerMarks(d, ancestorKeys(b), markText(b.family, b.lo));
  await s.query(st.sql, st.params);
}

/** Before a prefix row is deleted (after the generation was raised, which holds the gate). */
export async function beforePrefixDelete(s: SqlSession, d: Dialect, m: TableModel, id: string): Promise<void> {
  if (!isPrefix(m)) return;
  await s.query(waitForGate(d).sql, waitForGate(d).params);
  const st = storedPrefix(d, id, true);
  const b = blockOfCidr((await s.query(st.sql, st.params)).rows[0]?.prefix);
  if (b) await lowerAround(s, d, b);
}

/**
 * Before a prefix row is updated: when its block changes, the marks of the old block's containers
 * are lowered; true then (the caller runs afterPrefixCreates with the row once it is written).
 * The first read takes no lock (most updates keep the block); a change seen there takes the gate
 * (as the generation raise did), then the row, in that order as deletes do.
 */
export async function beforePrefixUpdate(s: SqlSession, d: Dialect, m: TableModel, row: Row): Promise<boolean> {
  if (!isPrefix(m)) return false;
  const next = String(row[m.net!.source]);
  const plain = storedPrefix(d, row.id, false);
  const seen = (await s.query(plain.sql, plain.params)).rows[0]?.prefix;
  if (seen === undefined || seen === next) return false;
  await s.query(waitForGate(d).sql, waitForGate(d).params);
  const locked = storedPrefix(d, row.id, true);
  const stored = (await s.query(locked.sql, locked.params)).rows[0]?.prefix;
  const b = stored === undefined || stored === next ? null : blockOfCidr(stored);
  if (b) await lowerAround(s, d, b);
  return b !== null;
}

/** Every prefix is being deleted: every mark goes (a missing row is a mark at the start). */
export async function afterAllPrefixesDeleted(s: SqlSession, d: Dialect, m: TableModel): Promise<void> {
  if (!isPrefix(m)) return;
  await s.query(clearMarks(d).sql, []);
}

/** A block's mark as stored (its start when it has no row, within the block and one past it), with the generation. */
async function storedMark(run: Run, d: Dialect, a: MarkBlock): Promise<{ mark: bigint; gen: number | null }> {
  const read = readMark(d, blockKey(a));
  const row = (await run(read.sql, read.params)).rows[0];
  const w = typeof row?.mark === 'string' ? markValue(row.mark) : a.lo;
  return { mark: w < a.lo ? a.lo : w > a.hi + 1n ? a.hi + 1n : w, gen: row ? Number(row.gen) : null };
}

/**
 * An allocation hint of a prefix with the block's mark: no free block of any length lies before
 * the mark, so allocation reads from the later of the two (Allocation steps over a child reaching
 * past it). A mark at the block's start, or past the family's last address, adds nothing.
 */
export async function hintWithMark(
  run: Run,
  d: Dialect,
  block: NetBlock,
  hint: AllocationHint,
): Promise<AllocationHint> {
  const a = markBlock(block.family, bigOf(block.network), block.length);
  const { mark } = await storedMark(run, d, a);
  if (mark <= a.lo || mark >= 1n << BigInt(maxLength(a.family)) || (hint.nextAt !== null && bigOf(hint.nextAt) >= mark))
    return hint;
  return { gen: hint.gen, nextAt: hexOf(a.family, mark) };
}

/**
 * Storage.coveredSpans of prefixes with the block's mark: the stretch before it is one span, the
 * children are read from it on. From an address (an allocation hint, which has the mark in it
 * already: hintWithMark), the children starting there or later, as before.
 */
export async function markedSpans(
  run: Run,
  d: Dialect,
  driver: Driver,
  block: NetBlock,
  max: number,
  from?: AddrHex,
): Promise<CoveredSpans> {
  const ctx = { d, run, limitValue: (n: number) => driver.pageValue(n) };
  if (from !== undefined) return sqlCoveredSpans(ctx, false, block, max, from);
  const a = markBlock(block.family, bigOf(block.network), block.length);
  const key = blockKey(a);
  const { mark: w, gen } = await storedMark(run, d, a);
  // From the mark, past the prefixes over it; the children from there (all of them from the start).
  const at = w > a.lo ? await pastPrefixesOver(run, d, a, w) : w;
  const got: CoveredSpans =
    at > a.hi
      ? { spans: [], complete: true }
      : at === a.lo
        ? await sqlCoveredSpans(ctx, false, block, max)
        : await sqlCoveredSpans(ctx, false, block, max, hexOf(a.family, at));
  const first = got.spans[0];
  // The first run is known to end where it says when the answer goes on past it.
  const firstKnown = first !== undefined && (got.complete || got.spans.length >= 2);
  const joins = firstKnown && bigOf(first.lo) <= at;
  let spans: HexSpan[];
  let covered: bigint; // the first address not known covered from the start
  if (at === a.lo) {
    spans = [...got.spans];
    covered = joins ? bigOf(first.hi) + 1n : a.lo;
  } else if (joins) {
    spans = [{ lo: hexOf(a.family, a.lo), hi: first.hi }, ...got.spans.slice(1)];
    covered = bigOf(first.hi) + 1n;
  } else {
    spans = [{ lo: hexOf(a.family, a.lo), hi: hexOf(a.family, at - 1n) }, ...got.spans];
    covered = at;
  }
  if (covered > w && gen !== null) await raiseFound(driver, d, a, key, covered, gen);
  return { spans, complete: got.complete };
}

/** Records a mark a read found, under the gate and only while the generation read before its walk is current. */
async function raiseFound(
  driver: Driver,
  d: Dialect,
  a: MarkBlock,
  key: string,
  mark: bigint,
  gen: number,
): Promise<void> {
  await driver.transaction(async (s) => {
    const gate = (await s.query(takeGate(d).sql, takeGate(d).params)).rows[0];
    if (!gate || Number(gate.gen) !== gen) return;
    const st = raiseMark(d, key, a.family, markText(a.family, mark));
    await s.query(st.sql, st.params);
  });
}
