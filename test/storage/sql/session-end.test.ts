// Ending another database session for sure (SqlDriver.endSession, storage/sql/session-end.ts): how a
// write whose COMMIT was in flight on a lost connection is settled. It must work whatever the other
// sessions on the server run: on MySQL, information_schema.PROCESSLIST fails whole while any session
// runs a statement whose text is not UTF-8 (a prepared statement's binary values show there), which
// turned such writes into commit_unknown. Databases: TEST_MYSQL_URL (MariaDB), TEST_MYSQL9_URL.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import mysql from 'mysql2/promise';
import { BACKENDS, sqlDriver } from '../../e2e/conformance/backends.js';
import type { MysqlDriver } from '../../../storage/mysql/mysql-driver.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const backend of BACKENDS.filter((b) => b.driver === 'mysql')) {
  describe(`ending a database session on ${backend.name}`, function () {
    this.timeout(30_000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    before(async function () {
      db = await backend.url();
      if (!db) this.skip();
    });
    after(async () => {
      await db?.drop();
    });

    it('ends it and sees it gone while another session runs a statement whose text is not UTF-8', async () => {
      const driver = sqlDriver(backend, db!.url) as MysqlDriver;
      await driver.connect();
      const busy = await mysql.createConnection(db!.url);
      const victim = await mysql.createConnection(db!.url);
      victim.on('error', () => undefined);
      try {
        let done = false;
        const running = busy
          .execute('SELECT SLEEP(?) AS s, ? AS b', [20, Buffer.from([0xb5, 0xe0, 0xff])])
          .catch(() => undefined)
          .finally(() => {
            done = true;
          });
        // Until the server runs it (read where the server lists it without its text).
        const list =
          driver.flavour === 'mysql'
            ? 'performance_schema.threads WHERE PROCESSLIST_ID'
            : 'information_schema.PROCESSLIST WHERE ID';
        const command = driver.flavour === 'mysql' ? 'PROCESSLIST_COMMAND' : 'COMMAND';
        for (
          let i = 0;
          (await driver.query(`SELECT ${command} AS c FROM ${list} = ?`, [busy.threadId])).rows[0]?.c !== 'Execute';
          i++
        ) {
          if (i > 200) throw new Error('the statement never started');
          await sleep(25);
        }
        await driver.endSession(victim.threadId!);
        expect(done, 'the other statement still runs').to.equal(false);
        const after = await victim.query('SELECT 1').then(
          () => 'answered',
          (e: { code?: string }) => e.code ?? 'failed',
        );
        expect(after).to.not.equal('answered');
        await driver.query(`KILL QUERY ${Number(busy.threadId)}`);
        await running;
      } finally {
        await driver.query(`KILL QUERY ${Number(busy.threadId)}`).catch(() => undefined);
        await busy.end().catch(() => undefined);
        victim.destroy();
        await driver.close();
      }
    });
  });
}
