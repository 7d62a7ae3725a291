// Moving an inventory between backends: a persisted memory store copied into PostgreSQL and MySQL
// and back into a new memory store holds the very same rows; a target with rows is refused.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TRUE } from '../../../engine/plan/nodes.js';
import { RESOURCES } from '../../../engine/schema/registry.js';
import { copyStorage, TargetNotEmpty } from '../../../storage/copy-storage.js';
import { createStorage } from '../../../storage/open-storage.js';
import { TEST_DB_KINDS, testDatabaseOrSkip } from '../../../storage/test-db.js';
import type { Row, Storage } from '../../../storage/types.js';
import { startServer } from '../../support/server.js';
import { distPath } from '../../support/paths.js';

async function dump(s: Storage): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  for (const r of RESOURCES)
    out[r.name] = [
      ...(await s.find(r.name, TRUE, { limit: 1_000_000, offset: 0, ordering: [{ field: 'id', desc: false }] })).rows,
    ];
  return out;
}

describe('copying an inventory between backends (npm run copy)', function () {
  this.timeout(120000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-copy-'));
  const source = `memory:${path.join(dir, 'source')}`;

  before(async () => {
    const srv = await startServer({ storage: source, demoData: true });
    // A region tree whose child sorts before its parent by id: the copy must put parents first.
    const ids: string[] = [];
    for (const n of ['a', 'b', 'c'])
      ids.push((await srv.req('POST', '/api/dcim/regions/', { name: `copy-${n}`, slug: `copy-${n}` })).body.id);
    ids.sort();
    expect((await srv.req('PATCH', `/api/dcim/regions/${ids[1]}/`, { parent: ids[2] })).status).to.equal(200);
    expect((await srv.req('PATCH', `/api/dcim/regions/${ids[0]}/`, { parent: ids[1] })).status).to.equal(200);
    expect((await srv.req('POST', '/api/v1/entities/copy-1/create', { machine_name: 'order_flow' })).status).to.equal(
      201,
    );
    expect(
      (
        await srv.req('POST', '/api/v1/entities/copy-1/events', {
          trigger: 'pay',
          context: { amount: 5, currency: 'EUR', payment_ref: 'r' },
        })
      ).status,
    ).to.equal(200);
    await srv.close();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const kind of TEST_DB_KINDS) {
    it(
      `memory:/dir -> ${kind} -> a new memory:/dir: ` + 'every row the same; a target with rows is refused',
      async function () {
        const db = await testDatabaseOrSkip(kind);
        if ('skip' in db) {
          this.skip();
          return;
        }
        const open = async (url: string) => {
          const s = await createStorage(url);
          await s.open();
          return s;
        };
        const from = await open(source),
          sql = await open(db.url),
          back = await open(`memory:${path.join(dir, `back-${kind}`)}`);
        try {
          const copied = await copyStorage(from, sql);
          expect(copied.get('region')).to.be.greaterThan(3);
          expect(copied.get('history')).to.be.greaterThan(1);
          await copyStorage(sql, back);
          const want = await dump(from);
          expect(await dump(sql)).to.deep.equal(want);
          expect(await dump(back)).to.deep.equal(want);
          let refused: unknown;
          try {
            await copyStorage(from, sql);
          } catch (e) {
            refused = e;
          }
          expect(refused).to.be.instanceOf(TargetNotEmpty);
          expect((refused as Error).message).to.match(/region \(\d+\)/);
        } finally {
          for (const s of [from, sql, back]) await s.close();
          await db.drop();
        }
      },
    );
  }
});

describe('npm run copy: a source that does not exist', function () {
  this.timeout(30000);
  const CLI = distPath('storage/copy-cli.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-copy-missing-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const copy = (from: string, to: string) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [CLI, from, to], (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr }),
      );
    });

  it('a memory:/dir that does not exist (a typo) is an error naming it, and is not created', async () => {
    const typo = path.join(dir, 'sorce');
    const r = await copy(`memory:${typo}`, `memory:${path.join(dir, 'target')}`);
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain(`the source memory:${typo} does not exist`);
    expect(r.stdout).to.not.contain('rows');
    expect(fs.existsSync(typo)).to.equal(false);
    expect(fs.existsSync(path.join(dir, 'target'))).to.equal(false);
  });

  it('a directory that holds no store is an error naming it', async () => {
    const empty = path.join(dir, 'empty');
    fs.mkdirSync(empty);
    const r = await copy(`memory:${empty}`, `memory:${path.join(dir, 'target')}`);
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.contain(`the source memory:${empty} holds no store`);
  });
});
