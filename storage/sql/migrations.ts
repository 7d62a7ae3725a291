// Versioned migrations, run at open and by `npm run migrate`. Each version runs once per database
// (recorded in schema_migrations, with a checksum of its statements, checked at every start:
// migrations/recorded.ts); every statement is idempotent, so a run interrupted before its record
// (MySQL DDL commits as it goes) is re-run safely. Concurrent starters are serialised by a database
// lock. A later schema change is a new version: version 1 is frozen text (migrations/first-release.ts).
import type { Dialect } from '../../engine/sql/dialect.js';
import {
  addedFieldStatements,
  addedIndexStatements,
  addedTableStatements,
  historyPatchStatements,
  rowVersionStatements,
  spgistPerFamilyStatements,
  substringIndexStatements,
} from '../../engine/sql/ddl.js';
import type { SqlDriver } from './driver.js';
import { allocationHintStatements } from '../../engine/sql/allocation-hints.js';
import { coverMarkStatements } from '../../engine/sql/cover-marks.js';
import { changeCounterStatements, changeNotifyStatements } from '../../engine/sql/change-counter.js';
import { relatedCountStatements } from '../../engine/sql/related-counts.js';
import { firstReleaseStatements } from './migrations/first-release.js';
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

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'inventory schema of the first release (frozen text)', statements: firstReleaseStatements },
  { version: 2, name: 'substring (trigram) indexes on searchable text columns', statements: substringIndexStatements },
  {
    version: 3,
    name: 'network SP-GiST indexes split per address family (PostgreSQL)',
    statements: spgistPerFamilyStatements,
  },
  {
    version: 4,
    name: 'row versions on inventory tables (lost-update protection, ETags)',
    statements: rowVersionStatements,
  },
  { version: 5, name: 'history rows store what an event changed in the context', statements: historyPatchStatements },
  {
    version: 6,
    name: 'manufacturers, device types, device roles and platforms; devices get device_type, role and platform',
    statements: (d) => [
      ...addedTableStatements(d, ['manufacturer', 'device_type', 'device_role', 'platform']),
      ...addedFieldStatements(d, 'device', ['device_type', 'role', 'platform']),
    ],
  },
  {
    version: 7,
    name: 'allocation hints: where allocation in a parent continues, voided by deletes',
    statements: allocationHintStatements,
  },
  {
    version: 8,
    name: 'the change log (object_change) and the counter that numbers it',
    statements: (d) => [...addedTableStatements(d, ['object_change']), ...changeCounterStatements(d)],
  },
  {
    version: 9,
    name: 'cover marks: how far each prefix is covered from its start (allocation reads from there)',
    statements: coverMarkStatements,
  },
  {
    version: 10,
    name: 'webhooks, their deliveries and the outbox cursor',
    statements: (d) => addedTableStatements(d, ['webhook', 'webhook_delivery', 'webhook_cursor']),
  },
  {
    version: 11,
    name: 'PostgreSQL notifies followers of the change log at each commit that took numbers',
    statements: changeNotifyStatements,
  },
  {
    version: 12,
    name: 'indexes on the change log fields lists filter by (object type and id, request id, time)',
    statements: (d) => addedIndexStatements(d, 'object_change'),
  },
  {
    version: 13,
    name:
      'tenancy, site groups, locations, racks, clusters, virtual machines and services; ' +
      'their references on sites, devices, VLANs, prefixes and IP addresses',
    statements: (d) => [
      ...addedTableStatements(d, ['site_group', 'tenant_group', 'tenant']),
      ...addedFieldStatements(d, 'site', ['group', 'tenant']),
      ...addedTableStatements(d, ['location', 'rack_role', 'rack', 'cluster_type', 'cluster_group', 'cluster']),
      ...addedFieldStatements(d, 'device', [
        'tenant',
        'location',
        'rack',
        'position',
        'cluster',
        'primary_ip4',
        'primary_ip6',
        'primary_ip',
      ]),
      ...addedTableStatements(d, ['virtual_machine', 'vminterface']),
      ...addedFieldStatements(d, 'vlan', ['tenant']),
      ...addedFieldStatements(d, 'prefix', ['tenant']),
      ...addedFieldStatements(d, 'ip_address', ['vminterface', 'tenant']),
      ...addedTableStatements(d, ['service']),
    ],
  },
  {
    version: 14,
    name:
      'related counts kept by triggers in the writing transaction ' +
      '(a page reads its counts, not every referencing row)',
    statements: relatedCountStatements,
  },
  {
    version: 15,
    name: 'webhook chains: the delivery a change answered (X-Netinv-Webhook) and how many led to a delivery',
    statements: (d) => [
      ...addedFieldStatements(d, 'object_change', ['webhook_delivery']),
      ...addedFieldStatements(d, 'webhook_delivery', ['chain']),
    ],
  },
];

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
