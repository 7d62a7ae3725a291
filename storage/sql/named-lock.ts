// A session-level named lock around `fn` (migrations from several processes run once). The lock
// and unlock statements are the only dialect difference; taking and releasing is shared.
import type { SqlSession } from './driver.js';

export interface LockStatements {
  readonly lock: string; // one bound parameter: the lock name
  readonly unlock: string;
  readonly granted?: (rows: readonly Record<string, unknown>[]) => boolean;
}

export async function withNamedLock<T>(
  s: SqlSession,
  st: LockStatements,
  name: string,
  fn: (s: SqlSession) => Promise<T>,
): Promise<T> {
  const got = await s.query(st.lock, [name]);
  if (st.granted && !st.granted(got.rows)) throw new Error(`could not take lock ${name}`);
  try {
    return await fn(s);
  } finally {
    await s.query(st.unlock, [name]).catch(() => undefined);
  }
}
