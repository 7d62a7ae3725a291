// An import killed part-way (SIGKILL, no undo) leaves a mark in its target: a server refuses to start
// on that store and another import refuses it, each in one line, instead of serving half of a NetBox;
// an import that ends takes its mark away (a server starts on the store).
import { expect } from 'chai';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { testDatabaseOrSkip } from '../../../storage/test-db.js';
import { distPath } from '../../support/paths.js';
import { startServer } from '../../support/server.js';
import { demoSqlPath, loadDemo, type NetboxDb } from './netbox-db.js';

const CLI = distPath('storage/netbox-import/import-cli.js');
const UNFINISHED = /^an import:netbox into .* is running or did not finish \(an importer that stopped part-way/;

/** Interfaces in the target database, read with SQL (opening a store there would migrate it). */
async function interfaces(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query('SELECT count(*) AS n FROM interface')).rows[0].n);
  } finally {
    await c.end();
  }
}

describe('import:netbox killed part-way', function () {
  this.timeout(180000);
  let demo: NetboxDb | null = null;
  const drops: (() => Promise<void>)[] = [];
  before(async function () {
    const file = demoSqlPath();
    if (!process.env.TEST_POSTGRES_URL || !file) this.skip();
    demo = await loadDemo(process.env.TEST_POSTGRES_URL!, file!);
  });
  after(async () => {
    for (const d of drops) await d().catch(() => undefined);
    await demo?.drop();
  });

  it('leaves a mark: no server starts on the store, no import takes it; a whole import does', async function () {
    const db = await testDatabaseOrSkip('postgres');
    if ('skip' in db) this.skip();
    drops.push(() => db.drop());
    // Small batches, so the importer is killed between two of them, with interfaces part-written.
    const child = spawn(process.execPath, [CLI, '--from', demo!.url, '--to', db.url, '--batch', '20'], {
      stdio: 'ignore',
    });
    const exited = new Promise((res) => child.on('exit', res));
    for (let seen = 0; seen === 0;) {
      await new Promise((res) => setTimeout(res, 20));
      seen = await interfaces(db.url).catch(() => 0);
    }
    child.kill('SIGKILL');
    await exited;
    const held = await interfaces(db.url);
    expect(held, 'interfaces written before the kill').to.be.greaterThan(0);

    const refused = await startServer({ storage: db.url, demoData: false }).then(
      async (srv) => {
        await srv.close();
        return null;
      },
      (e: Error) => e.message,
    );
    expect(refused, 'a server start').to.match(UNFINISHED);
    const again = await promisify(execFile)(process.execPath, [CLI, '--from', demo!.url, '--to', db.url]).catch(
      (e: { stderr: string; code: number }) => e,
    );
    expect((again as { code: number }).code).to.not.equal(0);
    expect(String((again as { stderr: string }).stderr).replace(/^import:netbox: /, '')).to.match(UNFINISHED);
    expect(await interfaces(db.url), 'the refused import changed nothing').to.equal(held);

    // Into a new store the import ends, and takes its mark away: a server starts on it.
    const fresh = await testDatabaseOrSkip('postgres');
    if ('skip' in fresh) this.skip();
    drops.push(() => fresh.drop());
    await promisify(execFile)(process.execPath, [CLI, '--from', demo!.url, '--to', fresh.url]);
    const srv = await startServer({ storage: fresh.url, demoData: false });
    try {
      expect((await srv.req('GET', '/api/dcim/devices/?limit=1')).body.count).to.be.greaterThan(0);
    } finally {
      await srv.close();
    }
  });
});
