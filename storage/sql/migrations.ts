// Versioned migrations, run at open and by `npm run migrate`. Each version runs once per database
// (recorded in schema_migrations, with a checksum of its statements, checked at every start:
// migrations/recorded.ts); every statement is idempotent, so a run interrupted before its record
// (MySQL DDL commits as it goes) is re-run safely. Concurrent starters are serialised by a database
// lock. A later schema change is a new version; the released ones are frozen text
// (migrations/released.ts), never computed from today's registry.
import type { Dialect } from '../../engine/sql/dialect.js';
import type { SqlDriver } from './driver.js';
import { released } from './migrations/released.js';
import {
  asRecorded,
  checkRecorded,
  MIGRATIONS_TABLE,
  recordedSql,
  recordSql,
  rewriteSql,
  type Migration,
} from './migrations/recorded.js';

export { checksum, MIGRATIONS_TABLE, type Migration } from './migrations/recorded.js';

/** Versions released so far, their statements in migrations/released-<kind>.sql. */
const RELEASED: readonly (readonly [number, string])[] = [
  [1, 'inventory schema of the first release (frozen text)'],
  [2, 'substring (trigram) indexes on searchable text columns'],
  [3, 'network SP-GiST indexes split per address family (PostgreSQL)'],
  [4, 'row versions on inventory tables (lost-update protection, ETags)'],
  [5, 'history rows store what an event changed in the context'],
  [6, 'manufacturers, device types, device roles and platforms; devices get device_type, role and platform'],
  [7, 'allocation hints: where allocation in a parent continues, voided by deletes'],
  [8, 'the change log (object_change) and the counter that numbers it'],
  [9, 'cover marks: how far each prefix is covered from its start (allocation reads from there)'],
  [10, 'webhooks, their deliveries and the outbox cursor'],
  [11, 'PostgreSQL notifies followers of the change log at each commit that took numbers'],
  [12, 'indexes on the change log fields lists filter by (object type and id, request id, time)'],
  [
    13,
    'tenancy, site groups, locations, racks, clusters, virtual machines and services; ' +
      'their references on sites, devices, VLANs, prefixes and IP addresses',
  ],
  [
    14,
    'related counts kept by triggers in the writing transaction ' +
      '(a page reads its counts, not every referencing row)',
  ],
  [15, 'webhook chains: the delivery a change answered (X-Netinv-Webhook) and how many led to a delivery'],
  [16, "NetBox 4.2's rules: a device's name may be empty; every NetBox 4.2 interface type fits its column"],
];

/**
 * Every migration in order. A new one may compute its statements (engine/sql/ddl.ts: addedTableStatements,
 * addedFieldStatements, ...) until it is released; then its text joins released-<kind>.sql, so that a
 * later registry change cannot change what it runs (nor its checksum).
 */
export const MIGRATIONS: readonly Migration[] = RELEASED.map(([version, name]) => ({
  version,
  name,
  statements: released(version),
}));

/**
 * Versions this build knows that the database has not applied (a reader's check: it may not migrate,
 * e.g. a standby). The recorded checksums are checked as at a migrating start, never rewritten here.
 */
export async function pendingMigrations(driver: SqlDriver, d: Dialect): Promise<number[]> {
  const recorded = await driver.query(recordedSql(d), []).then(
    (r) => asRecorded(r.rows),
    () => [],
  );
  checkRecorded(recorded, MIGRATIONS, d);
  const done = new Set(recorded.map((r) => r.version));
  return MIGRATIONS.filter((m) => !done.has(m.version)).map((m) => m.version);
}

/** Checks the recorded migrations (rewriting an earlier release's records once), applies the missing
 * ones; returns the versions applied now. */
export async function migrate(driver: SqlDriver, d: Dialect): Promise<number[]> {
  return driver.exclusive('netinv.schema_migrations', async (s) => {
    await s.query(d.migrationsTable(MIGRATIONS_TABLE));
    const recorded = asRecorded((await s.query(recordedSql(d))).rows);
    for (const m of checkRecorded(recorded, MIGRATIONS, d)) {
      const rewrite = rewriteSql(d, m);
      await s.query(rewrite.sql, rewrite.params);
    }
    const done = new Set(recorded.map((r) => r.version));
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      if (driver.transactionalDdl) await s.query('BEGIN');
      try {
        for (const sql of m.statements(d)) await s.query(sql);
        const record = recordSql(d, m);
        await s.query(record.sql, record.params);
        if (driver.transactionalDdl) await s.query('COMMIT');
      } catch (e) {
        if (driver.transactionalDdl) await s.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
      applied.push(m.version);
    }
    return applied;
  });
}
