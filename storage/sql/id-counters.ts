// Integer ids (NetBox's style) come from the database, one counter per table, so that every process
// and replica on the database draws from the same numbers and none is handed out twice; a number
// once taken is never given again (a delete leaves a gap, as NetBox's sequences do). How each
// database keeps its counters is the dialect's (Dialect.idCounters: PostgreSQL the identity's
// sequence, MySQL / MariaDB a counter table, since AUTO_INCREMENT numbers only rows being inserted).
import { integerSpace } from '../../engine/sql/id-columns.js';
import type { Dialect } from '../../engine/sql/dialect.js';
import { TABLE_MODELS, tableModel } from '../../engine/sql/table-model.js';
import type { SqlDriver } from './driver.js';

/** The counters' own statements for an integer store's schema. */
export const idCounterStatements = (d: Dialect): string[] => d.idCounters.create();

/** `n` new integer ids of `resource` (an integer space of the store), ascending, as decimal text. */
export async function takeIds(driver: SqlDriver, d: Dialect, resource: string, n: number): Promise<string[]> {
  if (n <= 0) return [];
  const st = d.idCounters.take(tableModel(resource).table, n);
  // On a connection of its own, committing by itself: a caller's transaction never holds a counter.
  const r = await driver.autocommit(st.sql, st.params);
  if (r.rows.length)
    return r.rows
      .map((x) => BigInt(String(x.id)))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map(String);
  if (!r.insertId) throw new Error(`id counter of ${resource}: the database answered no number`);
  const last = BigInt(r.insertId);
  return Array.from({ length: n }, (_, i) => String(last - BigInt(n - 1 - i)));
}

/** Every integer table's counter moved past its highest id (after rows were written with their ids). */
export async function advanceIdCounters(driver: SqlDriver, d: Dialect): Promise<void> {
  for (const m of TABLE_MODELS)
    if (integerSpace(d, m.resource.name))
      await driver.transaction(async (s) => {
        for (const st of d.idCounters.advance(m.table)) await s.query(st.sql, st.params);
      });
}
