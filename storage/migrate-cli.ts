// `npm run migrate`: applies the schema migrations for STORAGE_URL (PostgreSQL or MySQL) and
// exits. The server runs the same migrations at start; this is for deploy pipelines.
import { ID_STYLES, type IdStyleName } from '../engine/schema/id-style.js';
import { migrationsOf } from './sql/migrations.js';
import { SqlStorage } from './sql/sql-storage.js';
import { PgDriver } from './postgres/pg-driver.js';
import { MysqlDriver } from './mysql/mysql-driver.js';
import { argsOrExit, type CliSpec } from './cli-args.js';

export const MIGRATE_CLI: CliSpec = {
  command: 'npm run migrate --',
  summary:
    'Applies the schema migrations the database in STORAGE_URL lacks, then exits ' +
    '(the server applies them at start too).',
  flags: [],
  env: [
    { name: 'STORAGE_URL', help: 'the database: postgres://user@host:5432/db or mysql://user@host:3306/db' },
    // A deploy pipeline may create the store here, before the first server start: the style it gets.
    { name: 'ID_STYLE', help: 'uuid (default) or integer: the id style of a store created now; a store keeps its own' },
  ],
};

async function main(): Promise<number> {
  argsOrExit(MIGRATE_CLI);
  const url = process.env.STORAGE_URL;
  if (!url) {
    console.error('migrate: STORAGE_URL is not set (postgres://user@host:5432/db or mysql://user@host:3306/db)');
    return 2;
  }
  const scheme = url.slice(0, url.indexOf(':') + 1);
  if (scheme === 'memory:') {
    console.log('migrate: memory storage has no schema; nothing to do');
    return 0;
  }
  if (scheme !== 'postgres:' && scheme !== 'postgresql:' && scheme !== 'mysql:') {
    console.error(`migrate: unsupported STORAGE_URL scheme "${scheme}" (expected postgres:, postgresql: or mysql:)`);
    return 2;
  }
  const style = process.env.ID_STYLE || undefined;
  if (style !== undefined && !ID_STYLES.includes(style as IdStyleName)) {
    console.error(`migrate: ID_STYLE must be one of ${ID_STYLES.join(', ')}, not "${style}"`);
    return 2;
  }
  const storage = new SqlStorage(scheme === 'mysql:' ? new MysqlDriver(url) : new PgDriver(url), {
    idStyle: style as IdStyleName | undefined,
  });
  try {
    await storage.open();
    const applied = storage.appliedMigrations;
    const MIGRATIONS = migrationsOf(storage.ids.name);
    const latest = MIGRATIONS[MIGRATIONS.length - 1].version;
    if (applied.length)
      console.log(
        `migrate: applied ${applied.map((v) => `#${v} ${MIGRATIONS.find((m) => m.version === v)!.name}`).join(', ')}`,
      );
    else console.log(`migrate: schema is up to date (version ${latest})`);
    return 0;
  } catch (e) {
    console.error(`migrate: ${(e as Error).message.split('\n')[0]}`);
    return 1;
  } finally {
    await storage.close().catch(() => undefined);
  }
}

process.exitCode = await main();
