// The change log's sequence on SQL: one counter row, raised inside the write's own transaction as
// late as possible (just before the records are inserted). Writes that log take turns on its row
// lock until they commit, so numbers are handed out in commit order with no gap — a database
// sequence is allocated in statement order, and a follower reading `seq > 41` could miss 42 while
// 43 is already visible. Only identifiers and constants are written into the text; values are bound.
import type { Dialect } from './dialect.js';

export const COUNTER_TABLE = 'change_counter';

export interface CounterStatement { readonly sql: string; readonly params: readonly unknown[] }

/** Migration: the counter table and its one row (each statement idempotent). */
export function changeCounterStatements(d: Dialect): string[] {
  const q = d.quote;
  const create = `CREATE TABLE IF NOT EXISTS ${q(COUNTER_TABLE)} (${q('id')} integer NOT NULL PRIMARY KEY, ${q('seq')} bigint NOT NULL)`;
  return d.name === 'postgres'
    ? [create, `INSERT INTO ${q(COUNTER_TABLE)} (${q('id')}, ${q('seq')}) VALUES (1, 0) ON CONFLICT DO NOTHING`]
    : [`${create} ENGINE=InnoDB`, `INSERT IGNORE INTO ${q(COUNTER_TABLE)} (${q('id')}, ${q('seq')}) VALUES (1, 0)`];
}

/** The channel PostgreSQL notifies at each commit that took numbers (payload: the new counter value). */
export const CHANGE_CHANNEL = 'netinv_changes';

/**
 * Migration: on PostgreSQL a trigger on the counter notifies CHANGE_CHANNEL, so processes following
 * the log wake when another process commits (the notification is delivered at commit). MySQL has
 * no notifications: followers there read the counter at short intervals.
 */
export function changeNotifyStatements(d: Dialect): string[] {
  if (d.name !== 'postgres') return [];
  const q = d.quote;
  return [
    `CREATE OR REPLACE FUNCTION netinv_change_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('${CHANGE_CHANNEL}', NEW.${q('seq')}::text); RETURN NEW; END $$`,
    `DROP TRIGGER IF EXISTS netinv_change_notify ON ${q(COUNTER_TABLE)}`,
    `CREATE TRIGGER netinv_change_notify AFTER UPDATE ON ${q(COUNTER_TABLE)} FOR EACH ROW EXECUTE FUNCTION netinv_change_notify()`,
  ];
}

/**
 * Takes `count` numbers after max(counter, carried) (carried: the highest number rows of the batch
 * already hold, when a log is copied). PostgreSQL answers the new value at once; MySQL keeps it as
 * the connection's LAST_INSERT_ID, read by `readTaken`.
 */
export function takeNumbers(d: Dialect, count: number, carried: number): CounterStatement {
  const q = d.quote;
  const raised = `GREATEST(${q('seq')}, ${d.placeholder(1, 'bigint')}) + ${d.placeholder(2, 'bigint')}`;
  return d.name === 'postgres'
    ? { sql: `UPDATE ${q(COUNTER_TABLE)} SET ${q('seq')} = ${raised} WHERE ${q('id')} = 1 RETURNING ${q('seq')} AS seq`, params: [carried, count] }
    : { sql: `UPDATE ${q(COUNTER_TABLE)} SET ${q('seq')} = LAST_INSERT_ID(${raised}) WHERE ${q('id')} = 1`, params: [carried, count] };
}

/**
 * MySQL: the value `takeNumbers` left on the connection, for a driver that does not give the
 * UPDATE's insert id (which carries LAST_INSERT_ID(expr): storage reads that first, one round trip
 * fewer); null where the UPDATE answers it (PostgreSQL).
 */
export function readTaken(d: Dialect): CounterStatement | null {
  return d.name === 'postgres' ? null : { sql: 'SELECT LAST_INSERT_ID() AS seq', params: [] };
}

/** The last number handed out (what a write that changed nothing answers in X-Change-Seq). */
export function currentNumber(d: Dialect): CounterStatement {
  const q = d.quote;
  return { sql: `SELECT ${q('seq')} AS seq FROM ${q(COUNTER_TABLE)} WHERE ${q('id')} = 1`, params: [] };
}
