// Integer ids (NetBox's style) come from the database, one counter per table, so that every process
// and replica on the database draws from the same numbers and none is handed out twice; a number
// once taken is never given again (a delete leaves a gap, as NetBox's sequences do).
//  - PostgreSQL: the id column is an identity; newIds takes nextval of its sequence n times in one
//    statement. Sequences are outside transactions: a rolled-back write leaves a gap, never a reuse.
//  - MySQL / MariaDB: AUTO_INCREMENT numbers a row only as it is inserted, and the product takes ids
//    before it writes (a batch names its rows' ids in its change records). So a counter table, one
//    row per table: `last = LAST_INSERT_ID(last + n)` in an upsert of its own (autocommit, on a
//    connection of its own) raises it atomically under the row lock, and the OK packet answers the
//    new value on that connection: [last - n + 1, last] are this caller's alone.
import { integerSpace } from '../../engine/sql/id-columns.js';
import type { Dialect } from '../../engine/sql/dialect.js';
import { TABLE_MODELS, tableModel } from '../../engine/sql/table-model.js';
import type { SqlDriver } from './driver.js';

/** MySQL / MariaDB: the counters of integer ids, one row per table (created with an integer store's schema). */
export const ID_COUNTER_TABLE = 'id_counter';

interface CounterForms {
  /** Statements creating the counters (run by an integer store's first migration). */
  create(d: Dialect): string[];
  /** `n` numbers taken from `table`'s counter now, ascending. */
  take(driver: SqlDriver, d: Dialect, table: string, n: number): Promise<bigint[]>;
  /** Raises `table`'s counter past the highest id the table holds (rows written with their ids). */
  advance(driver: SqlDriver, d: Dialect, table: string): Promise<void>;
}

const POSTGRES: CounterForms = {
  create: () => [],
  // Each number as nextval gave it: another caller's nextval may come between two of ours.
  async take(driver, d, table, n) {
    const r = await driver.query(
      `SELECT nextval(pg_get_serial_sequence($1, 'id'))::text AS id FROM generate_series(1, $2::int)`,
      [d.quote(table), n],
    );
    return r.rows.map((x) => BigInt(String(x.id))).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  },
  // nextval first: when the table's highest id is at or past it, the sequence is set to that id
  // (the next is one above); otherwise the number taken is a gap. Never moves the sequence back.
  async advance(driver, d, table) {
    const q = d.quote;
    await driver.query(
      `SELECT setval(pg_get_serial_sequence($1, 'id'), x.m) FROM (SELECT max(${q('id')}) AS m FROM ${q(table)}) x ` +
        `WHERE x.m >= nextval(pg_get_serial_sequence($1, 'id'))`,
      [q(table)],
    );
  },
};

const MYSQL: CounterForms = {
  create: (d) => [
    `CREATE TABLE IF NOT EXISTS ${d.quote(ID_COUNTER_TABLE)} (${d.quote('name')} ${d.asciiText(64, true)} NOT NULL ` +
      `PRIMARY KEY, ${d.quote('last')} bigint NOT NULL)${d.tableOptions}`,
  ],
  async take(driver, d, table, n) {
    const q = d.quote;
    const r = await driver.autocommit(
      `INSERT INTO ${q(ID_COUNTER_TABLE)} (${q('name')}, ${q('last')}) VALUES (?, LAST_INSERT_ID(?)) ` +
        `ON DUPLICATE KEY UPDATE ${q('last')} = LAST_INSERT_ID(${q('last')} + ?)`,
      [table, n, n],
    );
    if (!r.insertId) throw new Error(`id counter of ${table}: the database answered no number`);
    const last = BigInt(r.insertId);
    return Array.from({ length: n }, (_, i) => last - BigInt(n - 1 - i));
  },
  async advance(driver, d, table) {
    const q = d.quote;
    const max = (await driver.query(`SELECT MAX(${q('id')}) AS m FROM ${q(table)}`, [])).rows[0].m;
    if (max === null || max === undefined) return;
    await driver.autocommit(
      `INSERT INTO ${q(ID_COUNTER_TABLE)} (${q('name')}, ${q('last')}) VALUES (?, ?) ` +
        `ON DUPLICATE KEY UPDATE ${q('last')} = GREATEST(${q('last')}, ?)`,
      [table, String(max), String(max)],
    );
  },
};

const FORMS: Record<Dialect['name'], CounterForms> = { postgres: POSTGRES, mysql: MYSQL };

/** The counters' own statements for an integer store's schema. */
export const idCounterStatements = (d: Dialect): string[] => FORMS[d.name].create(d);

/** `n` new integer ids of `resource` (an integer space of the store), ascending, as decimal text. */
export async function takeIds(driver: SqlDriver, d: Dialect, resource: string, n: number): Promise<string[]> {
  if (n <= 0) return [];
  return (await FORMS[d.name].take(driver, d, tableModel(resource).table, n)).map(String);
}

/** Every integer table's counter moved past its highest id (after rows were written with their ids). */
export async function advanceIdCounters(driver: SqlDriver, d: Dialect): Promise<void> {
  for (const m of TABLE_MODELS) if (integerSpace(d, m.resource.name)) await FORMS[d.name].advance(driver, d, m.table);
}
