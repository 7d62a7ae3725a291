// A memory replica holds what the database holds however its records reach it (#34 item 7):
// applied one write at a time as they commit, many together in one step of the follower (its log
// reads held back while the writes go on), or put in place by the process that wrote them
// (applyOwn, from the write itself: rows as the database stores them, engine/changes/row-as-stored.ts). Random writes
// (fast-check) go through the inventory service
// of two replicated stores in turn; after each run every replica's rows of every resource written
// equal a plain read of the database, and a read asking for the last seq (X-Min-Change-Seq) waits
// for the held-back replica and is then answered from it, with the last write in.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { TRUE } from '../../../engine/plan/nodes.js';
import { resource } from '../../../engine/schema/registry.js';
import { createPostgresStorage } from '../../../storage/postgres/index.js';
import { createMysqlStorage } from '../../../storage/mysql/index.js';
import { ReplicatedStorage } from '../../../storage/replica/replicated-storage.js';
import { Inventory } from '../../../app/inventory.js';
import { withWriteContext, type WriteContext } from '../../../storage/change-log/write-context.js';
import type { SqlStorage } from '../../../storage/sql/sql-storage.js';
import type { Row, Storage } from '../../../storage/types.js';

const RUNS = Number(process.env.REPLICA_BATCH_RUNS ?? 6);
const RESOURCES = ['region', 'tag', 'site', 'prefix'] as const;

/** One random write: what to do, through which store, and numbers to pick objects and values with. */
interface Step {
  readonly via: 0 | 1;
  readonly what: number;
  readonly a: number;
  readonly b: number;
  readonly n: number;
}
const step = fc.record({
  via: fc.constantFrom(0 as const, 1 as const),
  what: fc.integer({ min: 0, max: 9 }),
  a: fc.nat(),
  b: fc.nat(),
  n: fc.integer({ min: 1, max: 4 }),
});

/** A log reader whose reads wait while `held` (the follower then finds every write since in one step). */
function holdable(store: SqlStorage): { hold(): void; release(): void } {
  let gate: Promise<void> | null = null,
    open = () => {};
  const find = store.find.bind(store);
  store.find = async (...args) => {
    while (gate) await gate;
    return find(...args);
  };
  return {
    hold: () => {
      gate ??= new Promise((res) => {
        open = res;
      });
    },
    release: () => {
      const g = gate;
      gate = null;
      if (g) open();
    },
  };
}

/** A request's context: a write's reads go to the database, as the server's are; a read may ask for a seq. */
function context(write: boolean, minSeq?: number): WriteContext {
  return { requestId: randomUUID(), userName: () => 'test', seq: null, memo: new Map(), primary: write, minSeq };
}

for (const backend of BACKENDS.filter((b) => b.driver !== 'memory')) {
  describe(
    `memory replicas on ${backend.name}: records applied one by one, together, or by their writer give ` +
      `the database's rows`,
    function () {
      this.timeout(600000);
      let db: { url: string; drop(): Promise<void> } | null = null;
      const stores: ReplicatedStorage[] = [];
      let held: { hold(): void; release(): void };
      const open = (url: string, reader: boolean): SqlStorage =>
        (backend.driver === 'postgres' ? createPostgresStorage : createMysqlStorage)(
          url,
          reader ? { reader: true, poolSize: 2 } : {},
        ) as SqlStorage;

      before(async function () {
        db = await backend.url();
        if (!db) {
          this.skip();
          return;
        }
        for (let i = 0; i < 3; i++) {
          const follow = open(db.url, true);
          if (i === 2) held = holdable(follow);
          const s = new ReplicatedStorage(open(db.url, false), { follow, load: follow }, { log: () => {} });
          await s.open();
          stores.push(s);
        }
      });
      after(async () => {
        held?.release();
        for (const s of stores) await s.close();
        await db?.drop();
      });

      it(`${RUNS} runs of random writes`, async () => {
        // Stores 0 and 1 take the writes (each applies its own, follows the other's); store 2 only follows, held back
        // each run.
        const services = stores.slice(0, 2).map((s) => new Inventory(s));
        const ids: Record<(typeof RESOURCES)[number], string[]> = { region: [], tag: [], site: [], prefix: [] };
        let made = 0,
          last = 0,
          batchedSteps = 0;
        const pick = (xs: readonly string[], k: number) => (xs.length ? xs[k % xs.length] : null);
        const run = async (s: Step): Promise<void> => {
          const inv = services[s.via];
          const k = made++;
          let out,
            gone: { list: string[]; id: string } | null = null;
          const target = (r: 'site' | 'prefix' | 'region') => {
            const id = pick(ids[r], s.a);
            if (id) gone = { list: ids[r], id };
            return id;
          };
          switch (s.what) {
            case 0:
              out = await inv.create(
                resource('region'),
                Array.from({ length: s.n }, (_, i) => ({ name: `r${k}.${i}`, slug: `r${k}-${i}` })),
              );
              break;
            case 1:
              out = await inv.create(resource('tag'), [
                { name: `t${k}`, slug: `t${k}`, color: ['ff0000', '00ff00'][s.a % 2] },
              ]);
              break;
            case 2:
            case 3:
              out = await inv.create(
                resource('site'),
                Array.from({ length: s.n }, (_, i) => ({
                  name: `s${k}.${i}`,
                  slug: `s${k}-${i}`,
                  status: ['active', 'planned', 'retired'][(s.a + i) % 3],
                  region: pick(ids.region, s.b + i),
                  asn: (s.a + i) % 4 ? 65000 + ((s.b + i) % 100) : null,
                  tags: ids.tag.filter((_, j) => (s.b >> j) & 1).slice(0, 3),
                  custom_fields: {},
                  description: s.b % 3 ? `d${s.a}` : '',
                })),
              );
              break;
            case 4: {
              const id = pick(ids.site, s.a);
              if (!id) return;
              out = await inv.update(
                resource('site'),
                id,
                { facility: `F${s.b % 5}`, status: ['active', 'retired'][s.b % 2], asn: s.b % 3 ? null : 64512 },
                true,
              );
              break;
            }
            case 5: {
              const id = target('site');
              if (!id) return;
              out = await inv.delete(resource('site'), id);
              break;
            }
            case 6:
              out = await inv.create(
                resource('prefix'),
                Array.from({ length: s.n }, (_, i) => ({
                  prefix: `10.${(s.a + i) % 8}.${((s.b + i) % 8) * 32}.0/27`,
                  site: pick(ids.site, s.b + i),
                  description: `p${k}`,
                })),
              );
              break;
            case 7: {
              const id = pick(ids.prefix, s.a);
              if (!id) return;
              out = await inv.update(
                resource('prefix'),
                id,
                { status: ['active', 'reserved'][s.b % 2], description: `q${s.b}` },
                true,
              );
              break;
            }
            case 8: {
              const id = target('prefix');
              if (!id) return;
              out = await inv.delete(resource('prefix'), id);
              break;
            }
            // A region deleted: its sites' region is set to null in the same batch (several records in one commit).
            default: {
              const id = target('region');
              if (!id) return;
              out = await inv.delete(resource('region'), id);
              break;
            }
          }
          // Refusals (a clash, a reference) are decided answers that wrote nothing.
          if (!out.ok) {
            expect(out.kind, JSON.stringify(out)).to.be.oneOf(['invalid', 'not_found', 'conflict']);
            return;
          }
          const r = (['region', 'tag', 'site', 'site', null, null, 'prefix'] as const)[s.what];
          if (r && Array.isArray(out.value)) for (const row of out.value as Row[]) ids[r].push(row.id);
          const g = gone as { list: string[]; id: string } | null;
          if (g) g.list.splice(g.list.indexOf(g.id), 1);
        };

        await fc.assert(
          fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30 }), async (steps) => {
            held.hold();
            const before = stores[2].follower.applied;
            for (const s of steps) {
              const scope = context(true);
              await withWriteContext(scope, () => run(s));
              last = Math.max(last, scope.seq ?? 0);
            }
            // Held back: the last seq is not reached, and a read asking for it waits, then is answered from the
            // replica.
            if (last > before) {
              expect(await stores[2].follower.reach(last, 50)).to.equal(false);
              let source: string | undefined;
              const scope = {
                ...context(false, last),
                onReadSource: (x: 'replica' | 'database') => {
                  source = x;
                },
              };
              const reading = withWriteContext(scope, () =>
                stores[2].find('site', TRUE, { limit: 100000, offset: 0, ordering: [{ field: 'id', desc: false }] }),
              );
              await new Promise((res) => setTimeout(res, 100));
              held.release();
              const got = await reading;
              expect(source, 'read at the last seq').to.equal('replica');
              expect(got.rows.map((x) => x.id)).to.deep.equal(
                (await rowsOf(stores[0].primary, 'site')).map((x) => x.id),
              );
              batchedSteps++;
            } else held.release();
            for (const s of stores)
              expect(await s.follower.reach(last, 10000), 'every replica reaches the last seq').to.equal(true);
            for (const r of RESOURCES) {
              const want = await rowsOf(stores[0].primary, r);
              for (const [i, s] of stores.entries())
                expect(await rowsOf(s.replica, r), `${r} in replica ${i}`).to.deep.equal(want);
            }
          }),
          { numRuns: RUNS },
        );
        expect(batchedSteps, 'runs where the held-back replica took several writes at once').to.be.greaterThan(0);
        expect(ids.site.length + ids.prefix.length).to.be.greaterThan(0);
      });
    },
  );
}

async function rowsOf(s: Storage, r: string): Promise<Row[]> {
  return [...(await s.find(r, TRUE, { limit: 100000, offset: 0, ordering: [{ field: 'id', desc: false }] })).rows];
}
