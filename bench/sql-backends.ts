// SQL backends for the benchmark: a fresh database each, or a line saying why one is skipped.
import { formatAddress, parseCidr } from '../engine/net/ip.js';
import { PgDriver } from '../storage/postgres/pg-driver.js';
import { MysqlDriver } from '../storage/mysql/mysql-driver.js';
import { BENCH_PICK, hostInside, parentBlock } from './query-classes.js';
/** Extra timed statements and the connection they use (closed before the database is dropped). */
/** Extra timed queries; each resolves to the number of rows it matches. */
export interface Extra {
  readonly fns: Record<string, () => Promise<number>>;
  close(): Promise<void>;
}

export interface SqlBackend {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
  /** Extra comparisons on the same data (e.g. Nautobot's SQL form). */
  readonly extra?: (samples: readonly string[]) => Promise<Extra>;
  /** The server's own version string (MariaDB and MySQL share a client, so the client's says little). */
  readonly version: string;
}

type SqlKind = 'postgres' | 'mysql' | 'mysql9';
type FreshDb = (kind: SqlKind) => Promise<{ url: string; drop(): Promise<void> } | null>;
/** The SQL servers a benchmark can run on: MariaDB is `mysql`, Oracle MySQL 9 `mysql9`. */
export const SQL_BACKENDS: readonly SqlKind[] = ['postgres', 'mysql', 'mysql9'];

/**
 * Nautobot's lookup SQL on the same PostgreSQL data, for comparison: the stored column wrapped in a
 * conversion and compared with the value, which no index can serve. Values as the query classes
 * net_host and net_contained (selective) use them.
 */
function nautobotForm(url: string): (samples: readonly string[]) => Promise<Extra> {
  return async (samples) => {
    const driver = new PgDriver(url);
    await driver.connect();
    const v4 = samples.filter((s) => !s.includes(':'));
    const pick = (k: number) => v4[(BENCH_PICK + k) % v4.length]; // as queryClasses(samples, BENCH_PICK)
    const cols =
      'id, created, last_updated, prefix, network, broadcast, prefix_length, family, status, site, vlan, ' +
      'description, tags, custom_fields';
    const run = async (where: string, params: unknown[]) => {
      await driver.query(
        `SELECT ${cols} FROM prefix WHERE ${where} ORDER BY net_block, prefix_length, id LIMIT 50`,
        params,
      );
      const counted = await driver.query(`SELECT count(*) AS n FROM prefix WHERE ${where}`, params);
      return Number(counted.rows[0].n);
    };
    const block = parseCidr(parentBlock(pick(2), 24))!;
    const fns = {
      'net_host (Nautobot SQL form)': () =>
        run(
          `prefix_length <= 32 AND $1::inet BETWEEN CAST(HOST(net_block) AS inet) AND ` +
            `CAST(HOST(broadcast(net_block)) AS inet)`,
          [hostInside(pick(0))],
        ),
      'net_contained (selective, Nautobot SQL form)': () =>
        run(`prefix_length > $3 AND CAST(HOST(net_block) AS inet) BETWEEN $1::inet AND $2::inet`, [
          formatAddress({ family: 4, hex: block.network }),
          formatAddress({ family: 4, hex: block.broadcast }),
          block.length,
        ]),
    };
    return { fns, close: () => driver.close() };
  };
}

async function serverVersion(kind: SqlKind, url: string): Promise<string> {
  const driver = kind === 'postgres' ? new PgDriver(url) : new MysqlDriver(url);
  try {
    return String(
      (await driver.query(kind === 'postgres' ? 'SHOW server_version' : 'SELECT VERSION() AS v')).rows[0]?.[
        kind === 'postgres' ? 'server_version' : 'v'
      ],
    );
  } finally {
    await driver.close();
  }
}

export async function sqlBackends(wanted: ReadonlySet<string>): Promise<SqlBackend[]> {
  process.env.TEST_POSTGRES_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  process.env.TEST_MYSQL_URL ??= 'mysql://root@127.0.0.1:3306/test';
  process.env.TEST_MYSQL9_URL ??= 'mysql://root@127.0.0.1:3307/test';
  let fresh: FreshDb;
  try {
    fresh = ((await import('../storage/test-db.js' as string)) as { freshDatabase: FreshDb }).freshDatabase;
  } catch {
    if (SQL_BACKENDS.some((k) => wanted.has(k))) console.log('  SQL backends skipped: this build has no SQL storage');
    return [];
  }
  const out: SqlBackend[] = [];
  for (const name of SQL_BACKENDS) {
    if (!wanted.has(name)) continue;
    try {
      const db = await fresh(name);
      if (db)
        out.push({
          name,
          url: db.url,
          drop: db.drop,
          extra: name === 'postgres' ? nautobotForm(db.url) : undefined,
          version: await serverVersion(name, db.url),
        });
      else console.log(`  ${name} skipped: not configured`);
    } catch (e) {
      console.log(`  ${name} skipped: not reachable (${(e as Error).message})`);
    }
  }
  return out;
}
