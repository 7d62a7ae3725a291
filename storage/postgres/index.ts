// PostgreSQL storage: `postgres://user@host:5432/db` (or postgresql://).
import type { Storage, StorageOptions } from '../types.js';
import { SqlStorage } from '../sql/sql-storage.js';
import { PgDriver } from './pg-driver.js';

export function createPostgresStorage(url: string, opts: StorageOptions = {}): Storage {
  return new SqlStorage(
    new PgDriver(url, {
      statementTimeoutMs: opts.queryTimeoutMs,
      max: opts.poolSize,
      poolWaitMs: opts.poolWaitTimeoutMs,
    }),
    opts,
  );
}

export { PgDriver };
