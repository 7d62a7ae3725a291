// Integer ids (ID_STYLE=integer, NetBox's style) in SQL stores, on PostgreSQL, MariaDB and MySQL 9:
// ids are the database's counters per table (ascending, shared by every store on the database, never
// handed out twice, never reused after a delete or a reopen), `uuidIds` resources keep UUIDs, reads
// filter and order ids as numbers, the style is kept in the database (a differing ID_STYLE is refused
// naming both), rows written with their ids move the counters on (advanceIdCounters), and a copy
// keeps ids between integer stores and refuses stores of different styles.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { Inventory } from '../../../app/inventory.js';
import { cmp, fk, TRUE, type Plan } from '../../../engine/plan/nodes.js';
import { resource, RESOURCES } from '../../../engine/schema/registry.js';
import { copyStorage, IdStylesDiffer } from '../../../storage/copy-storage.js';
import { createStorage } from '../../../storage/open-storage.js';
import { TEST_DB_KINDS, testDatabaseOrSkip, type TestDatabase } from '../../../storage/test-db.js';
import { execFile } from 'node:child_process';
import { distPath } from '../../support/paths.js';
import { StorageConfigError, type Page, type Row, type Storage, type StorageOptions } from '../../../storage/types.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const BY_ID: Page = { limit: 100, offset: 0, ordering: [{ field: 'id', desc: false }] };

async function made(s: Storage, name: string, bodies: unknown[]): Promise<Row[]> {
  const out = await new Inventory(s).create(resource(name), bodies);
  if (!out.ok) throw new Error(`${name}: ${JSON.stringify(out.errors)}`);
  return out.value;
}

/** `npm run copy -- from to` as a process: its exit code and what it wrote. */
const copyCli = (from: string, to: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [distPath('storage/copy-cli.js'), from, to], (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr }),
    );
  });

const ids = async (s: Storage, name: string, plan: Plan, page = BY_ID) =>
  (await s.find(name, plan, page)).rows.map((r) => r.id);

for (const kind of TEST_DB_KINDS) {
  describe(`integer ids in a SQL store on ${kind}`, function () {
    this.timeout(180000);
    const dbs: TestDatabase[] = [];
    const stores: Storage[] = [];
    let skip: string | null = null;
    const database = async () => {
      const db = await testDatabaseOrSkip(kind);
      if ('skip' in db) {
        skip = db.skip;
        return null;
      }
      dbs.push(db);
      return db;
    };
    const open = async (url: string, opts: StorageOptions = {}) => {
      const s = await createStorage(url, opts);
      stores.push(s);
      await s.open();
      return s;
    };
    const close = async (s: Storage) => {
      stores.splice(stores.indexOf(s), 1);
      await s.close();
    };
    let db: TestDatabase;
    before(async function () {
      const d = await database();
      if (!d) {
        console.log(`    (skipped: ${skip})`);
        this.skip();
      }
      db = d!;
    });
    afterEach(async () => {
      for (const s of stores.splice(0)) await s.close().catch(() => undefined);
    });
    after(async () => {
      for (const d of dbs) await d.drop();
    });

    it('a new store gets the asked style; ids are each table’s counter, UUIDs where uuidIds keeps them', async () => {
      const s = await open(db.url, { idStyle: 'integer' });
      expect(s.ids.name).to.equal('integer');
      expect(await s.newIds('site', 3)).to.deep.equal(['1', '2', '3']);
      expect(await s.newIds('site', 2)).to.deep.equal(['4', '5']);
      expect(await s.newIds('region', 1)).to.deep.equal(['1']);
      expect(await s.newIds('site', 0)).to.deep.equal([]);
      const kept = await s.newIds('history', 2);
      for (const id of kept) expect(id).to.match(V7);
      // Another store on the database draws from the same counters, concurrently: no number twice.
      const other = await open(db.url);
      const drawn = (
        await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? s : other).newIds('tenant', 5)))
      ).flat();
      expect(new Set(drawn).size).to.equal(100);
      expect(drawn.map(Number).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 100 }, (_, i) => i + 1));
    });

    it('rows carry decimal ids; filters on id and fk, cursor pages and id order are numeric', async () => {
      const s = await open(db.url);
      expect(s.ids.name).to.equal('integer');
      await made(s, 'tag', [{ name: 'blue', slug: 'blue' }]);
      const sites = await made(
        s,
        'site',
        Array.from({ length: 12 }, (_, i) => ({ name: `s${i}`, slug: `s${i}`, tags: ['blue'] })),
      );
      const siteIds = sites.map((x) => x.id);
      for (const id of siteIds) expect(id).to.match(/^[1-9][0-9]*$/);
      const [p1, p2] = await made(s, 'prefix', [
        { prefix: '10.0.0.0/8', status: 'active' },
        { prefix: '10.1.0.0/16', status: 'active' },
      ]);
      await s.apply([{ op: 'update', resource: 'prefix', row: { ...p1, site: siteIds[10] } }]);
      // Numeric order: the tenth id after the ninth, not between the first and the second.
      expect(await ids(s, 'site', TRUE)).to.deep.equal(siteIds);
      expect(await ids(s, 'site', TRUE, { ...BY_ID, ordering: [{ field: 'id', desc: true }] })).to.deep.equal(
        [...siteIds].reverse(),
      );
      const after = siteIds[8];
      expect(await ids(s, 'site', cmp('id', 'string', 'gt', false, [after]))).to.deep.equal(siteIds.slice(9));
      expect(await ids(s, 'site', cmp('id', 'string', 'lte', false, [siteIds[1]]))).to.deep.equal(siteIds.slice(0, 2));
      // eq / in: a text that is no integer id never equals one (and is no error).
      expect(
        await ids(s, 'site', cmp('id', 'string', 'eq', false, [siteIds[2], siteIds[11], 'abc', '0x1', '01'])),
      ).to.deep.equal([siteIds[2], siteIds[11]]);
      expect(await ids(s, 'prefix', cmp('site', 'string', 'eq', false, [siteIds[10]]))).to.deep.equal([p1.id]);
      expect(await ids(s, 'prefix', fk('site', 'site', [siteIds[10], 'nope'], false, true))).to.deep.equal([p1.id]);
      expect(await ids(s, 'prefix', { kind: 'null', field: 'site' })).to.deep.equal([p2.id]);
      expect((await s.getMany('site', [siteIds[3], 'x', siteIds[0]])).map((r) => r.id)).to.deep.equal([
        siteIds[3],
        siteIds[0],
      ]);
      expect((await s.get('prefix', p1.id))!.site).to.equal(siteIds[10]);
      expect(await s.findBy('site', 'tags', (await s.findBy('tag', 'slug', 'blue'))[0].id)).to.have.length(12);
      expect(Object.fromEntries(await s.countRefs('prefix', 'site', siteIds))).to.deep.equal({ [siteIds[10]]: 1 });
    });

    it('ids are never reused: not after a delete, not after a reopen', async () => {
      let s = await open(db.url);
      const [a, b] = await made(s, 'region', [
        { name: 'ra', slug: 'ra' },
        { name: 'rb', slug: 'rb' },
      ]);
      await s.apply([{ op: 'delete', resource: 'region', id: b.id }]);
      const [c] = await made(s, 'region', [{ name: 'rc', slug: 'rc' }]);
      expect(Number(c.id)).to.be.greaterThan(Number(b.id));
      await s.apply([{ op: 'delete', resource: 'region', id: c.id }]);
      await close(s);
      s = await open(db.url);
      const [d] = await made(s, 'region', [{ name: 'rd', slug: 'rd' }]);
      expect(Number(d.id)).to.be.greaterThan(Number(c.id));
      expect((await s.get('region', a.id))!.name).to.equal('ra');
    });

    it('rows written with their ids: advanceIdCounters moves each counter past them', async () => {
      const s = await open(db.url);
      const [site] = await made(s, 'site', [{ name: 'explicit-a', slug: 'explicit-a' }]);
      await s.apply([
        { op: 'create', resource: 'site', row: { ...site, id: '5000', name: 'explicit-b', slug: 'explicit-b' } },
      ]);
      await s.advanceIdCounters();
      expect(await s.newIds('site', 1)).to.deep.equal(['5001']);
      // Never back: with the highest row gone, the counter stays past it.
      await s.apply([{ op: 'delete', resource: 'site', id: '5000' }]);
      await s.advanceIdCounters();
      expect(Number((await s.newIds('site', 1))[0])).to.be.greaterThan(5001);
    });

    it('the style is the store’s: kept across opens, a differing ID_STYLE refused naming both', async () => {
      const s = await open(db.url, { idStyle: 'integer' });
      expect(s.ids.name).to.equal('integer');
      const reader = await open(db.url, { reader: true });
      expect(reader.ids.name).to.equal('integer');
      for (const opts of [{}, { reader: true }] as const) {
        const refused = await createStorage(db.url, { ...opts, idStyle: 'uuid' });
        stores.push(refused);
        const e = await refused.open().then(
          () => null,
          (x: unknown) => x,
        );
        expect(e).to.be.instanceOf(StorageConfigError);
        expect((e as Error).message).to.match(/ID_STYLE=uuid but the store at .* has integer ids/);
        expect((e as Error).message).to.not.contain('\n');
      }
      // A uuid store (the default) refuses integer the same way.
      const u = (await database())!;
      const us = await open(u.url);
      expect(us.ids.name).to.equal('uuid');
      expect((await us.newIds('site', 1))[0]).to.match(V7);
      await close(us);
      const e = await open(u.url, { idStyle: 'integer' }).then(
        () => null,
        (x: unknown) => x,
      );
      expect((e as Error).message).to.match(/ID_STYLE=integer but the store at .* has uuid ids/);
    });

    it('a copy between integer stores keeps every id; the target then numbers above them', async () => {
      const from = await open(db.url);
      const target = (await database())!;
      const to = await open(target.url, { idStyle: 'integer' });
      await copyStorage(from, to);
      for (const r of RESOURCES) {
        const all = { limit: 100_000, offset: 0, ordering: [{ field: 'id', desc: false }] };
        expect((await to.find(r.name, TRUE, all)).rows, r.name).to.deep.equal(
          (await from.find(r.name, TRUE, all)).rows,
        );
      }
      const highest = Math.max(...(await ids(from, 'site', TRUE, { ...BY_ID, limit: 1000 })).map(Number));
      expect(Number((await to.newIds('site', 1))[0])).to.be.greaterThan(highest);
    });

    it('npm run copy: a new target gets the source’s style and ids; one of another style is refused', async () => {
      const source = await open(db.url);
      const want = await ids(source, 'site', TRUE, { ...BY_ID, limit: 1000 });
      await close(source);
      const fresh = (await database())!;
      const r = await copyCli(db.url, fresh.url);
      expect(r.code, r.stderr).to.equal(0);
      const to = await open(fresh.url);
      expect(to.ids.name).to.equal('integer');
      expect(await ids(to, 'site', TRUE, { ...BY_ID, limit: 1000 })).to.deep.equal(want);
      await close(to);
      const u = (await database())!;
      await close(await open(u.url)); // a uuid store
      const refused = await copyCli(u.url, fresh.url);
      expect(refused.code).to.equal(1);
      expect(refused.stderr.trim()).to.equal(
        'copy: the source has uuid ids and the target integer ids: a copy keeps every id, so it runs only ' +
          "between stores of one id style (a new target is created with the source's)",
      );
    });

    it('a copy between stores of different id styles is refused, naming both', async () => {
      const integer = await open(db.url);
      const u = (await database())!;
      const uuid = await open(u.url);
      await made(uuid, 'region', [{ name: 'u', slug: 'u' }]);
      for (const [a, b] of [
        [uuid, integer],
        [integer, uuid],
      ]) {
        const e = await copyStorage(a, b).then(
          () => null,
          (x: unknown) => x,
        );
        expect(e).to.be.instanceOf(IdStylesDiffer);
        expect((e as Error).message).to.contain(`the source has ${a.ids.name} ids and the target ${b.ids.name} ids`);
      }
    });
  });
}
