// Versioned migrations, run at open and by `npm run migrate`. Each version runs once per database
// (recorded in schema_migrations, with a checksum of its statements, checked at every start:
// migrations/recorded.ts); every statement is idempotent, so a run interrupted before its record
// (MySQL DDL commits as it goes) is re-run safely. Concurrent starters are serialised by a database
// lock. A later schema change is a new version; the released ones are frozen text
// (migrations/released.ts), never computed from today's registry.
// Two lineages: uuid stores (every store before integer ids) run versions 1-16 as released; integer
// stores (store-style.ts) start at version 16, which makes this build's whole schema with integer
// ids at once. Versions after 16 are shared: each runs on both, with the store's dialect.
import type { IdStyleName } from '../../engine/schema/id-style.js';
import type { Dialect } from '../../engine/sql/dialect.js';
import { withIdStyle } from '../../engine/sql/id-columns.js';
import { ID_STYLE } from '../../engine/schema/id-style.js';
import type { SqlDriver, SqlSession } from './driver.js';
import { idCounterStatements } from './id-counters.js';
import { addedFieldStatements, addedTableStatements } from '../../engine/sql/ddl.js';
import { describedStatements } from './migrations/described.js';
import { released } from './migrations/released.js';
import { recordedStyle, recordStyleSql, settingsTableSql, storeStyle } from './store-style.js';
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

/** Versions after 16, run on both lineages with the store's dialect (not yet released: computed). */
function sharedMigrations(): Migration[] {
  return [
    {
      version: 17,
      name:
        "users, groups and object permissions (NetBox's users app); " +
        'tokens belong to a user, may expire or only read',
      statements: (d) => [
        ...addedTableStatements(d, ['group', 'user', 'object_permission']),
        ...addedFieldStatements(d, 'token', ['user', 'expires', 'write_enabled']),
      ],
    },
    {
      version: 18,
      name: 'background jobs (core.job) and the parts of the files they import',
      statements: (d) => addedTableStatements(d, ['job', 'job_input']),
    },
    {
      version: 19,
      name: "NetBox 4.5's tokens: v2 keys (key id, pepper id), allowed IPs, enabled, last used, a row version",
      statements: (d) =>
        addedFieldStatements(d, 'token', ['version', 'key_id', 'pepper_id', 'allowed_ips', 'enabled', 'last_used']),
    },
  ];
}

/**
 * Every migration in order. A new one may compute its statements (engine/sql/ddl.ts: addedTableStatements,
 * addedFieldStatements, ...) until it is released; then its text joins released-<kind>.sql, so that a
 * later registry change cannot change what it runs (nor its checksum).
 */
export const MIGRATIONS: readonly Migration[] = [
  ...RELEASED.map(([version, name]) => ({ version, name, statements: released(version) })),
  ...sharedMigrations(),
];

/** What an integer store's first migration was computed from (tools that freeze it; not run at a start). */
export const computedIntegerSchema = (d: Dialect): string[] => [...describedStatements(d), ...idCounterStatements(d)];

/**
 * An integer store's first migration: the schema of version 16 made at once, with integer ids, and
 * the MySQL id counters (computed from the registry by describedStatements / idCounterStatements, then
 * frozen in released-<kind>-integer.sql). Recorded as 16 so that every later version is one for both
 * lineages.
 */
export const INTEGER_MIGRATIONS: readonly Migration[] = [
  {
    version: 16,
    name: "integer ids (NetBox's style): the whole schema of version 16, ids numbered by the database",
    statements: released(16),
  },
  ...sharedMigrations(),
];

/** The migrations of a store of `style`, in order. */
export const migrationsOf = (style: IdStyleName): readonly Migration[] =>
  style === 'integer' ? INTEGER_MIGRATIONS : MIGRATIONS;

/** What an open learnt: the store's style, its dialect (carrying the style), and the versions. */
export interface Migrated {
  readonly d: Dialect;
  readonly versions: number[];
}

async function recordedOf(s: SqlSession, d: Dialect) {
  return s.query(recordedSql(d), []).then(
    (r) => asRecorded(r.rows),
    () => [],
  );
}

/**
 * Versions this build knows that the database has not applied (a reader's check: it may not migrate,
 * e.g. a standby). The recorded checksums are checked as at a migrating start, never rewritten here.
 */
export async function pendingMigrations(driver: SqlDriver, d0: Dialect, asked?: IdStyleName): Promise<Migrated> {
  const recorded = await recordedOf(driver, d0);
  const style = storeStyle(await recordedStyle(driver, d0), recorded.length > 0, asked, driver.where);
  const d = withIdStyle(d0, ID_STYLE[style]),
    known = migrationsOf(style);
  checkRecorded(recorded, known, d);
  const done = new Set(recorded.map((r) => r.version));
  return { d, versions: known.filter((m) => !done.has(m.version)).map((m) => m.version) };
}

/** Checks the recorded migrations (rewriting an earlier release's records once), applies the missing
 * ones; returns the versions applied now. */
export async function migrate(driver: SqlDriver, d0: Dialect, asked?: IdStyleName): Promise<Migrated> {
  return driver.exclusive('netinv.schema_migrations', async (s) => {
    await s.query(d0.migrationsTable(MIGRATIONS_TABLE));
    await s.query(settingsTableSql(d0));
    const recorded = asRecorded((await s.query(recordedSql(d0))).rows);
    const stored = await recordedStyle(s, d0);
    const style = storeStyle(stored, recorded.length > 0, asked, driver.where);
    if (stored === null) {
      const st = recordStyleSql(d0, style);
      await s.query(st.sql, st.params);
    }
    const d = withIdStyle(d0, ID_STYLE[style]),
      known = migrationsOf(style);
    for (const m of checkRecorded(recorded, known, d)) {
      const rewrite = rewriteSql(d, m);
      await s.query(rewrite.sql, rewrite.params);
    }
    const done = new Set(recorded.map((r) => r.version));
    const applied: number[] = [];
    for (const m of known) {
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
    return { d, versions: applied };
  });
}
