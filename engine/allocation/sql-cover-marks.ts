// Cover marks on SQL stores (engine/allocation/cover-mark-math.ts): the table alloc_cover (block key, family,
// mark) and the statements that keep and read it. Who may write it: every write of a mark is made
// by a transaction that holds the prefix generation row of alloc_gen (allocation-hints.ts), the
// "gate": deletes and moves of prefixes hold it already (they raise the generation), a create takes
// it with FOR UPDATE SKIP LOCKED and, when another transaction has it, leaves the marks as they are
// (a mark is a lower bound: one that lags is still true). So one transaction at a time writes marks,
// and a mark moved past other transactions' prefixes is moved only while no delete is under way.
// Only identifiers and constants are written into the text; values are bound.
import type { Dialect } from '../sql/dialect.js';
import { SqlBuilder, type SqlText } from '../sql/sql-builder.js';
import { idParam } from '../sql/id-columns.js';
import { GEN_TABLE } from './sql-hints.js';
import { tableModel } from '../sql/table-model.js';
import { net } from '../plan/nodes.js';
import type { Family } from '../net/ip.js';

export const COVER_TABLE = 'alloc_cover';
/** The resource whose generation row is the gate. */
const GATE = 'prefix';

/**
 * Migration: the table and its index on (family, mark) (each statement idempotent). Rows come later:
 * a missing row is a mark at the block's start.
 */
export function coverMarkStatements(d: Dialect): string[] {
  const q = d.quote;
  // Hex keys and marks, sorted byte by byte (hex sorts as the numbers it spells).
  return [
    `CREATE TABLE IF NOT EXISTS ${q(COVER_TABLE)} (${q('block')} ${d.asciiText(40, true)} NOT NULL PRIMARY KEY, ` +
      `${q('family')} smallint NOT NULL, ` +
      `${q('mark')} ${d.asciiText(33, true)} NOT NULL)${d.tableOptions}`,
    ...d.addIndexIfMissing(COVER_TABLE, `ix_${COVER_TABLE}_mark`, ['family', 'mark']),
  ];
}

/** The gate's generation row, `lock` appended (the lock it takes, if any). */
function gateRow(d: Dialect, lock: string): SqlText {
  const q = d.quote;
  return new SqlBuilder(d)
    .emit(`SELECT ${q('gen')} AS gen FROM ${q(GEN_TABLE)} WHERE ${q('resource')} = `)
    .param(GATE, 'text')
    .emit(lock)
    .build();
}

/** Takes the gate unless another transaction holds it: one row (the generation) when taken, none when not. */
export const takeGate = (d: Dialect): SqlText => gateRow(d, ' FOR UPDATE SKIP LOCKED');

/** Takes the gate, waiting for it (deletes and moves: they take it first when they raise the generation). */
export const waitForGate = (d: Dialect): SqlText => gateRow(d, ' FOR UPDATE');

/** Must new rows be written under the gate? */
export const gateForInserts = (d: Dialect): boolean => d.coverMarks.gateForInserts;

/**
 * Do the transaction's plain reads after the gate see every commit made before it (else compare
 * readGate with the gate's).
 */
export const gateSeen = (d: Dialect): boolean => d.coverMarks.freshReads;

/** The generation as the transaction's reads see it (InnoDB: its snapshot, which may be older than the gate). */
export const readGate = (d: Dialect): SqlText => gateRow(d, '');

/** A block's mark (null: no row) and the generation, read together. */
export function readMark(d: Dialect, key: string): SqlText {
  const q = d.quote;
  return new SqlBuilder(d)
    .emit(`SELECT g.${q('gen')} AS gen, (SELECT c.${q('mark')} FROM ${q(COVER_TABLE)} c WHERE c.${q('block')} = `)
    .param(key, 'text')
    .emit(`) AS mark FROM ${q(GEN_TABLE)} g WHERE g.${q('resource')} = `)
    .param(GATE, 'text')
    .build();
}

/** The rows of a family whose mark lies in one of the ranges (marks as text). */
export function marksIn(d: Dialect, family: Family, ranges: readonly (readonly [string, string])[]): SqlText {
  const q = d.quote;
  if (d.coverMarks.rangesJoined) {
    // OFFSET 0 keeps the subquery a scan per range (else it is flattened into one filtered scan).
    return new SqlBuilder(d)
      .emit(`SELECT c.${q('block')} AS block, c.${q('mark')} AS mark FROM unnest(`)
      .param(
        ranges.map((r) => r[0]),
        'text[]',
      )
      .emit(', ')
      .param(
        ranges.map((r) => r[1]),
        'text[]',
      )
      .emit(
        `) AS r(lo, hi) CROSS JOIN LATERAL (SELECT ${q('block')}, ${q('mark')} ` +
          `FROM ${q(COVER_TABLE)} WHERE ${q('family')} = `,
      )
      .param(family, 'integer')
      .emit(` AND ${q('mark')} >= r.lo AND ${q('mark')} <= r.hi OFFSET 0) c`)
      .build();
  }
  const b = new SqlBuilder(d)
    .emit(`SELECT ${q('block')} AS block, ${q('mark')} AS mark FROM ${q(COVER_TABLE)} WHERE ${q('family')} = `)
    .param(family, 'integer')
    .emit(' AND (');
  ranges.forEach(([lo, hi], i) => {
    b.emit(`${i ? ' OR ' : ''}(${q('mark')} >= `)
      .param(lo, 'text')
      .emit(` AND ${q('mark')} <= `)
      .param(hi, 'text')
      .emit(')');
  });
  return b.emit(')').build();
}

/** A block's mark set to `mark` if it still is `was` (an UPDATE compares the latest version, also under InnoDB). */
export function setMark(d: Dialect, key: string, was: string, mark: string): SqlText {
  const q = d.quote;
  return new SqlBuilder(d)
    .emit(`UPDATE ${q(COVER_TABLE)} SET ${q('mark')} = `)
    .param(mark, 'text')
    .emit(` WHERE ${q('block')} = `)
    .param(key, 'text')
    .emit(` AND ${q('mark')} = `)
    .param(was, 'text')
    .build();
}

/** How many new rows one insertMarks statement takes at most. */
export const marksPerInsert = (d: Dialect, valuesRows: number): number => (d.arrayRows ? Infinity : valuesRows);

/**
 * Rows for new blocks (key, family, mark); a block that has one keeps it. PostgreSQL: three arrays
 * unnested (three parameters, where a VALUES list bound three per row: a bulk create's 1,000
 * blocks were two statements of 1,500 parameters to parse and bind).
 */
export function insertMarks(d: Dialect, rows: readonly { key: string; family: Family; mark: string }[]): SqlText {
  const q = d.quote,
    [head, tail] = d.insertSkipping(['block']);
  if (d.arrayRows) {
    return new SqlBuilder(d)
      .emit(`${head} ${q(COVER_TABLE)} (${q('block')}, ${q('family')}, ${q('mark')}) SELECT * FROM unnest(`)
      .param(
        rows.map((r) => r.key),
        'text[]',
      )
      .emit(', ')
      .param(
        rows.map((r) => r.family),
        'integer[]',
      )
      .emit(', ')
      .param(
        rows.map((r) => r.mark),
        'text[]',
      )
      .emit(`)${tail}`)
      .build();
  }
  const b = new SqlBuilder(d).emit(`${head} ${q(COVER_TABLE)} (${q('block')}, ${q('family')}, ${q('mark')}) VALUES `);
  rows.forEach((r, i) => markRow(b.emit(i ? ', ' : ''), r));
  return b.emit(tail).build();
}

/** `(key, family, mark)` of one row, bound. */
const markRow = (b: SqlBuilder, r: { key: string; family: Family; mark: string }): SqlBuilder =>
  b.emit('(').param(r.key, 'text').emit(', ').param(r.family, 'integer').emit(', ').param(r.mark, 'text').emit(')');

/** A block's mark raised to `mark` (its row made when missing). */
export function raiseMark(d: Dialect, key: string, family: Family, mark: string): SqlText {
  const q = d.quote;
  const b = new SqlBuilder(d).emit(
    `INSERT INTO ${q(COVER_TABLE)} (${q('block')}, ${q('family')}, ${q('mark')}) VALUES `,
  );
  return markRow(b, { key, family, mark })
    .emit(d.upsertRaising(COVER_TABLE, ['block'], 'mark'))
    .build();
}

/** The marks of the blocks named lowered to `mark` where they are past it (a prefix deleted or moved away). */
export function lowerMarks(d: Dialect, keys: readonly string[], mark: string): SqlText {
  const q = d.quote;
  const b = new SqlBuilder(d)
    .emit(`UPDATE ${q(COVER_TABLE)} SET ${q('mark')} = `)
    .param(mark, 'text')
    .emit(' WHERE ');
  d.inList(b, q('block'), keys, 'text');
  return b
    .emit(` AND ${q('mark')} > `)
    .param(mark, 'text')
    .build();
}

/** Every mark forgotten (all prefixes deleted). */
export function clearMarks(d: Dialect): SqlText {
  return { sql: `DELETE FROM ${d.quote(COVER_TABLE)}`, params: [] };
}

/** A stored prefix's CIDR text; `lock`: with the row locked (a locking read sees the latest version). */
export function storedPrefix(d: Dialect, id: string, lock: boolean): SqlText {
  const q = d.quote,
    m = tableModel('prefix');
  return new SqlBuilder(d)
    .emit(`SELECT ${q(m.net!.source)} AS prefix FROM ${q(m.table)} WHERE ${q('id')} = `)
    .param(id, idParam(d, 'prefix'))
    .emit(lock ? ' FOR UPDATE' : '')
    .build();
}

/**
 * The prefixes strictly inside the block (network/length) that contain the address `at`: those a
 * walk from `at` must step over first (they start before it). Through the dialect's network
 * predicates (one index probe per length).
 */
export function prefixesOver(
  d: Dialect,
  family: Family,
  block: { network: string; broadcast: string; length: number },
  at: string,
): SqlText {
  const q = d.quote,
    m = tableModel('prefix');
  const w = family === 4 ? 32 : 128;
  const b = new SqlBuilder(d).emit(`SELECT p.${q(m.net!.source)} AS prefix FROM ${q(m.table)} p WHERE `);
  d.net(b, m, 'p', net('network', 'contains_or_equal', family, at, at, w));
  b.emit(' AND ');
  d.net(b, m, 'p', net('network', 'contained', family, block.network, block.broadcast, block.length));
  return b.build();
}
