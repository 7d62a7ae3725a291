// PostgreSQL's forms of the stores' own write statements: ON CONFLICT, RETURNING, notifications,
// array parameters and writes inside WITH.
import type { Dialect } from '../dialect.js';
import { keyList, quote } from './postgres-quoting.js';

// UPDATE … RETURNING answers the value set.
const UPDATE_ANSWERS: Dialect['updateAnswers'] = {
  set: (expr) => expr,
  tail: (column) => ` RETURNING ${quote(column)} AS ${column}`,
  read: () => null,
};

export const POSTGRES_WRITES = {
  insertSkipping: (keys) => [
    'INSERT INTO',
    keys ? ` ON CONFLICT (${keyList(keys)}) DO NOTHING` : ' ON CONFLICT DO NOTHING',
  ],
  upsert: (table, keys, set, value) =>
    ` ON CONFLICT (${keyList(keys)}) DO UPDATE SET ` +
    set.map((c) => `${quote(c)} = ${value(`${quote(table)}.${quote(c)}`, `excluded.${quote(c)}`)}`).join(', '),
  upsertRaising: (table, keys, column) => {
    const c = quote(column);
    return (
      ` ON CONFLICT (${keyList(keys)}) DO UPDATE SET ${c} = excluded.${c}` +
      ` WHERE ${quote(table)}.${c} < excluded.${c}`
    );
  },
  updateAnswers: UPDATE_ANSWERS,
  notifyOnUpdate: (table, fn, channel, column) => [
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ ` +
      `BEGIN PERFORM pg_notify('${channel}', NEW.${quote(column)}::text); RETURN NEW; END $$`,
    `DROP TRIGGER IF EXISTS ${fn} ON ${quote(table)}`,
    `CREATE TRIGGER ${fn} AFTER UPDATE ON ${quote(table)} FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
  ],
  arrayRows: true,
  writesInWith: true,
  spansFoldedByDatabase: true,
} satisfies Partial<Dialect>;
