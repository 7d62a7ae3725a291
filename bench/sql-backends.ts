// SQL backends for the benchmark: a fresh database each, or a line saying why one is skipped.
import { formatAddress, parseCidr } from '../engine/net/ip.js';
import { PgDriver } from '../storage/postgres/pg-driver.js';
import { hostInside, parentBlock } from './query-classes.js';
/** Extra timed statements and the connection they use (closed before the database is dropped). */
/** Extra timed queries; each resolves to the number of rows it matches. */
export interface Extra { readonly fns: Record<string, () => Promise<number>>; close(): Promise<void> }

export interface SqlBackend {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
  /** Extra comparisons on the same data (e.g. Nautobot's SQL form). */
  readonly extra?: (samples: readonly string[]) => Promise<Extra>;
}

type FreshDb = (kind: 'postgres' | 'mysql') => Promise<{ url: string; drop(): Promise<void> } | null>;

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
    const pick = (k: number) => v4[(7 + k) % v4.length]; // queryClasses(samples, 7)
    const cols = 'id, created, last_updated, prefix, network, broadcast, prefix_length, family, status, site, vlan, description, tags, custom_fields';
    const run = async (where: string, params: unknown[]) => {
      await driver.query(`SELECT ${cols} FROM prefix WHERE ${where} ORDER BY net_block, prefix_length, id LIMIT 50`, params);
      const counted = await driver.query(`SELECT count(*) AS n FROM prefix WHERE ${where}`, params);
      return Number(counted.rows[0].n);
    };
    const block = parseCidr(parentBlock(pick(2), 24))!;
    const fns = {
      'net_host (Nautobot SQL form)': () => run(`prefix_length <= 32 AND $1::inet BETWEEN CAST(HOST(net_block) AS inet) AND CAST(HOST(broadcast(net_block)) AS inet)`, [hostInside(pick(0))]),
      'net_contained (selective, Nautobot SQL form)': () => run(`prefix_length > $3 AND CAST(HOST(net_block) AS inet) BETWEEN $1::inet AND $2::inet`,
        [formatAddress({ family: 4, hex: block.network }), formatAddress({ family: 4, hex: block.broadcast }), block.length]),
    };
    return { fns, close: () => driver.close() };
  };
}

export async function sqlBackends(wanted: ReadonlySet<string>): Promise<SqlBackend[]> {
  process.env.TEST_POSTGRES_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  process.env.TEST_MYSQL_URL ??= 'mysql://root@127.0.0.1:3306/test';
  let fresh: FreshDb;
  try {
    fresh = ((await import('../storage/test-db.js' as string)) as { freshDatabase: FreshDb }).freshDatabase;
  } catch {
    if (wanted.has('postgres') || wanted.has('mysql')) console.log('  SQL backends skipped: this build has no SQL storage');
    return [];
  }
  const out: SqlBackend[] = [];
  for (const name of ['postgres', 'mysql'] as const) {
    if (!wanted.has(name)) continue;
    try {
      const db = await fresh(name);
      if (db) out.push({ name, url: db.url, drop: db.drop, extra: name === 'postgres' ? nautobotForm(db.url) : undefined });
      else console.log(`  ${name} skipped: not configured`);
    } catch (e) {
      console.log(`  ${name} skipped: not reachable (${(e as Error).message})`);
    }
  }
  return out;
}
