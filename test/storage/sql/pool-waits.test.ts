// #34 item 2: a wait for a pooled connection is bounded by POOL_WAIT_TIMEOUT_MS on every SQL
// backend: with the one connection held by a transaction, a statement gives up after the bound with
// StorageUnavailable (a 503), the wait is reported as timed out, and the pool works again after.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { PgDriver } from '../../../storage/postgres/pg-driver.js';
import { MysqlDriver } from '../../../storage/mysql/mysql-driver.js';
import { StorageUnavailable } from '../../../storage/types.js';
import { TEST_DB_KINDS, testDatabaseOrSkip, testDbDriver, type TestDatabase } from '../../../storage/test-db.js';

for (const kind of TEST_DB_KINDS) {
  describe(`pool waits on ${kind}: bounded and reported`, function () {
    this.timeout(30000);
    let db: TestDatabase | null = null;
    before(async function () {
      const got = await testDatabaseOrSkip(kind);
      if ('skip' in got) {
        this.skip();
        return;
      }
      db = got;
    });
    after(async () => {
      await db?.drop();
    });

    it('gives up after the bound while every connection is held, then serves again', async () => {
      const driver =
        testDbDriver(kind) === 'postgres'
          ? new PgDriver(db!.url, { max: 1, poolWaitMs: 300 })
          : new MysqlDriver(db!.url, { connectionLimit: 1, poolWaitMs: 300 });
      const waits: { s: number; late: boolean }[] = [];
      driver.poolWaits.on((s, late) => waits.push({ s, late }));
      try {
        await driver.connect();
        let release!: () => void;
        const held = new Promise<void>((r) => {
          release = r;
        });
        let entered!: () => void;
        const inside = new Promise<void>((r) => {
          entered = r;
        });
        const tx = driver.transaction(async (s) => {
          await s.query('SELECT 1 AS one');
          entered();
          await held;
        });
        await inside;
        const t0 = performance.now();
        const err = await driver.query('SELECT 1 AS one').then(
          () => null,
          (e: unknown) => e,
        );
        const ms = performance.now() - t0;
        expect(err).to.be.instanceOf(StorageUnavailable);
        expect((err as Error).message).to.match(/POOL_WAIT_TIMEOUT_MS/);
        expect(ms).to.be.within(250, 3000);
        expect(waits.filter((w) => w.late)).to.have.length(1);
        expect(waits.find((w) => w.late)!.s).to.be.within(0.25, 3);
        release();
        await tx;
        expect((await driver.query('SELECT 1 AS one')).rows).to.have.length(1);
        expect(waits.filter((w) => w.late)).to.have.length(1);
        expect(waits.filter((w) => !w.late).length).to.be.at.least(2);
      } finally {
        await driver.close();
      }
    });
  });
}
