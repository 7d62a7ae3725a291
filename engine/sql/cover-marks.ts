// Cover marks on SQL stores (engine/net/cover-marks.ts): the table alloc_cover (block key, family,
// mark) and the statements that keep and read it. Who may write it: every write of a mark is made
// by a transaction that holds the prefix generation row of alloc_gen (allocation-hints.ts), the
// "gate": deletes and moves of prefixes hold it already (they raise the generation), a create takes
// it with FOR UPDATE SKIP LOCKED and, when another transaction has it, leaves the marks as they are
// (a mark is a lower bound: one that lags is still true). So one transaction at a time writes marks,
// and a mark moved past other transactions' prefixes is moved only while no delete is under way.
// Only identifiers and constants are written into the text; values are bound.
import type { Dialect } from './dialect.js';
import type { ParamType } from './sql-builder.js';
import { SqlBuilder } from './sql-builder.js';
import { GEN_TABLE } from './allocation-hints.js';
import { tableModel } from './table-model.js';
import { net } from '../plan/nodes.js';
import type { Family } from '../net/ip.js';

export const COVER_TABLE = 'alloc_cover';
/** The resource whose generation row is the gate. */
const GATE = 'prefix';

export interface CoverStatement { readonly sql: string; readonly params: readonly unknown[] }

/** What differs between the dialects here, as data. */
interface Forms {
  /** A column of ASCII text compared byte by byte (hex sorts as the numbers it spells). */
  ascii(n: number): string;
  readonly tableSuffix: string;
  /** INSERT that skips rows whose key is taken: before the column list, after the VALUES. */
  readonly insertSkip: readonly [string, string];
  /** INSERT that raises a taken row's mark to the one given when that is higher (after the VALUES). */
  readonly raiseTaken: string;
  /**
   * Every statement after a lock sees what was committed before it (READ COMMITTED). InnoDB's
   * REPEATABLE READ reads from a snapshot taken at the transaction's first read, maybe earlier.
   */
  readonly freshReads: boolean;
  /**
   * New rows are written under the gate too. InnoDB: a delete's UPDATE of the marks around a prefix
   * takes gap locks where a block has no row, which an INSERT of a row there then waits for, while
   * the delete may wait for a row that INSERT wrote before: a deadlock (seen in the race test).
   * PostgreSQL has no gap locks.
   */
  readonly gateForInserts: boolean;
  /**
   * The ranges of marksIn each looked up by its own index range scan, joined laterally over arrays
   * of bounds. PostgreSQL plans an OR of ranges by its statistics of `family`; taken before a bulk
   * load's IPv6 rows, they make the whole family look like one row, and each lookup read all of it
   * (0.6 s per statement at 1M prefixes). InnoDB's range optimizer reads an OR of ranges as ranges.
   */
  readonly rangesJoined: boolean;
  /** New rows bound as three arrays, unnested (any number per statement), rather than a VALUES list. */
  readonly insertsUnnested: boolean;
}

const FORMS: Record<Dialect['name'], Forms> = {
  postgres: {
    ascii: (n) => `varchar(${n}) COLLATE "C"`,
    tableSuffix: '',
    insertSkip: ['INSERT INTO', ' ON CONFLICT ("block") DO NOTHING'],
    raiseTaken: ` ON CONFLICT ("block") DO UPDATE SET "mark" = excluded."mark" WHERE "${COVER_TABLE}"."mark" < excluded."mark"`,
    freshReads: true,
    gateForInserts: false,
    rangesJoined: true,
    insertsUnnested: true,
  },
  mysql: {
    ascii: (n) => `varchar(${n}) CHARACTER SET ascii COLLATE ascii_bin`,
    tableSuffix: ' ENGINE=InnoDB',
    insertSkip: ['INSERT IGNORE INTO', ''],
    raiseTaken: ' ON DUPLICATE KEY UPDATE `mark` = GREATEST(`mark`, VALUES(`mark`))',
    freshReads: false,
    gateForInserts: true,
    rangesJoined: false,
    insertsUnnested: false,
  },
};

/** Migration: the table and its index on (family, mark) (each statement idempotent). Rows come later: a missing row is a mark at the block's start. */
export function coverMarkStatements(d: Dialect): string[] {
  const q = d.quote, f = FORMS[d.name];
  return [
    `CREATE TABLE IF NOT EXISTS ${q(COVER_TABLE)} (${q('block')} ${f.ascii(40)} NOT NULL PRIMARY KEY, ${q('family')} smallint NOT NULL, ` +
      `${q('mark')} ${f.ascii(33)} NOT NULL)${f.tableSuffix}`,
    ...d.addIndexIfMissing(COVER_TABLE, `ix_${COVER_TABLE}_mark`, ['family', 'mark']),
  ];
}

const ph = (d: Dialect, i: number, type: ParamType) => d.placeholder(i, type);

/** Takes the gate unless another transaction holds it: one row (the generation) when taken, none when not. */
export function takeGate(d: Dialect): CoverStatement {
  const q = d.quote;
  return { sql: `SELECT ${q('gen')} AS gen FROM ${q(GEN_TABLE)} WHERE ${q('resource')} = ${ph(d, 1, 'text')} FOR UPDATE SKIP LOCKED`, params: [GATE] };
}

/** Takes the gate, waiting for it (deletes and moves: they take it first when they raise the generation). */
export function waitForGate(d: Dialect): CoverStatement {
  const q = d.quote;
  return { sql: `SELECT ${q('gen')} AS gen FROM ${q(GEN_TABLE)} WHERE ${q('resource')} = ${ph(d, 1, 'text')} FOR UPDATE`, params: [GATE] };
}

/** Must new rows be written under the gate? */
export const gateForInserts = (d: Dialect): boolean => FORMS[d.name].gateForInserts;

/** Do the transaction's plain reads after the gate see every commit made before it (else compare readGate with the gate's). */
export const gateSeen = (d: Dialect): boolean => FORMS[d.name].freshReads;

/** The generation as the transaction's reads see it (InnoDB: its snapshot, which may be older than the gate). */
export function readGate(d: Dialect): CoverStatement {
  const q = d.quote;
  return { sql: `SELECT ${q('gen')} AS gen FROM ${q(GEN_TABLE)} WHERE ${q('resource')} = ${ph(d, 1, 'text')}`, params: [GATE] };
}

/** A block's mark (null: no row) and the generation, read together. */
export function readMark(d: Dialect, key: string): CoverStatement {
  const q = d.quote;
  return {
    sql: `SELECT g.${q('gen')} AS gen, (SELECT c.${q('mark')} FROM ${q(COVER_TABLE)} c WHERE c.${q('block')} = ${ph(d, 1, 'text')}) AS mark ` +
      `FROM ${q(GEN_TABLE)} g WHERE g.${q('resource')} = ${ph(d, 2, 'text')}`,
    params: [key, GATE],
  };
}

/** The rows of a family whose mark lies in one of the ranges (marks as text). */
export function marksIn(d: Dialect, family: Family, ranges: readonly (readonly [string, string])[]): CoverStatement {
  const q = d.quote;
  if (FORMS[d.name].rangesJoined) {
    // OFFSET 0 keeps the subquery a scan per range (else it is flattened into one filtered scan).
    return new SqlBuilder(d).emit(`SELECT c.${q('block')} AS block, c.${q('mark')} AS mark FROM unnest(`)
      .param(ranges.map((r) => r[0]), 'text[]').emit(', ').param(ranges.map((r) => r[1]), 'text[]')
      .emit(`) AS r(lo, hi) CROSS JOIN LATERAL (SELECT ${q('block')}, ${q('mark')} FROM ${q(COVER_TABLE)} WHERE ${q('family')} = `).param(family, 'integer')
      .emit(` AND ${q('mark')} >= r.lo AND ${q('mark')} <= r.hi OFFSET 0) c`).build();
  }
  const b = new SqlBuilder(d).emit(`SELECT ${q('block')} AS block, ${q('mark')} AS mark FROM ${q(COVER_TABLE)} WHERE ${q('family')} = `).param(family, 'integer').emit(' AND (');
  ranges.forEach(([lo, hi], i) => {
    b.emit(`${i ? ' OR ' : ''}(${q('mark')} >= `).param(lo, 'text').emit(` AND ${q('mark')} <= `).param(hi, 'text').emit(')');
  });
  return b.emit(')').build();
}

/** A block's mark set to `mark` if it still is `was` (an UPDATE compares the latest version, also under InnoDB). */
export function setMark(d: Dialect, key: string, was: string, mark: string): CoverStatement {
  const q = d.quote;
  return {
    sql: `UPDATE ${q(COVER_TABLE)} SET ${q('mark')} = ${ph(d, 1, 'text')} WHERE ${q('block')} = ${ph(d, 2, 'text')} AND ${q('mark')} = ${ph(d, 3, 'text')}`,
    params: [mark, key, was],
  };
}

/** How many new rows one insertMarks statement takes at most. */
export const marksPerInsert = (d: Dialect, valuesRows: number): number => (FORMS[d.name].insertsUnnested ? Infinity : valuesRows);

/**
 * Rows for new blocks (key, family, mark); a block that has one keeps it. PostgreSQL: three arrays
 * unnested (three parameters, where a VALUES list bound three per row: a bulk create's 1,000
 * blocks were two statements of 1,500 parameters to parse and bind).
 */
export function insertMarks(d: Dialect, rows: readonly { key: string; family: Family; mark: string }[]): CoverStatement {
  const q = d.quote, [head, tail] = FORMS[d.name].insertSkip;
  if (FORMS[d.name].insertsUnnested) {
    return new SqlBuilder(d).emit(`${head} ${q(COVER_TABLE)} (${q('block')}, ${q('family')}, ${q('mark')}) SELECT * FROM unnest(`)
      .param(rows.map((r) => r.key), 'text[]').emit(', ').param(rows.map((r) => r.family), 'integer[]').emit(', ').param(rows.map((r) => r.mark), 'text[]')
      .emit(`)${tail}`).build();
  }
  const b = new SqlBuilder(d).emit(`${head} ${q(COVER_TABLE)} (${q('block')}, ${q('family')}, ${q('mark')}) VALUES `);
  rows.forEach((r, i) => { b.emit(i ? ', (' : '(').param(r.key, 'text').emit(', ').param(r.family, 'integer').emit(', ').param(r.mark, 'text').emit(')'); });
  return b.emit(tail).build();
}

/** A block's mark raised to `mark` (its row made when missing). */
export function raiseMark(d: Dialect, key: string, family: Family, mark: string): CoverStatement {
  const q = d.quote;
  return {
    sql: `INSERT INTO ${q(COVER_TABLE)} (${q('block')}, ${q('family')}, ${q('mark')}) VALUES (${ph(d, 1, 'text')}, ${ph(d, 2, 'integer')}, ${ph(d, 3, 'text')})${FORMS[d.name].raiseTaken}`,
    params: [key, family, mark],
  };
}

/** The marks of the blocks named lowered to `mark` where they are past it (a prefix deleted or moved away). */
export function lowerMarks(d: Dialect, keys: readonly string[], mark: string): CoverStatement {
  const q = d.quote;
  const b = new SqlBuilder(d).emit(`UPDATE ${q(COVER_TABLE)} SET ${q('mark')} = `).param(mark, 'text').emit(' WHERE ');
  d.inList(b, q('block'), keys, 'text');
  return b.emit(` AND ${q('mark')} > `).param(mark, 'text').build();
}

/** Every mark forgotten (all prefixes deleted). */
export function clearMarks(d: Dialect): CoverStatement {
  return { sql: `DELETE FROM ${d.quote(COVER_TABLE)}`, params: [] };
}

/** A stored prefix's CIDR text; `lock`: with the row locked (a locking read sees the latest version). */
export function storedPrefix(d: Dialect, id: string, lock: boolean): CoverStatement {
  const q = d.quote, m = tableModel('prefix');
  return { sql: `SELECT ${q(m.net!.source)} AS prefix FROM ${q(m.table)} WHERE ${q('id')} = ${ph(d, 1, 'uuid')}${lock ? ' FOR UPDATE' : ''}`, params: [id] };
}

/**
 * The prefixes strictly inside the block (network/length) that contain the address `at`: those a
 * walk from `at` must step over first (they start before it). Through the dialect's network
 * predicates (one index probe per length).
 */
export function prefixesOver(d: Dialect, family: Family, block: { network: string; broadcast: string; length: number }, at: string): CoverStatement {
  const q = d.quote, m = tableModel('prefix');
  const w = family === 4 ? 32 : 128;
  const b = new SqlBuilder(d).emit(`SELECT p.${q(m.net!.source)} AS prefix FROM ${q(m.table)} p WHERE `);
  d.net(b, m, 'p', net('network', 'contains_or_equal', family, at, at, w));
  b.emit(' AND ');
  d.net(b, m, 'p', net('network', 'contained', family, block.network, block.broadcast, block.length));
  return b.build();
}
