// The storage backends every conformance case runs on: memory always; PostgreSQL, MariaDB and
// MySQL 9 when TEST_POSTGRES_URL / TEST_MYSQL_URL / TEST_MYSQL9_URL are set (in CI they must be
// reachable: a failure, not a skip). `driver` is the storage driver the backend speaks.
import { MysqlDriver } from '../../../storage/mysql/mysql-driver.js';
import { PgDriver } from '../../../storage/postgres/pg-driver.js';
import type { SqlDriver } from '../../../storage/sql/driver.js';

export interface Backend {
  readonly name: string;
  readonly driver: 'memory' | 'postgres' | 'mysql';
  url(): Promise<{ url: string; drop(): Promise<void> } | null>;
}

type SqlKind = 'postgres' | 'mysql' | 'mysql9';
type FreshDb = (kind: SqlKind) => Promise<{ url: string; drop(): Promise<void> } | null>;

async function freshDb(): Promise<FreshDb | null> {
  try {
    const mod = (await import('../../../storage/test-db.js' as string)) as { freshDatabase: FreshDb };
    return mod.freshDatabase;
  } catch {
    return null;
  }
}

const sql = (name: SqlKind, driver: 'postgres' | 'mysql'): Backend => ({
  name,
  driver,
  url: async () => (await freshDb())?.(name) ?? null,
});

/** A driver of an SQL backend's database at `url` (each call a new pool). */
export const sqlDriver = (backend: Backend, url: string): SqlDriver =>
  backend.driver === 'postgres' ? new PgDriver(url) : new MysqlDriver(url);

export const BACKENDS: readonly Backend[] = [
  { name: 'memory', driver: 'memory', url: async () => ({ url: 'memory:', drop: async () => {} }) },
  sql('postgres', 'postgres'),
  sql('mysql', 'mysql'),
  sql('mysql9', 'mysql'),
];
