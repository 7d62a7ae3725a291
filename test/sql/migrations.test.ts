// Versioned migrations on every SQL backend: applied once, recorded with checksums, idempotent on
// the next start; on PostgreSQL, case-insensitive substring lookups can use the trigram indexes.
import { expect } from 'chai';
import { BACKENDS } from '../conformance/backends.js';
import { MIGRATIONS, MIGRATIONS_TABLE, checksum } from '../../storage/sql/migrations.js';
import { PgDriver } from '../../storage/postgres/pg-driver.js';
import { MysqlDriver } from '../../storage/mysql/mysql-driver.js';
import { SqlStorage } from '../../storage/sql/sql-storage.js';
import { cmp } from '../../engine/plan/nodes.js';

for (const backend of BACKENDS.filter((b) => b.name !== 'memory')) {
  describe(`migrations on ${backend.name}`, function () {
    this.timeout(60000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    before(async function () {
      db = await backend.url();
      if (!db) { console.log(`    (skipped: ${backend.name} not configured)`); this.skip(); }
    });
    after(async () => { await db?.drop(); });

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
        const rows = (await driver.query(`SELECT version, checksum FROM ${d.quote(MIGRATIONS_TABLE)} ORDER BY version`)).rows;
        expect(rows.map((r) => Number(r.version))).to.deep.equal(MIGRATIONS.map((m) => m.version));
        for (const m of MIGRATIONS) expect(rows.find((r) => Number(r.version) === m.version)!.checksum).to.equal(checksum(m.statements(d)));
      } finally { await driver.close(); }
    });

    if (backend.driver === 'postgres') it('description__ic can use the trigram index of lower(description)', async () => {
      const s = new SqlStorage(new PgDriver(db!.url));
      await s.open();
      const driver = new PgDriver(db!.url);
      try {
        await driver.connect();
        const idx = await driver.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'prefix' AND indexname LIKE '%trgm%'`);
        expect(idx.rows.map((r) => r.indexname)).to.deep.equal(['ix_prefix_description_trgm']);
        const w = s.whereSql('prefix', cmp('description', 'string', 'contains', true, ['circuit 35']));
        const plan = await driver.transaction(async (t) => {
          await t.query('SET LOCAL enable_seqscan = off'); // tiny table: make the planner show what it can use
          return t.query(`EXPLAIN SELECT m.id FROM prefix m WHERE ${w.sql}`, w.params);
        });
        expect(plan.rows.map((r) => String(r['QUERY PLAN'])).join('\n')).to.contain('ix_prefix_description_trgm');
      } finally { await driver.close(); await s.close(); }
    });
  });
}
