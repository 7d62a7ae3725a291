// Whether a write whose connection was lost with its COMMIT in flight committed. Every logged
// write names itself in its own transaction: its change records carry ids made before it was sent.
// The lost session is ended first (a COMMIT still on its way cannot land after the answer), then
// its last record is looked up: there, the write committed with that seq; absent, it never will.
import type { Dialect } from '../../engine/sql/dialect.js';
import { SqlBuilder } from '../../engine/sql/sql-builder.js';
import { idParam } from '../../engine/sql/id-columns.js';
import { CommitUnknown, StorageUnavailable } from '../types.js';
import type { CommitInDoubt, SqlDriver } from './driver.js';

export type Outcome = { readonly committed: true; readonly seq: number } | { readonly committed: false };

/**
 * `recordId`: the id of the write's last change record (null: the write logged none, so nothing
 * names it). Throws CommitUnknown when the database cannot be asked.
 */
export async function commitOutcome(
  driver: SqlDriver,
  d: Dialect,
  changeTable: string,
  doubt: CommitInDoubt,
  recordId: string | null,
): Promise<Outcome> {
  if (recordId === null)
    throw new CommitUnknown('a write that names itself nowhere lost its connection with COMMIT in flight');
  try {
    await driver.endSession(doubt.session);
    const q = new SqlBuilder(d)
      .emit(`SELECT ${d.quote('seq')} AS seq FROM ${d.quote(changeTable)} WHERE ${d.quote('id')} = `)
      .param(recordId, idParam(d, changeTable))
      .build();
    const r = await driver.query(q.sql, q.params);
    return r.rows.length ? { committed: true, seq: Number(r.rows[0].seq) } : { committed: false };
  } catch (e) {
    throw new CommitUnknown(
      'the connection was lost with COMMIT in flight, and whether it committed cannot be read: ' +
        ((e as Error).message ?? String(e)),
    );
  }
}

/** What a write whose outcome was settled throws when it did not commit: nothing was written, a retry is safe. */
export const notCommitted = (doubt: CommitInDoubt): StorageUnavailable =>
  new StorageUnavailable(
    'the connection was lost before the write committed (nothing was written): ' +
      ((doubt.reason as Error)?.message ?? String(doubt.reason)),
  );
