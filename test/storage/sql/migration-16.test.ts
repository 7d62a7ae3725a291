// Migration 16 on every SQL backend: a database written before it (device names required, interface
// types as long as the first choice list's longest) keeps its rows and then takes an unnamed device and
// NetBox 4.2's longer interface types; a second run changes nothing.
import { expect } from 'chai';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { MIGRATIONS_TABLE } from '../../../storage/sql/migrations.js';
import { PgDriver } from '../../../storage/postgres/pg-driver.js';
import { MysqlDriver } from '../../../storage/mysql/mysql-driver.js';
import { SqlStorage } from '../../../storage/sql/sql-storage.js';
import { Inventory } from '../../../app/inventory.js';
import { resource } from '../../../engine/schema/registry.js';
import { tableModel } from '../../../engine/sql/table-model.js';
import type { SqlDriver } from '../../../storage/sql/driver.js';
import type { Row } from '../../../storage/types.js';

/** The columns as migrations 1 to 15 left them: a required name; a type of at most 17 characters. */
async function before16(driver: SqlDriver): Promise<void> {
  const d = await driver.connect();
  const name = tableModel('device').byField.get('name')!,
    type = tableModel('interface').byField.get('type')!;
  const statements = [
    ...d.changeColumn('device', 'name', d.columnType(name), true),
    ...d.changeColumn('interface', 'type', d.columnType({ ...type, field: { ...type.field, maxLength: 17 } }), true),
    `DELETE FROM ${d.quote(MIGRATIONS_TABLE)} WHERE version >= 16`,
  ];
  for (const sql of statements) await driver.query(sql);
}

for (const backend of BACKENDS.filter((b) => b.name !== 'memory')) {
  describe(`migration 16 on ${backend.name}`, function () {
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
    const made = async (inv: Inventory, name: string, body: unknown): Promise<Row> => {
      const out = await inv.create(resource(name), [body]);
      if (!out.ok) throw new Error(`${name}: ${JSON.stringify(out.errors)}`);
      return out.value[0];
    };

    it('a database written before it keeps its devices and interfaces, then takes unnamed devices', async () => {
      const s = new SqlStorage(driverFor(db!.url));
      await s.open();
      const site = await made(new Inventory(s), 'site', { name: 'mig16', slug: 'mig16' });
      const old = await made(new Inventory(s), 'device', { name: 'old-device', site: site.id });
      const port = await made(new Inventory(s), 'interface', { device: old.id, name: 'eth0', type: '1000base-t' });
      await s.close();
      const driver = driverFor(db!.url);
      try {
        for (let run = 0; run < 2; run++) {
          await before16(driver);
          const again = new SqlStorage(driverFor(db!.url));
          await again.open();
          try {
            expect(again.appliedMigrations[0]).to.equal(16); // and every later version
            expect((await again.get('device', old.id))?.name).to.equal('old-device');
            expect((await again.get('interface', port.id))?.type).to.equal('1000base-t');
            const inv = new Inventory(again);
            const unnamed = await made(inv, 'device', { site: site.id });
            expect(unnamed.name).to.equal(null);
            const long = await made(inv, 'interface', {
              device: unnamed.id,
              name: 'x0',
              type: 'extreme-summitstack-512',
            });
            expect((await again.get('interface', long.id))?.type).to.equal('extreme-summitstack-512');
            // Back to the earlier shape for the second run: no unnamed device, no long type.
            expect((await inv.delete(resource('device'), unnamed.id)).ok).to.equal(true);
          } finally {
            await again.close();
          }
        }
      } finally {
        await driver.close();
      }
    });
  });
}
