// Related counts kept by triggers (engine/sql/related-counts.ts) on PostgreSQL, MariaDB and MySQL 9:
// rows written before the migration are counted when it comes; two stores on one database write
// prefixes and devices (creates, moves, deletes, in bulk) while a third folds the deltas over and
// over, and every count read (base plus deltas) equals COUNT(*) of the rows; folding everything
// leaves no delta and changes no count. A page longer than one count statement reads, with many
// counted objects, is counted whole. A page of half the objects or more reads every counter of its
// keys (no id list) and keeps only its own, also when the object total it weighed is stale. Databases:
// TEST_POSTGRES_URL, TEST_MYSQL_URL, TEST_MYSQL9_URL.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { BACKENDS, sqlDriver } from '../../e2e/conformance/backends.js';
import { MIGRATIONS_TABLE } from '../../../storage/sql/migrations.js';
import { SqlStorage } from '../../../storage/sql/sql-storage.js';
import { Inventory } from '../../../app/inventory.js';
import { resource } from '../../../engine/schema/registry.js';
import { COUNT_DELTAS, COUNT_TABLE, COUNTED_REFS, EVERY_FROM, READ_CHUNK } from '../../../engine/sql/related-counts.js';
import { tableModel } from '../../../engine/sql/table-model.js';
import type { SqlDriver } from '../../../storage/sql/driver.js';
import type { Row } from '../../../storage/types.js';

for (const backend of BACKENDS.filter((b) => b.name !== 'memory')) {
  describe(`related counts in SQL on ${backend.name}`, function () {
    this.timeout(300000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    const driverFor = (url: string) => sqlDriver(backend, url);
    before(async function () {
      db = await backend.url();
      if (!db) {
        this.skip();
      }
    });
    after(async () => {
      await db?.drop();
    });

    const made = async (inv: Inventory, name: string, body: unknown): Promise<Row[]> => {
      const out = await inv.create(resource(name), Array.isArray(body) ? body : [body]);
      if (!out.ok) throw new Error(`${name}: ${JSON.stringify(out.errors)}`);
      return out.value;
    };

    /** Every counted reference's counts read through the store against COUNT(*) of the rows. */
    async function checkCounts(s: SqlStorage, raw: SqlDriver, what: string): Promise<void> {
      const q = (await raw.connect()).quote;
      for (const c of COUNTED_REFS) {
        const truth = new Map(
          (
            await raw.query(
              `SELECT ${q(c.field)} AS ref, COUNT(*) AS n FROM ${q(tableModel(c.resource).table)} WHERE ` +
                `${q(c.field)} IS NOT NULL GROUP BY ${q(c.field)}`,
            )
          ).rows.map((r) => [String(r.ref), Number(r.n)]),
        );
        const targets = (
          await raw.query(
            `SELECT ${q('id')} AS id FROM ` +
              `${q(tableModel(resource(c.resource).fields.find((f) => f.name === c.field)!.target!).table)}`,
          )
        ).rows.map((r) => String(r.id));
        if (!targets.length) continue;
        const read = await s.countRefs(c.resource, c.field, targets);
        expect(Object.fromEntries(read), `${what}: ${c.key}`).to.deep.equal(Object.fromEntries(truth));
      }
    }

    it(
      'a page is counted whole: a long list per counted ' + 'reference, and more ids than one statement reads',
      async () => {
        const s = new SqlStorage(driverFor(db!.url));
        await s.open();
        try {
          await s.truncateAll();
          const inv = new Inventory(s);
          // 60 counted sites: a list of pairs well past a kilobyte.
          const sites = await made(
            inv,
            'site',
            Array.from({ length: 60 }, (_, i) => ({ name: `pg${i}`, slug: `pg${i}` })),
          );
          await made(
            inv,
            'device',
            sites.map((x, i) => ({ name: `pd${i}`, site: x.id })),
          );
          await made(
            inv,
            'prefix',
            sites.flatMap((x, i) =>
              i % 2
                ? []
                : [
                    { prefix: `10.${i}.0.0/16`, site: x.id },
                    { prefix: `10.${i}.1.0/24`, site: x.id },
                  ],
            ),
          );
          // Ids nothing names first, so the counted ones fall in the second statement (READ_CHUNK).
          const unknown = Array.from(
            { length: READ_CHUNK + 7 },
            (_, i) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
          );
          const ids = [...unknown, ...sites.map((x) => x.id)];
          const want = [
            new Map(sites.map((x) => [x.id, 1])),
            new Map(sites.flatMap((x, i) => (i % 2 ? [] : [[x.id, 2] as const]))),
          ];
          const refs = [
            { resource: 'device', field: 'site' },
            { resource: 'prefix', field: 'site' },
          ];
          expect(
            (await s.countRefsOf(refs, ids)).map((m) => Object.fromEntries(m)),
            'from deltas',
          ).to.deep.equal(want.map((m) => Object.fromEntries(m)));
          await s.foldCounts();
          expect(
            (await s.countRefsOf(refs, ids)).map((m) => Object.fromEntries(m)),
            'folded',
          ).to.deep.equal(want.map((m) => Object.fromEntries(m)));
        } finally {
          await s.close();
        }
      },
    );

    it(
      'a page of half the objects or more reads every counter of its keys and keeps its own, also when the ' +
        'total it weighed is stale',
      async () => {
        const driver = driverFor(db!.url);
        // Observed, not altered: which count statements named ids.
        const seen: { sql: string; params: readonly unknown[] }[] = [];
        const query = driver.query.bind(driver);
        driver.query = (sql, params = []) => {
          seen.push({ sql, params });
          return query(sql, params);
        };
        const s = new SqlStorage(driver);
        await s.open();
        try {
          await s.truncateAll();
          const inv = new Inventory(s);
          const mk = async (from: number, n: number) => {
            const sites = await made(
              inv,
              'site',
              Array.from({ length: n }, (_, i) => ({ name: `ev${from + i}`, slug: `ev${from + i}` })),
            );
            await made(
              inv,
              'device',
              sites.map((x, i) => ({ name: `ed${from + i}`, site: x.id })),
            );
            await made(
              inv,
              'prefix',
              sites.flatMap((x, i) =>
                i % 2
                  ? []
                  : [
                      { prefix: `10.${(from + i) >> 8}.${(from + i) & 255}.0/24`, site: x.id },
                      { prefix: `10.${(from + i) >> 8}.${(from + i) & 255}.0/25`, site: x.id },
                    ],
              ),
            );
            return sites;
          };
          const refs = [
            { resource: 'device', field: 'site' },
            { resource: 'prefix', field: 'site' },
          ];
          const countsOf = async (ids: string[]) => {
            seen.length = 0;
            const got = (await s.countRefsOf(refs, ids)).map((m) => Object.fromEntries(m));
            const counted = seen.filter((x) => x.sql.includes(COUNT_TABLE));
            expect(counted).to.have.length(1);
            return { got, named: counted[0].params.flat().some((p) => p === ids[0]) };
          };
          const want = (all: Row[], page: Row[]) => {
            const on = new Set(page.map((x) => x.id));
            return [
              Object.fromEntries(all.filter((x) => on.has(x.id)).map((x) => [x.id, 1])),
              Object.fromEntries(all.flatMap((x, i) => (on.has(x.id) && i % 2 === 0 ? [[x.id, 2]] : []))),
            ];
          };
          const first = await mk(0, 2 * EVERY_FROM);
          const most = first.slice(0, Math.ceil(first.length * 0.6)),
            few = first.slice(0, EVERY_FROM - 1);
          for (const folded of [false, true]) {
            if (folded) await s.foldCounts();
            const big = await countsOf(most.map((x) => x.id));
            expect(big.named, `every counter read (folded: ${folded})`).to.equal(false);
            expect(big.got, `page of ${most.length} of ${first.length}`).to.deep.equal(want(first, most));
            const small = await countsOf(few.map((x) => x.id));
            expect(small.named, 'a short page names its ids').to.equal(true);
            expect(small.got).to.deep.equal(want(first, few));
          }
          // More objects than the total last counted: the page is now a small share, read either way exactly.
          const second = await mk(2 * EVERY_FROM, 4 * EVERY_FROM);
          const page = second.slice(0, EVERY_FROM + 20);
          expect((await countsOf(page.map((x) => x.id))).got).to.deep.equal(want(second, page));
        } finally {
          await s.close();
        }
      },
    );

    it(
      'rows written before the migration are counted when ' + 'it comes; racing writers and folds lose no count',
      async () => {
        const s = new SqlStorage(driverFor(db!.url));
        await s.open();
        const raw = driverFor(db!.url);
        const q = (await raw.connect()).quote;
        try {
          await s.truncateAll();
          const inv = new Inventory(s);
          const sites = await made(
            inv,
            'site',
            [0, 1, 2].map((i) => ({ name: `rc${i}`, slug: `rc${i}` })),
          );
          await made(
            inv,
            'device',
            sites.map((x, i) => ({ name: `old${i}`, site: x.id })),
          );
          await made(
            inv,
            'prefix',
            sites.map((x, i) => ({ prefix: `10.${i}.0.0/16`, site: x.id })),
          );
          await s.close();
          // Back to before migration 14: its tables and record gone (the triggers go with the tables' rows below).
          await raw.query(`DROP TABLE ${q(COUNT_TABLE)}`);
          await raw.query(`DROP TABLE ${q(COUNT_DELTAS)}`);
          await raw.query(`DELETE FROM ${q(MIGRATIONS_TABLE)} WHERE ${q('version')} = 14`);
          const [a, b, folder] = [
            new SqlStorage(driverFor(db!.url)),
            new SqlStorage(driverFor(db!.url)),
            new SqlStorage(driverFor(db!.url)),
          ];
          await a.open();
          expect(a.appliedMigrations).to.deep.equal([14]);
          await b.open();
          await folder.open();
          try {
            await checkCounts(a, raw, 'after the migration');
            expect(await a.countRefs('device', 'site', [sites[0].id])).to.deep.equal(new Map([[sites[0].id, 1]]));
            let writing = true,
              folds = 0;
            const fold = async () => {
              while (writing) {
                await folder.foldCounts();
                folds++;
              }
            };
            const writer = async (st: SqlStorage, w: number) => {
              const i2 = new Inventory(st);
              const order = w % 2 ? [...sites].reverse() : sites;
              for (let i = 0; i < 12; i++) {
                const made2 = await made(
                  i2,
                  'prefix',
                  order.map((x, k) => ({ prefix: `172.${16 + w}.${i * 4 + k}.0/24`, site: x.id })),
                );
                const up = await i2.update(resource('prefix'), made2[0].id, { site: order[(i + 1) % 3].id }, true);
                expect(up.ok, JSON.stringify(up)).to.equal(true);
                const bulk = await i2.updateMany(
                  resource('prefix'),
                  [
                    { id: made2[1].id, body: { site: null } },
                    { id: made2[2].id, body: { site: order[0].id } },
                  ],
                  true,
                );
                expect(bulk.ok, JSON.stringify(bulk)).to.equal(true);
                expect((await i2.delete(resource('prefix'), made2[i % 3].id)).ok).to.equal(true);
                const dev = await made(i2, 'device', { name: `w${w}-${i}`, site: order[i % 3].id });
                if (i % 2) expect((await i2.delete(resource('device'), dev[0].id)).ok).to.equal(true);
              }
            };
            const folding = fold();
            await Promise.all([writer(a, 0), writer(b, 1), writer(a, 2), writer(b, 3)]);
            writing = false;
            await folding;
            expect(folds).to.be.greaterThan(0);
            await checkCounts(b, raw, 'after the race');
            await a.foldCounts();
            expect(Number((await raw.query(`SELECT COUNT(*) AS n FROM ${q(COUNT_DELTAS)}`)).rows[0].n)).to.equal(0);
            await checkCounts(a, raw, 'all folded');
          } finally {
            await Promise.all([a.close(), b.close(), folder.close()]);
          }
        } finally {
          await raw.close();
          await s.close().catch(() => undefined);
        }
      },
    );
  });
}
