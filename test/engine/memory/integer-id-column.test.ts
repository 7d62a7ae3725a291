// A table of an integer store keeps its ids as words and must answer exactly as a plain sort and
// filter of the id texts in the style's order (numbers: "9" before "10"): the comparison, the id
// order cursor pages walk (kept up to date row by row), range tests, lookups, the highest id and an
// image's round trip. Random id sets, random writes, random bounds.
import { expect } from 'chai';
import fc from 'fast-check';
import { IndexedTable } from '../../../engine/memory/indexed-table.js';
import { IdColumn } from '../../../engine/memory/columns/id-column.js';
import { resource } from '../../../engine/schema/registry.js';
import { INTEGER_IDS, UUID_IDS } from '../../../engine/schema/id-style.js';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';
import * as N from '../../../engine/plan/nodes.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);
const OPS = ['lt', 'lte', 'gt', 'gte'] as const;

// Small ids (many of one length, many lengths), the largest a JSON number holds, and in between.
const integerId = fc
  .oneof(
    fc.integer({ min: 1, max: 120 }),
    fc.integer({ min: 1, max: 2 ** 32 + 5 }),
    fc.constantFrom(2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 1),
    fc.maxSafeNat().filter((n) => n > 0),
  )
  .map(String);
// Text that is no canonical integer (leading zero, sign, too large, a UUID): kept as given, ordered by the style.
const otherId = fc.constantFrom('007', '0', '-1', 'abc', '9007199254740993', '00000000-0000-4000-8000-000000000001');
const bound = fc.oneof(integerId, fc.constantFrom('0', '007', 'abc', '99999999999999999'));

const holds = (op: (typeof OPS)[number], c: number) =>
  op === 'lt' ? c < 0 : op === 'lte' ? c <= 0 : op === 'gt' ? c > 0 : c >= 0;
const sorted = (ids: Iterable<string>) => [...ids].sort(INTEGER_IDS.compare);

describe('integer ids in the memory engine', () => {
  it('the style order of canonical integer text is numeric order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(integerId, { minLength: 2, maxLength: 40 }), (ids) => {
        expect(sorted(ids)).to.deep.equal([...ids].sort((a, b) => Number(a) - Number(b)));
      }),
      { numRuns: RUNS },
    );
  });

  it('orders, walks, range-tests and finds ids as a sort and a filter of their texts do', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.oneof({ weight: 6, arbitrary: integerId }, { weight: 1, arbitrary: otherId }), {
          minLength: 1,
          maxLength: 60,
        }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.uniqueArray(integerId, { maxLength: 20 }),
        bound,
        (ids, removals, later, at) => {
          const t = new IndexedTable(resource('tag'), INTEGER_IDS);
          const held = new Set<string>();
          for (const id of ids) {
            t.insert({ id, name: `n${id}` });
            held.add(id);
          }
          t.idOrdered(); // built now: the writes below keep it in order row by row
          for (const r of removals) {
            const id = ids[r % ids.length];
            if (held.delete(id)) t.remove(id);
          }
          for (const id of later.filter((x) => !held.has(x))) {
            held.add(id);
            t.insert({ id, name: `n${id}` });
          }
          const want = sorted(held);
          expect([...t.idOrdered()].map((s) => t.idOf(s))).to.deep.equal(want);
          const slots = [...held].map((id) => t.slotOf(id)!);
          expect(slots.map((s) => t.idOf(s))).to.deep.equal([...held]);
          expect(slots.sort((a, b) => t.compareIds(a, b)).map((s) => t.idOf(s))).to.deep.equal(want);
          for (const op of OPS) {
            const test = t.idRangeTester(op, at)!;
            const passing = want.filter((id) => test(t.slotOf(id)!));
            // An integer bound compares as a number; any other text as text (as a database compares them).
            const order = (id: string) =>
              INTEGER_IDS.parse(at) === at ? INTEGER_IDS.compare(id, at) : id < at ? -1 : id > at ? 1 : 0;
            expect(passing, `id ${op} ${at}`).to.deep.equal(want.filter((id) => holds(op, order(id))));
          }
          const canonical = [...held].filter((id) => INTEGER_IDS.parse(id) === id).map(Number);
          expect(t.maxIntegerId()).to.equal(canonical.length ? Math.max(...canonical) : 0);
          // An image reads back with the same ids in the same order.
          const back = new IndexedTable(resource('tag'), INTEGER_IDS);
          back.loadImage(t.image());
          expect([...back.idOrdered()].map((s) => back.idOf(s))).to.deep.equal(want);
          for (const id of want) expect(back.get(id)?.name).to.equal(`n${id}`);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('packs integer ids only in an integer column, and reads either kind of packed image back', () => {
    const ints = new IdColumn(INTEGER_IDS),
      uuids = new IdColumn(UUID_IDS);
    ints.resize(4);
    uuids.resize(4);
    for (const c of [ints, uuids]) {
      c.set(0, '17');
      c.set(1, '00000000-0000-4000-8000-000000000001');
    }
    const live = Int32Array.from([0, 1]);
    const intImage = ints.idImage(live),
      uuidImage = uuids.idImage(live);
    expect([...intImage.packed]).to.deep.equal([2, 0]); // the UUID is kept as given in an integer column
    expect([...uuidImage.packed]).to.deep.equal([0, 1]);
    const read = new IdColumn();
    read.loadIds(intImage, 2);
    expect([read.get(0), read.get(1)]).to.deep.equal(['17', '00000000-0000-4000-8000-000000000001']);
    // A UUID store orders as text ("17" after "0000..."), an integer store by the style ("17" first: shorter).
    expect(uuids.compare(0, 1)).to.be.greaterThan(0);
    expect(ints.compare(0, 1)).to.be.lessThan(0);
  });

  it('cursor pages of an integer store (ids from a start on) equal a plain filter in numeric order', async () => {
    const COLORS = ['aa0000', '00aa00', '0000aa'];
    const now = '2026-01-01T00:00:00.000Z';
    // Ids of every length from 1 to 6 digits, scattered so that insertion order is not id order.
    const scattered = (i: number) => String(((i * 7919) % 100_003) + 1);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(fc.option(fc.constantFrom(...COLORS), { nil: null }), fc.nat(), fc.integer({ min: 1, max: 60 })),
          { minLength: 1, maxLength: 6 },
        ),
        fc.nat({ max: 90 }),
        async (steps, churn) => {
          const store = new MemoryStorage(null, { idStyle: 'integer' });
          const table = store.table('tag');
          const live = new Map<string, string>();
          let made = 0;
          const add = () => {
            const id = scattered(made),
              color = COLORS[made++ % COLORS.length];
            table.insert({ id, name: `t${id}`, slug: `t${id}`, color, created: now, last_updated: now });
            live.set(id, color);
          };
          for (let i = 0; i < 2600; i++) add();
          for (const [color, at, limit] of steps) {
            // A start that is an id of the table, or one between two (made, not stored).
            const start = at % 2 ? scattered(at % (made + 50)) : [...live.keys()][at % live.size];
            const bound = N.cmp('id', 'string', 'gte', false, [start]);
            const plan = color === null ? bound : N.and([N.cmp('color', 'string', 'eq', false, [color]), bound]);
            const got = await store.find(
              'tag',
              plan,
              { limit, offset: 0, ordering: [{ field: 'id', desc: false }] },
              { noCount: true },
            );
            const want = sorted(
              [...live]
                .filter(([id, c]) => Number(id) >= Number(start) && (color === null || c === color))
                .map(([id]) => id),
            ).slice(0, limit);
            expect(got.rows.map((r) => r.id)).to.deep.equal(want);
            for (let k = 0; k < churn; k++) {
              if (k % 3 === 2) {
                const gone = [...live.keys()][(at + k * 31) % live.size];
                table.remove(gone);
                live.delete(gone);
              } else add();
            }
          }
        },
      ),
      { numRuns: Math.max(10, Math.round(RUNS / 10)) },
    );
  });
});
