// The checksums of applied migrations are checked at every start, on every SQL backend: one that
// differs from this build's refuses the start naming the version (a migrating start and a reader's);
// records an earlier release wrote (migration 1 under its former name, summed over statements
// computed from the registry of that release) are accepted once and rewritten.
import { expect } from 'chai';
import { BACKENDS, sqlDriver } from '../../e2e/conformance/backends.js';
import { MIGRATIONS, MIGRATIONS_TABLE, checksum } from '../../../storage/sql/migrations.js';
import { FORMER_FIRST_NAME } from '../../../storage/sql/migrations/recorded.js';
import { SqlStorage } from '../../../storage/sql/sql-storage.js';
import type { SqlDriver } from '../../../storage/sql/driver.js';

const OTHER = 'f'.repeat(64);

for (const backend of BACKENDS.filter((b) => b.name !== 'memory')) {
  describe(`migration checksums on ${backend.name}`, function () {
    this.timeout(60000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let driver: SqlDriver;
    before(async function () {
      db = await backend.url();
      if (!db) {
        console.log(`    (skipped: ${backend.name} not configured)`);
        this.skip();
      }
      const s = new SqlStorage(sqlDriver(backend, db.url));
      await s.open();
      await s.close();
      driver = sqlDriver(backend, db.url);
    });
    after(async () => {
      await driver?.close();
      await db?.drop();
    });

    const start = async (reader = false): Promise<string | null> => {
      const s = new SqlStorage(sqlDriver(backend, db!.url), { reader });
      try {
        await s.open();
        return null;
      } catch (e) {
        return (e as Error).message;
      } finally {
        await s.close();
      }
    };
    const set = async (version: number, name: string | null, sum: string) => {
      const d = await driver.connect();
      await driver.query(
        `UPDATE ${d.quote(MIGRATIONS_TABLE)} SET checksum = '${sum}'` +
          `${name === null ? '' : `, name = '${name}'`} WHERE version = ${version}`,
      );
    };
    const records = async () => {
      const d = await driver.connect();
      const r = await driver.query(`SELECT version, name, checksum FROM ${d.quote(MIGRATIONS_TABLE)} ORDER BY version`);
      return r.rows.map((x) => ({ version: Number(x.version), name: String(x.name), checksum: String(x.checksum) }));
    };
    const current = async () => {
      const d = await driver.connect();
      return MIGRATIONS.map((m) => ({ version: m.version, name: m.name, checksum: checksum(m.statements(d)) }));
    };

    it('refuses a start (migrating or reading) when an applied migration changed, naming its version', async () => {
      const d = await driver.connect();
      const right = checksum(MIGRATIONS[3].statements(d));
      await set(4, null, OTHER);
      try {
        for (const reader of [false, true]) {
          const refused = await start(reader);
          expect(refused).to.match(
            /^schema migration 4 \(row versions[^\n]*\) was applied with checksum ffffffffffff…/,
          );
          expect(refused).to.contain(`this build's is ${right.slice(0, 12)}…`);
        }
      } finally {
        await set(4, null, right);
      }
      expect(await start()).to.equal(null);
      expect(await records()).to.deep.equal(await current());
    });

    it("accepts an earlier release's records once and rewrites them; a change after that is refused", async () => {
      // A database an earlier release migrated: migration 1 under its former name, migrations 1 and 4
      // summed over the registry of that release (fewer tables).
      await set(1, FORMER_FIRST_NAME, OTHER);
      await set(4, null, OTHER);
      expect(await start(true)).to.equal(null); // a reader accepts them, rewrites nothing
      expect((await records())[0]).to.deep.equal({ version: 1, name: FORMER_FIRST_NAME, checksum: OTHER });
      expect(await start()).to.equal(null);
      expect(await records()).to.deep.equal(await current());
      await set(1, null, OTHER);
      expect(await start()).to.match(/^schema migration 1 \(inventory schema of the first release/);
    });
  });
}
