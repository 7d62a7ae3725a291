// MySQL 8 / MariaDB storage: `mysql://user:password@host:3306/db`.
import type { Storage, StorageOptions } from '../types.js';
import { SqlStorage } from '../sql/sql-storage.js';
import { MysqlDriver } from './mysql-driver.js';

export function createMysqlStorage(url: string, opts: StorageOptions = {}): Storage {
  return new SqlStorage(
    new MysqlDriver(url, {
      statementTimeoutMs: opts.queryTimeoutMs,
      connectionLimit: opts.poolSize,
      poolWaitMs: opts.poolWaitTimeoutMs,
    }),
    opts,
  );
}

export { MysqlDriver };
