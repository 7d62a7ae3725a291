// Migration 13 on every SQL backend: tenancy, locations, racks, clusters, virtual machines and
// services come to a database written before them (its columns, keys, indexes and tables dropped).
import { expect } from 'chai';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { MIGRATIONS, MIGRATIONS_TABLE } from '../../../storage/sql/migrations.js';
import { PgDriver } from '../../../storage/postgres/pg-driver.js';
import { MysqlDriver } from '../../../storage/mysql/mysql-driver.js';
import { SqlStorage } from '../../../storage/sql/sql-storage.js';
import { Inventory } from '../../../app/inventory.js';
import { resource } from '../../../engine/schema/registry.js';
import type { Row } from '../../../storage/types.js';
import { before13 } from './before-13.js';
for (const backend of BACKENDS.filter((b) => b.name !== 'memory')) {
  describe(`migration 13 on ${backend.name}`, function () {
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

    it(
      'tenancy, locations, racks, clusters, virtual machines and services come to a database written before ' +
        'them (migration 13); deferred keys hold',
      async () => {
        const s = new SqlStorage(driverFor(db!.url));
        await s.open();
        const driver = driverFor(db!.url);
        try {
          await s.truncateAll();
          const made = async (inv: Inventory, name: string, body: unknown): Promise<Row> => {
            const out = await inv.create(resource(name), [body]);
            if (!out.ok) throw new Error(`${name}: ${JSON.stringify(out.errors)}`);
            return out.value[0];
          };
          const [site] = [await made(new Inventory(s), 'site', { name: 'mig13', slug: 'mig13' })];
          const old = await made(new Inventory(s), 'device', { name: 'old-device', site: site.id });
          await s.close();
          await before13(driver);
          for (let start = 0; start < 2; start++) {
            // the second run finds everything there already
            if (start)
              await driver.query(`DELETE FROM ${(await driver.connect()).quote(MIGRATIONS_TABLE)} WHERE version >= 13`);
            const again = new SqlStorage(driverFor(db!.url));
            await again.open();
            expect(again.appliedMigrations).to.deep.equal(
              MIGRATIONS.filter((m) => m.version >= 13).map((m) => m.version),
            ); // the later ones were dropped with it
            await again.close();
          }
          const after = new SqlStorage(driverFor(db!.url));
          await after.open();
          try {
            const inv = new Inventory(after);
            const back = (await after.get('device', old.id))!;
            expect([back.tenant, back.rack, back.primary_ip4, back.position]).to.deep.equal([null, null, null, null]);
            const tenant = await made(inv, 'tenant', { name: 'T', slug: 't' });
            const rack = await made(inv, 'rack', { name: 'R1', site: site.id, tenant: tenant.id });
            const ip = await made(inv, 'ip_address', { address: '192.0.2.1/24' });
            const dev = await made(inv, 'device', {
              name: 'new-device',
              site: site.id,
              rack: rack.id,
              position: 3,
              tenant: tenant.id,
              primary_ip4: ip.id,
            });
            expect([dev.rack, dev.primary_ip4, dev.primary_ip]).to.deep.equal([rack.id, ip.id, ip.id]);
            // The deferred key holds in the database itself, under the service.
            const bad = {
              ...dev,
              id: '00000000-0000-4000-8000-0000000000d9',
              name: 'dangling',
              primary_ip4: '00000000-0000-4000-8000-0000000000ff',
              version: 1,
            };
            expect(
              await after.apply([{ op: 'create', resource: 'device', row: bad }]).then(
                () => null,
                (e: Error) => e.message,
              ),
            ).to.be.a('string');
            // The address goes and takes the primary IP (and the derived one) with it.
            expect((await inv.delete(resource('ip_address'), ip.id)).ok).to.equal(true);
            const now = (await after.get('device', dev.id))!;
            expect([now.primary_ip4, now.primary_ip]).to.deep.equal([null, null]);
            expect((await inv.delete(resource('tenant'), tenant.id)).ok).to.equal(false);
          } finally {
            await after.close();
          }
        } finally {
          await driver.close();
          await s.close().catch(() => undefined);
        }
      },
    );
  });
}
