// The change log's sequence on SQL: one counter row, raised inside the write's own transaction as
// late as possible (just before the records are inserted). Writes that log take turns on its row
// lock until they commit, so numbers are handed out in commit order with no gap — a database
// sequence is allocated in statement order, and a follower reading `seq > 41` could miss 42 while
// 43 is already visible. Only identifiers and constants are written into the text; values are bound.
import type { Dialect } from './dialect.js';
import { SqlBuilder, type SqlText } from './sql-builder.js';

export const COUNTER_TABLE = 'change_counter';

/** Migration: the counter table and its one row (each statement idempotent). */
export function changeCounterStatements(d: Dialect): string[] {
  const q = d.quote;
  const [insert, skip] = d.insertSkipping();
  return [
    `CREATE TABLE IF NOT EXISTS ${q(COUNTER_TABLE)} (${q('id')} integer NOT NULL PRIMARY KEY, ` +
      `${q('seq')} bigint NOT NULL)${d.tableOptions}`,
    `${insert} ${q(COUNTER_TABLE)} (${q('id')}, ${q('seq')}) VALUES (1, 0)${skip}`,
  ];
}

/** The channel PostgreSQL notifies at each commit that took numbers (payload: the new counter value). */
export const CHANGE_CHANNEL = 'netinv_changes';

/**
 * Migration: on PostgreSQL a trigger on the counter notifies CHANGE_CHANNEL, so processes following
 * the log wake when another process commits (the notification is delivered at commit). MySQL has
 * no notifications: followers there read the counter at short intervals.
 */
export function changeNotifyStatements(d: Dialect): string[] {
  return d.notifyOnUpdate(COUNTER_TABLE, 'netinv_change_notify', CHANGE_CHANNEL, 'seq');
}

/**
 * Takes `count` numbers after max(counter, carried) (carried: the highest number rows of the batch
 * already hold, when a log is copied). PostgreSQL answers the new value at once; MySQL keeps it as
 * the connection's LAST_INSERT_ID, read by `readTaken`.
 */
export function takeNumbers(d: Dialect, count: number, carried: number): SqlText {
  const q = d.quote,
    b = new SqlBuilder(d);
  const raised = b.render((r) =>
    r
      .emit(`GREATEST(${q('seq')}, `)
      .param(carried, 'bigint')
      .emit(') + ')
      .param(count, 'bigint'),
  );
  return b
    .emit(
      `UPDATE ${q(COUNTER_TABLE)} SET ${q('seq')} = ${d.updateAnswers.set(raised)} ` +
        `WHERE ${q('id')} = 1${d.updateAnswers.tail('seq')}`,
    )
    .build();
}

/**
 * MySQL: the value `takeNumbers` left on the connection, for a driver that does not give the
 * UPDATE's insert id (which carries LAST_INSERT_ID(expr): storage reads that first, one round trip
 * fewer); null where the UPDATE answers it (PostgreSQL).
 */
export function readTaken(d: Dialect): SqlText | null {
  return d.updateAnswers.read('seq');
}

/** The last number handed out (what a write that changed nothing answers in X-Change-Seq). */
export function currentNumber(d: Dialect): SqlText {
  const q = d.quote;
  return { sql: `SELECT ${q('seq')} AS seq FROM ${q(COUNTER_TABLE)} WHERE ${q('id')} = 1`, params: [] };
}
