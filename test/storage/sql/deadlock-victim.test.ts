// A write the database picks as a deadlock's victim is run again (SqlStorage.apply): a batch that
// updates site B then site A meets a transaction of another connection that holds A and then asks
// for B. Whichever the database rolls back, the batch is acknowledged and nothing of it is lost.
// Databases: TEST_POSTGRES_URL, TEST_MYSQL_URL (MariaDB), TEST_MYSQL9_URL.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { BACKENDS, sqlDriver } from '../../e2e/conformance/backends.js';
import { SqlStorage } from '../../../storage/sql/sql-storage.js';
import { Inventory } from '../../../app/inventory.js';
import { resource } from '../../../engine/schema/registry.js';
import type { Row } from '../../../storage/types.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const backend of BACKENDS.filter((b) => b.name !== 'memory')) {
  describe(`a deadlock's victim on ${backend.name}`, function () {
    this.timeout(60000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    const driverFor = (url: string) => sqlDriver(backend, url);
    before(async function () {
      db = await backend.url();
      if (!db) this.skip();
    });
    after(async () => {
      await db?.drop();
    });

    it('the write is run again and acknowledged; both rows end as it wrote them', async () => {
      const s = new SqlStorage(driverFor(db!.url));
      await s.open();
      const raw = driverFor(db!.url);
      const q = (await raw.connect()).quote;
      try {
        const made = await new Inventory(s).create(resource('site'), [
          { name: 'dl-a', slug: 'dl-a' },
          { name: 'dl-b', slug: 'dl-b' },
        ]);
        if (!made.ok) throw new Error(JSON.stringify(made.errors));
        const [a, b] = made.value as Row[];
        const set = (id: string) => `UPDATE ${q('site')} SET ${q('description')} = 'other' WHERE ${q('id')} = '${id}'`;
        const other = raw
          .transaction(async (t) => {
            await t.query(set(a.id)); // holds A
            await sleep(300); // while the batch holds B and waits for A
            await t.query(set(b.id)); // asks for B: a deadlock
          })
          .then(
            () => 'committed',
            () => 'rolled back',
          );
        await sleep(100);
        const up = (row: Row) => ({
          op: 'update' as const,
          resource: 'site',
          row: { ...row, description: 'batch', version: Number(row.version) + 1 },
          expectVersion: Number(row.version),
        });
        await s.apply([up(b), up(a)]); // B first, then A
        expect(['committed', 'rolled back']).to.include(await other);
        for (const id of [a.id, b.id]) expect((await s.get('site', id))!.description).to.equal('batch');
      } finally {
        await raw.close();
        await s.close();
      }
    });
  });
}
