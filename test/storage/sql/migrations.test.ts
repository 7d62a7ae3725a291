// Versioned migrations on every SQL backend: applied once, recorded with checksums, idempotent on
// the next start; on PostgreSQL, case-insensitive substring lookups can use the trigram indexes.
import { expect } from 'chai';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { MIGRATIONS, MIGRATIONS_TABLE, checksum } from '../../../storage/sql/migrations.js';
import { PgDriver } from '../../../storage/postgres/pg-driver.js';
import { MysqlDriver } from '../../../storage/mysql/mysql-driver.js';
import { SqlStorage } from '../../../storage/sql/sql-storage.js';
import { cmp } from '../../../engine/plan/nodes.js';
import { Inventory } from '../../../app/inventory.js';
import { resource } from '../../../engine/schema/registry.js';
import type { Row } from '../../../storage/types.js';
import { before13 } from './before-13.js';

for (const backend of BACKENDS.filter((b) => b.name !== 'memory')) {
  describe(`migrations on ${backend.name}`, function () {
    this.timeout(60000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    before(async function () {
      db = await backend.url();
      if (!db) {
        console.log(`    (skipped: ${backend.name} not configured)`);
        this.skip();
      }
    });
    after(async () => {
      await db?.drop();
    });

    const driverFor = (url: string) => (backend.driver === 'postgres' ? new PgDriver(url) : new MysqlDriver(url));

    it('applies every version once with its checksum, and a second start changes nothing', async () => {
      for (let start = 0; start < 2; start++) {
        const s = new SqlStorage(driverFor(db!.url));
        await s.open();
        await s.close();
      }
      const driver = driverFor(db!.url);
      try {
        const d = await driver.connect();
        const rows = (await driver.query(`SELECT version, checksum FROM ${d.quote(MIGRATIONS_TABLE)} ORDER BY version`))
          .rows;
        expect(rows.map((r) => Number(r.version))).to.deep.equal(MIGRATIONS.map((m) => m.version));
        for (const m of MIGRATIONS)
          expect(rows.find((r) => Number(r.version) === m.version)!.checksum).to.equal(checksum(m.statements(d)));
      } finally {
        await driver.close();
      }
    });

    it(
      'row versions and history patches come to a database written before them: the columns, version 1 on ' +
        'every row, CAS works',
      async () => {
        const s = new SqlStorage(driverFor(db!.url));
        await s.open();
        const driver = driverFor(db!.url);
        const now = '2026-01-01T00:00:00.000Z';
        const site = (id: string, name: string) => ({
          id,
          created: now,
          last_updated: now,
          name,
          slug: name,
          status: 'active',
          region: null,
          asn: null,
          facility: '',
          physical_address: '',
          description: '',
          tags: [],
          custom_fields: {},
        });
        const ids = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b'];
        try {
          const d = await driver.connect();
          await s.truncateAll();
          // The previous release's schema: no version column, migrations up to 3.
          const versioned = [
            'tag',
            'custom_field',
            'region',
            'site',
            'device',
            'interface',
            'vlan',
            'prefix',
            'ip_address',
          ];
          for (const t of versioned) await driver.query(`ALTER TABLE ${d.quote(t)} DROP COLUMN ${d.quote('version')}`);
          await driver.query(`ALTER TABLE ${d.quote('history')} DROP COLUMN ${d.quote('context_patch')}`);
          await driver.query(`DELETE FROM ${d.quote(MIGRATIONS_TABLE)} WHERE version >= 4`);
          await driver.query(
            `INSERT INTO site (id, created, last_updated, name, slug, status, facility, physical_address, ` +
              `description, tags, custom_fields) VALUES ` +
              `(${d.placeholder(1, 'uuid')}, ${d.placeholder(2, 'timestamptz')}, ` +
              `${d.placeholder(3, 'timestamptz')}, 'old', 'old', 'active', '', '', '', '[]', '{}')`,
            [
              ids[0],
              d.name === 'postgres' ? now : now.replace('T', ' ').replace('Z', ''),
              d.name === 'postgres' ? now : now.replace('T', ' ').replace('Z', ''),
            ],
          );
          await s.close();
          for (let start = 0; start < 2; start++) {
            // the second start finds the column there already
            if (start) await driver.query(`DELETE FROM ${d.quote(MIGRATIONS_TABLE)} WHERE version >= 4`);
            const again = new SqlStorage(driverFor(db!.url));
            await again.open();
            expect(again.appliedMigrations).to.deep.equal(
              MIGRATIONS.filter((m) => m.version >= 4).map((m) => m.version),
            );
            await again.close();
          }
          const after = new SqlStorage(driverFor(db!.url));
          await after.open();
          try {
            expect((await after.get('site', ids[0]))?.version).to.equal(1);
            await after.apply([{ op: 'create', resource: 'site', row: { ...site(ids[1], 'new'), version: 1 } }]);
            await after.apply([
              {
                op: 'update',
                resource: 'site',
                row: { ...site(ids[0], 'old'), description: 'x', version: 2 },
                expectVersion: 1,
              },
            ]);
            const stale = await after
              .apply([
                { op: 'update', resource: 'site', row: { ...site(ids[0], 'old'), version: 2 }, expectVersion: 1 },
              ])
              .then(
                () => null,
                (e: Error) => e.message,
              );
            expect(stale).to.contain('version 2, expected 1');
            expect((await after.get('site', ids[0]))?.description).to.equal('x');
            // History rows of that release keep their whole context; new rows store a patch beside them.
            const h = {
              id: '00000000-0000-4000-8000-0000000000c1',
              created: now,
              last_updated: now,
              entity_id: 'e',
              seq: 2,
              trigger: 't',
              source_state: 'a',
              target_state: 'b',
              context: null,
              context_patch: { n: 2 },
            };
            await after.apply([{ op: 'create', resource: 'history', row: h }]);
            expect((await after.get('history', h.id))?.context_patch).to.deep.equal({ n: 2 });
          } finally {
            await after.close();
          }
        } finally {
          await driver.close();
          await s.close().catch(() => undefined);
        }
      },
    );

    it(
      'manufacturers, device types, roles and platforms come to a database written before them (migration 6): ' +
        'tables, device columns, indexes and foreign keys',
      async () => {
        const NEW_TABLES = ['manufacturer', 'device_type', 'device_role', 'platform'];
        const DEVICE_FKS = ['device_type', 'role', 'platform'];
        const s = new SqlStorage(driverFor(db!.url));
        await s.open();
        const driver = driverFor(db!.url);
        try {
          const d = await driver.connect();
          const q = d.quote;
          await s.truncateAll();
          const inv = new Inventory(s);
          const made = async (name: string, bodies: unknown[]): Promise<Row[]> => {
            const out = await inv.create(resource(name), bodies);
            if (!out.ok) throw new Error(`${name}: ${JSON.stringify(out.errors)}`);
            return out.value;
          };
          const [site] = await made('site', [{ name: 'mig6', slug: 'mig6' }]);
          const [old] = await made('device', [{ name: 'old-device', site: site.id }]);
          await before13(driver);
          // The previous release's schema: no new tables, devices without the three columns, migrations up to 5.
          for (const f of DEVICE_FKS) {
            await driver.query(
              d.name === 'postgres'
                ? `ALTER TABLE device DROP CONSTRAINT ${q(`fk_device_${f}`)}`
                : `ALTER TABLE device DROP FOREIGN KEY ${q(`fk_device_${f}`)}`,
            );
            if (d.name !== 'postgres') await driver.query(`ALTER TABLE device DROP INDEX ${q(`ix_device_${f}`)}`);
            await driver.query(`ALTER TABLE device DROP COLUMN ${q(f)}`);
          }
          for (const t of [...NEW_TABLES].reverse())
            for (const table of [`${t}_tags`, t]) await driver.query(`DROP TABLE ${q(table)}`);
          await driver.query(`DELETE FROM ${q(MIGRATIONS_TABLE)} WHERE version >= 6`);
          await s.close();

          const tableCount = async () =>
            Number(
              (
                await driver.query(
                  `SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_name IN ('manufacturer', ` +
                    `'device_type', 'device_role', 'platform')` +
                    (d.name === 'postgres' ? ` AND table_schema = current_schema()` : ` AND table_schema = DATABASE()`),
                )
              ).rows[0].n,
            );
          const fkCount = async () =>
            Number(
              (
                await driver.query(
                  d.name === 'postgres'
                    ? `SELECT COUNT(*) AS n FROM pg_constraint WHERE conrelid = 'device'::regclass AND contype = ` +
                        `'f' AND conname IN ('fk_device_device_type', 'fk_device_role', 'fk_device_platform')`
                    : `SELECT COUNT(*) AS n FROM information_schema.TABLE_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ` +
                        `DATABASE() AND TABLE_NAME = 'device' AND CONSTRAINT_TYPE = 'FOREIGN KEY' AND ` +
                        `CONSTRAINT_NAME IN ('fk_device_device_type', 'fk_device_role', 'fk_device_platform')`,
                )
              ).rows[0].n,
            );
          const indexCount = async () =>
            Number(
              (
                await driver.query(
                  d.name === 'postgres'
                    ? `SELECT COUNT(*) AS n FROM pg_indexes WHERE tablename = 'device' AND indexname IN ` +
                        `('ix_device_device_type', 'ix_device_role', 'ix_device_platform')`
                    : `SELECT COUNT(DISTINCT INDEX_NAME) AS n FROM information_schema.STATISTICS WHERE ` +
                        `TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'device' AND INDEX_NAME IN ` +
                        `('ix_device_device_type', 'ix_device_role', 'ix_device_platform')`,
                )
              ).rows[0].n,
            );
          expect([await tableCount(), await fkCount(), await indexCount()]).to.deep.equal([0, 0, 0]);

          for (let start = 0; start < 2; start++) {
            // the second run finds everything there already
            if (start) await driver.query(`DELETE FROM ${q(MIGRATIONS_TABLE)} WHERE version >= 6`);
            const again = new SqlStorage(driverFor(db!.url));
            await again.open();
            expect(again.appliedMigrations).to.deep.equal(
              MIGRATIONS.filter((m) => m.version >= 6).map((m) => m.version),
            );
            await again.close();
            expect([await tableCount(), await fkCount(), await indexCount()]).to.deep.equal([4, 3, 3]);
          }

          const after = new SqlStorage(driverFor(db!.url));
          await after.open();
          try {
            const inv2 = new Inventory(after);
            const make = async (name: string, bodies: unknown[]): Promise<Row[]> => {
              const out = await inv2.create(resource(name), bodies);
              if (!out.ok) throw new Error(`${name}: ${JSON.stringify(out.errors)}`);
              return out.value;
            };
            const back = (await after.get('device', old.id))!;
            expect([back.device_type, back.role, back.platform]).to.deep.equal([null, null, null]);
            const [mf] = await make('manufacturer', [{ name: 'Juniper', slug: 'juniper', tags: [] }]);
            const [dt] = await make('device_type', [{ manufacturer: mf.id, model: 'MX204', slug: 'mx204' }]);
            const [role] = await make('device_role', [{ name: 'Router', slug: 'router', color: 'ff0000' }]);
            const [pf] = await make('platform', [{ name: 'Junos', slug: 'junos', manufacturer: mf.id }]);
            const [dev] = await make('device', [
              { name: 'new-device', site: site.id, device_type: dt.id, role: role.id, platform: pf.id },
            ]);
            const got = (await after.get('device', dev.id))!;
            expect([got.device_type, got.role, got.platform]).to.deep.equal([dt.id, role.id, pf.id]);
            expect(dt.u_height).to.equal(1);
            // The foreign keys hold in the database itself, under the service.
            const bad = {
              ...got,
              id: '00000000-0000-4000-8000-0000000000d9',
              name: 'dangling',
              device_type: '00000000-0000-4000-8000-0000000000ff',
              version: 1,
            };
            const refused = await after.apply([{ op: 'create', resource: 'device', row: bad }]).then(
              () => null,
              (e: Error) => e.message,
            );
            expect(refused).to.be.a('string');
            // The platform goes as NetBox lets it (set null); the type is protected.
            expect((await inv2.delete(resource('device_type'), dt.id)).ok).to.equal(false);
            expect((await inv2.delete(resource('platform'), pf.id)).ok).to.equal(true);
            expect((await after.get('device', dev.id))!.platform).to.equal(null);
          } finally {
            await after.close();
          }
        } finally {
          await driver.close();
          await s.close().catch(() => undefined);
        }
      },
    );

    it(
      'webhook chains come to a database written before them (migration 15): change records and deliveries ' +
        'get their columns',
      async () => {
        const s = new SqlStorage(driverFor(db!.url));
        await s.open();
        const driver = driverFor(db!.url);
        try {
          const d = await driver.connect();
          const q = d.quote;
          await s.close();
          await driver.query(`ALTER TABLE ${q('object_change')} DROP COLUMN ${q('webhook_delivery')}`);
          await driver.query(`ALTER TABLE ${q('webhook_delivery')} DROP COLUMN ${q('chain')}`);
          await driver.query(`DELETE FROM ${q(MIGRATIONS_TABLE)} WHERE version = 15`);
          const again = new SqlStorage(driverFor(db!.url));
          await again.open();
          try {
            expect(again.appliedMigrations).to.deep.equal([15]);
            const made = await new Inventory(again).create(resource('site'), [{ name: 'mig15', slug: 'mig15' }]);
            expect(made.ok).to.equal(true);
            const rec = (
              await again.find(
                'object_change',
                cmp('object_repr', 'string', 'eq', false, ['mig15']),
                { limit: 1, offset: 0, ordering: [] },
                { noCount: true },
              )
            ).rows[0];
            expect(rec.webhook_delivery).to.equal(null);
          } finally {
            await again.close();
          }
        } finally {
          await driver.close();
          await s.close().catch(() => undefined);
        }
      },
    );

    if (backend.driver === 'postgres')
      it('description__ic can use the trigram index of lower(description)', async () => {
        const s = new SqlStorage(new PgDriver(db!.url));
        await s.open();
        const driver = new PgDriver(db!.url);
        try {
          await driver.connect();
          const idx = await driver.query(
            `SELECT indexname FROM pg_indexes WHERE tablename = 'prefix' AND indexname LIKE '%trgm%'`,
          );
          expect(idx.rows.map((r) => r.indexname)).to.deep.equal(['ix_prefix_description_trgm']);
          const w = s.whereSql('prefix', cmp('description', 'string', 'contains', true, ['circuit 35']));
          const plan = await driver.transaction(async (t) => {
            await t.query('SET LOCAL enable_seqscan = off'); // tiny table: make the planner show what it can use
            return t.query(`EXPLAIN SELECT m.id FROM prefix m WHERE ${w.sql}`, w.params);
          });
          expect(plan.rows.map((r) => String(r['QUERY PLAN'])).join('\n')).to.contain('ix_prefix_description_trgm');
        } finally {
          await driver.close();
          await s.close();
        }
      });
  });
}
