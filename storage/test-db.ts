// Throw-away databases for tests: TEST_POSTGRES_URL (PostgreSQL), TEST_MYSQL_URL (MariaDB) and
// TEST_MYSQL9_URL (Oracle MySQL 9) name a server (and a database to connect to for administration);
// each call creates a uniquely named database there and returns a STORAGE_URL pointing at it.
// drop() removes it.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import mysql from 'mysql2/promise';

/** Every SQL server the suites run on, in the order they report. */
export const TEST_DB_KINDS = ['postgres', 'mysql', 'mysql9'] as const;
export type TestDbKind = (typeof TEST_DB_KINDS)[number];

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

const SERVERS: Record<TestDbKind, { env: string; driver: 'postgres' | 'mysql'; example: string }> = {
  postgres: { env: 'TEST_POSTGRES_URL', driver: 'postgres', example: 'postgres://postgres@127.0.0.1:5432/test' },
  mysql: { env: 'TEST_MYSQL_URL', driver: 'mysql', example: 'mysql://root@127.0.0.1:3306/test' },
  mysql9: { env: 'TEST_MYSQL9_URL', driver: 'mysql', example: 'mysql://root@127.0.0.1:3307/test' },
};

export function testDbEnv(kind: TestDbKind): string {
  return SERVERS[kind].env;
}

/** The storage driver a test server speaks: MariaDB and MySQL share one. */
export function testDbDriver(kind: TestDbKind): 'postgres' | 'mysql' {
  return SERVERS[kind].driver;
}

function withDatabase(base: string, name: string): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A new empty database, or null when the variable for `kind` is unset. Throws when unreachable. */
export async function freshDatabase(kind: TestDbKind): Promise<TestDatabase | null> {
  const base = process.env[SERVERS[kind].env];
  if (!base) return null;
  const name = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (testDbDriver(kind) === 'postgres') {
    const admin = async (sql: string) => {
      const c = new pg.Client({ connectionString: base, connectionTimeoutMillis: 5000 });
      await c.connect();
      try {
        await c.query(sql);
      } finally {
        await c.end();
      }
    };
    await admin(`CREATE DATABASE "${name}"`);
    return { url: withDatabase(base, name), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
  }
  const admin = async (sql: string) => {
    const c = await mysql.createConnection({ uri: base, connectTimeout: 5000 });
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  return { url: withDatabase(base, name), drop: () => admin(`DROP DATABASE IF EXISTS \`${name}\``) };
}

/**
 * For test suites: a fresh database, or the reason to skip. Unset variable: skip. Set but
 * unreachable: skip with the error, except under CI=true, where it throws (the suite fails).
 */
export async function testDatabaseOrSkip(kind: TestDbKind): Promise<TestDatabase | { skip: string }> {
  const { env, example } = SERVERS[kind];
  let db: TestDatabase | null;
  try {
    db = await freshDatabase(kind);
  } catch (e) {
    const msg = `${env} is set but the database is unreachable: ${(e as Error).message}`;
    if (process.env.CI === 'true') throw new Error(msg);
    return { skip: msg };
  }
  return db ?? { skip: `${env} is not set: ${kind} tests skipped (e.g. ${env}=${example})` };
}
