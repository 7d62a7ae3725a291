// Ending another database session for sure: how a write whose COMMIT was in flight on a lost
// connection is settled (storage/sql/commit-outcome.ts). The session is asked to end, then watched
// until the database no longer lists it; only then can its commit no longer happen later.
import type { SqlText } from '../../engine/sql/sql-builder.js';
import type { QueryResult } from './driver.js';

/** A dialect's two statements: ask session $1 to end; one row while it still exists. */
export interface SessionEndStatements {
  readonly terminate: (session: number) => SqlText;
  readonly alive: (session: number) => SqlText;
}

/** How long a session may take to go after it was told to (a large rollback): then the outcome is unknown. */
const GONE_WITHIN_MS = 10_000;
const LOOK_EVERY_MS = 50;

export async function endSession(
  query: (sql: string, params: readonly unknown[]) => Promise<QueryResult>,
  st: SessionEndStatements,
  session: number,
): Promise<void> {
  const t = st.terminate(session);
  // A session already gone makes the request fail or warn; what counts is that it is gone.
  await query(t.sql, t.params).catch(() => undefined);
  const until = Date.now() + GONE_WITHIN_MS;
  for (;;) {
    const a = st.alive(session);
    if ((await query(a.sql, a.params)).rows.length === 0) return;
    if (Date.now() > until)
      throw new Error(`database session ${session} is still there ${GONE_WITHIN_MS} ms after it was ended`);
    await new Promise((r) => setTimeout(r, LOOK_EVERY_MS));
  }
}
