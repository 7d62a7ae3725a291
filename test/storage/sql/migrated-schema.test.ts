// The schema the migrations build from version 1 (frozen text, as every released version) is the
// schema the registry describes today, on every SQL backend: columns with their types and
// nullability, indexes, constraints and triggers, as information_schema (and pg_indexes) report them.
// A resource, field or count added to the registry without a migration of its own fails here, though
// a fresh database would start. An integer store (ID_STYLE=integer) has a lineage of its own (one
// migration recorded as 16 making the whole schema with integer ids): compared the same way, and its
// id columns are bigint where the resource's ids are store-styled, UUIDs where `uuidIds` keeps them.
import { expect } from 'chai';
import { BACKENDS, sqlDriver, type Backend } from '../../e2e/conformance/backends.js';
import { MIGRATIONS_TABLE } from '../../../storage/sql/migrations.js';
import { SETTINGS_TABLE } from '../../../storage/sql/store-style.js';
import { idCounterStatements } from '../../../storage/sql/id-counters.js';
import { withIdStyle } from '../../../engine/sql/id-columns.js';
import { ID_STYLE, type IdStyleName } from '../../../engine/schema/id-style.js';
import { describedStatements } from '../../../storage/sql/migrations/described.js';
import { SqlStorage } from '../../../storage/sql/sql-storage.js';
import type { SqlDriver } from '../../../storage/sql/driver.js';

/** Per kind of server: queries listing the schema, one line per item (names as the server reports them). */
const CATALOG: Record<Backend['driver'], readonly string[]> = {
  memory: [],
  postgres: [
    `SELECT concat_ws(' ', 'column', table_name, column_name, udt_name, character_maximum_length, numeric_precision,
       is_nullable, column_default, collation_name) AS line
     FROM information_schema.columns WHERE table_schema = current_schema()`,
    `SELECT concat_ws(' ', 'index', tablename, indexname, indexdef) AS line
     FROM pg_indexes WHERE schemaname = current_schema()`,
    // PostgreSQL names NOT NULL checks after object ids: nullability is compared with the columns.
    `SELECT concat_ws(' ', 'constraint', table_name, constraint_name, constraint_type) AS line
     FROM information_schema.table_constraints WHERE table_schema = current_schema()
       AND constraint_name NOT LIKE '%_not_null'`,
    `SELECT concat_ws(' ', 'trigger', event_object_table, trigger_name, event_manipulation, action_timing) AS line
     FROM information_schema.triggers WHERE trigger_schema = current_schema()`,
  ],
  mysql: [
    `SELECT concat_ws(' ', 'column', table_name, column_name, column_type, is_nullable, column_default,
       collation_name, extra) AS line
     FROM information_schema.columns WHERE table_schema = DATABASE()`,
    `SELECT concat_ws(' ', 'index', table_name, index_name, seq_in_index, column_name, non_unique, sub_part,
       index_type) AS line
     FROM information_schema.statistics WHERE table_schema = DATABASE()`,
    `SELECT concat_ws(' ', 'constraint', table_name, constraint_name, constraint_type) AS line
     FROM information_schema.table_constraints WHERE table_schema = DATABASE()`,
    `SELECT concat_ws(' ', 'trigger', event_object_table, trigger_name, event_manipulation, action_timing) AS line
     FROM information_schema.triggers WHERE trigger_schema = DATABASE()`,
  ],
};

async function schemaOf(backend: Backend, driver: SqlDriver): Promise<string[]> {
  const lines: string[] = [];
  for (const sql of CATALOG[backend.driver])
    for (const r of (await driver.query(sql)).rows) lines.push(String(r.line ?? r.LINE));
  return lines.filter((l) => !l.includes(MIGRATIONS_TABLE) && !l.includes(SETTINGS_TABLE)).sort();
}

/** What the registry describes for a store of `style` (an integer store has its id counters besides). */
const DESCRIBED: Record<IdStyleName, typeof describedStatements> = {
  uuid: describedStatements,
  integer: (d) => {
    const styled = withIdStyle(d, ID_STYLE.integer);
    return [...describedStatements(styled), ...idCounterStatements(styled)];
  },
};

/** Id columns as the catalogue names their types: [uuid, integer] per kind of server. */
const ID_TYPES: Record<Backend['driver'], readonly [string, string]> = {
  memory: ['', ''],
  postgres: ['uuid', 'int8'],
  mysql: ['char(36)', 'bigint'],
};

for (const backend of BACKENDS.filter((b) => b.name !== 'memory'))
  for (const style of ['uuid', 'integer'] as const) {
    describe(`migrated schema of a ${style} store on ${backend.name}`, function () {
      this.timeout(120000);
      const dbs: { url: string; drop(): Promise<void> }[] = [];
      const drivers: SqlDriver[] = [];
      before(async function () {
        for (let i = 0; i < 2; i++) {
          const db = await backend.url();
          if (!db) {
            console.log(`    (skipped: ${backend.name} not configured)`);
            this.skip();
          }
          dbs.push(db);
          drivers.push(sqlDriver(backend, db.url));
        }
      });
      after(async () => {
        for (const d of drivers) await d.close();
        for (const db of dbs) await db.drop();
      });

      it('the migrations build the schema the registry describes', async () => {
        const s = new SqlStorage(sqlDriver(backend, dbs[0].url), { idStyle: style });
        await s.open();
        expect(s.ids.name).to.equal(style);
        await s.close();
        const d = await drivers[1].connect();
        for (const sql of DESCRIBED[style](d)) await drivers[1].query(sql);
        const [migrated, registry] = [await schemaOf(backend, drivers[0]), await schemaOf(backend, drivers[1])];
        expect(migrated.filter((l) => l.startsWith('column site name '))).to.have.length(1);
        expect(migrated.filter((l) => l.startsWith('trigger '))).to.not.be.empty;
        // Store-styled ids (site, and webhook_delivery's reference to a webhook) and kept UUIDs (history).
        const typeOf = (table: string, column: string) =>
          migrated
            .find((l) => l.startsWith(`column ${table} ${column} `))!
            .split(' ')[3]
            .replace('bigint(20)', 'bigint'); // MariaDB's display width
        const [uuid, integer] = ID_TYPES[backend.driver];
        expect(typeOf('site', 'id')).to.equal(style === 'integer' ? integer : uuid);
        expect(typeOf('prefix', 'site')).to.equal(style === 'integer' ? integer : uuid);
        expect(typeOf('webhook_delivery', 'webhook')).to.equal(style === 'integer' ? integer : uuid);
        expect(typeOf('webhook_delivery', 'id')).to.equal(uuid);
        expect(typeOf('history', 'id')).to.equal(uuid);
        const differ = (a: string[], b: string[]) => a.filter((l) => !b.includes(l));
        // Named so a failure lists what a migration should add (missing) or take away (extra).
        expect({ missing: differ(registry, migrated), extra: differ(migrated, registry) }).to.deep.equal({
          missing: [],
          extra: [],
        });
        // The comparison sees a column the registry has and the database lacks.
        await drivers[0].query(`ALTER TABLE ${d.quote('site')} DROP COLUMN ${d.quote('facility')}`);
        const lacking = await schemaOf(backend, drivers[0]);
        expect(differ(registry, lacking).some((l) => l.startsWith('column site facility '))).to.equal(true);
      });
    });
  }
