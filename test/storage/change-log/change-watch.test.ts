// Token checks and custom field definitions are answered from the process's memory and dropped when
// the change log shows a record of theirs (storage/change-log/change-watch.ts), with no read of the
// database per write request (#34 item 7): a process's own commit says what it wrote; another
// process's commit is looked at by the replica's follower where there is one (it reads those
// records anyway), else by a reading of the log here. Two stores on one database stand for two
// processes; the database reads are counted on the store the answers come from.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { resource } from '../../../engine/schema/registry.js';
import { CHANGE_RESOURCE } from '../../../engine/changes/change-records.js';
import { createPostgresStorage } from '../../../storage/postgres/index.js';
import { createMysqlStorage } from '../../../storage/mysql/index.js';
import { ReplicatedStorage } from '../../../storage/replica/replicated-storage.js';
import { Inventory } from '../../../app/inventory.js';
import { Tokens } from '../../../app/tokens.js';
import { withWriteContext, type WriteContext } from '../../../storage/change-log/write-context.js';
import type { SqlStorage } from '../../../storage/sql/sql-storage.js';

/**
 * The reads of the change counter, the change log and the custom field definitions made through `store` (patched in
 * place: it stays the same object).
 */
function countReads(store: SqlStorage): () => number {
  let n = 0;
  const changeSeq = store.changeSeq.bind(store),
    find = store.find.bind(store);
  store.changeSeq = () => {
    n++;
    return changeSeq();
  };
  store.find = (r, ...rest) => {
    if (r === CHANGE_RESOURCE || r === 'custom_field') n++;
    return find(r, ...rest);
  };
  return () => n;
}

const site = resource('site'),
  customField = resource('custom_field');
const request = (write: boolean, minSeq?: number): WriteContext => ({
  requestId: randomUUID(),
  userName: () => 'test',
  seq: null,
  memo: new Map(),
  primary: write,
  minSeq,
});
const created = <T>(r: { ok: boolean; value?: T; errors?: unknown }): T => {
  expect(r.ok, JSON.stringify(r.errors)).to.equal(true);
  return r.value!;
};

for (const backend of BACKENDS.filter((b) => b.driver !== 'memory')) {
  const open = (url: string, reader = false): SqlStorage =>
    (backend.driver === 'postgres' ? createPostgresStorage : createMysqlStorage)(
      url,
      reader ? { reader: true, poolSize: 2 } : {},
    ) as SqlStorage;

  describe(`token checks and custom fields on ${backend.name}: no database read per own write`, function () {
    this.timeout(60000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let a: SqlStorage, b: SqlStorage;
    before(async function () {
      db = await backend.url();
      if (!db) {
        this.skip();
        return;
      }
      a = open(db.url);
      b = open(db.url);
      await a.open();
      await b.open();
    });
    after(async () => {
      await a?.close();
      await b?.close();
      await db?.drop();
    });

    it(
      "a process's own writes need no read; a field defined through another is known at once when named, a " +
        'token deleted there is refused',
      async () => {
        const reads = countReads(a);
        const tokens = new Tokens(a, 60_000),
          inv = new Inventory(a, { recheckMs: 60_000 }),
          invB = new Inventory(b, { recheckMs: 60_000 });
        try {
          const t = await tokens.create(['*'], 't');
          expect(await tokens.authenticate(t.key)).to.not.equal(null);
          await withWriteContext(request(true), () => inv.customFieldsFor(site));
          const before = reads();
          for (let i = 0; i < 20; i++) {
            await withWriteContext(request(true), async () => {
              expect((await tokens.authenticate(t.key))?.name).to.equal('t');
              created(await inv.create(site, [{ name: `own-${i}`, slug: `own-${i}` }]));
            });
          }
          expect(reads() - before, 'reads of the counter, the log or the definitions for 20 own writes').to.equal(0);

          // Defined through the other store: named by a write here, it is read again and known.
          await withWriteContext(request(true), async () =>
            created(await invB.create(customField, [{ name: 'floor', type: 'integer', content_types: ['dcim.site'] }])),
          );
          await withWriteContext(request(true), async () => {
            expect((await inv.customFieldsFor(site, ['floor'])).map((d) => d.name)).to.deep.equal(['floor']);
            created(await inv.create(site, [{ name: 'with-floor', slug: 'with-floor', custom_fields: { floor: 3 } }]));
          });
          // Deleted through the other store: refused here once the log is read (announced at once on PostgreSQL, else
          // within the bound).
          await b.apply([{ op: 'delete', resource: 'token', id: t.row.id, before: t.row }]);
          const quick = new Tokens(a, 0);
          expect(await quick.authenticate(t.key)).to.equal(null);
          expect(await tokens.authenticate(t.key)).to.equal(null);
          quick.close();
        } finally {
          tokens.close();
          inv.close();
          invB.close();
        }
      },
    );
  });

  describe(
    `token checks and custom fields on ${backend.name} with memory replicas: others' changes come from ` +
      `the follower`,
    function () {
      this.timeout(60000);
      let db: { url: string; drop(): Promise<void> } | null = null;
      const stores: ReplicatedStorage[] = [];
      before(async function () {
        db = await backend.url();
        if (!db) {
          this.skip();
          return;
        }
        for (let i = 0; i < 2; i++) {
          const follow = open(db.url, true);
          const s = new ReplicatedStorage(open(db.url), { follow, load: follow }, { log: () => {} });
          await s.open();
          stores.push(s);
        }
      });
      after(async () => {
        for (const s of stores) await s.close();
        await db?.drop();
      });

      it(
        "another process's writes cost no read here; its token delete and field definition are seen once the " +
          'follower applied them',
        async () => {
          const [a, b] = stores;
          const tokens = new Tokens(a, 60_000),
            inv = new Inventory(a, { recheckMs: 60_000 }),
            invB = new Inventory(b, { recheckMs: 60_000 });
          try {
            const t = await tokens.create(['*'], 't');
            expect(await tokens.authenticate(t.key)).to.not.equal(null);
            await withWriteContext(request(false), () => inv.customFieldsFor(site));
            const reads = countReads(a.primary);
            let seq = 0;
            for (let i = 0; i < 20; i++) {
              await withWriteContext(request(true), async () => {
                created(await invB.create(site, [{ name: `other-${i}`, slug: `other-${i}` }]));
              });
              seq = await b.changeSeq();
              // As a request right after: the follower has the announcement (PostgreSQL) or reads the log (MySQL)
              // meanwhile.
              expect((await tokens.authenticate(t.key))?.name).to.equal('t');
            }
            expect(await a.follower.reach(seq, 5000)).to.equal(true);
            expect((await tokens.authenticate(t.key))?.name).to.equal('t');
            expect(
              reads(),
              "reads of the counter, the log or the definitions for 20 of another process's writes",
            ).to.equal(0);

            // Another process's changes of what is cached: seen as soon as this follower applied them, however long the
            // recheck bound.
            await withWriteContext(request(true), async () =>
              created(
                await invB.create(customField, [{ name: 'rack_count', type: 'integer', content_types: ['dcim.site'] }]),
              ),
            );
            await b.apply([{ op: 'delete', resource: 'token', id: t.row.id, before: t.row }]);
            expect(await a.follower.reach(await b.changeSeq(), 5000)).to.equal(true);
            expect(await tokens.authenticate(t.key)).to.equal(null);
            expect(
              (await withWriteContext(request(false), () => inv.customFieldsFor(site))).map((d) => d.name),
            ).to.deep.equal(['rack_count']);
          } finally {
            tokens.close();
            inv.close();
            invB.close();
          }
        },
      );
    },
  );
}
