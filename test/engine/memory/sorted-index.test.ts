// #34 item 2: the memory store's range index appends a row that sorts last (a change record's seq)
// instead of sorting everything again; any mix of appends, out-of-order adds and removals answers
// every range as an index built from scratch does.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import fc from 'fast-check';
import { SortedIndex, type SortValue } from '../../../engine/memory/sorted-index.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);

describe('SortedIndex: appends, rebuilds', () => {
  it('answers every range as a fresh build after any adds and removals', () => {
    const value = fc.oneof(
      fc.integer({ min: -5, max: 40 }),
      fc.constant(null),
      fc.constantFrom('a', 'b', 'c'),
      fc.constant(NaN),
    );
    const op = fc.oneof(
      fc.record({ add: value, rising: fc.boolean() }),
      fc.record({ remove: fc.nat() }),
      fc.constant({ read: true }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const vals = new Map<number, SortValue | null>();
        let next = 0,
          top = 0;
        const live = () => [...vals.keys()];
        const idx = new SortedIndex((s) => vals.get(s) ?? null, live);
        const check = () => {
          const fresh = new SortedIndex((s) => vals.get(s) ?? null, live);
          expect(idx.size).to.equal(fresh.size);
          for (const [lo, hi] of [
            [null, null],
            [0, 10],
            [5, null],
            [null, 'b'],
            ['a', 'c'],
          ] as const)
            for (const ex of [false, true])
              expect([...idx.range(lo, ex, hi, !ex)]).to.deep.equal([...fresh.range(lo, ex, hi, !ex)]);
        };
        for (const o of ops) {
          if ('add' in o) {
            const v = o.rising && typeof o.add === 'number' ? (top += Math.abs(o.add) % 3) : o.add;
            vals.set(next, v);
            idx.added(next++);
          } else if ('remove' in o) {
            const s = live()[o.remove % Math.max(1, vals.size)];
            if (s !== undefined) {
              vals.delete(s);
              idx.invalidate();
            }
          } else check();
        }
        check();
      }),
      { numRuns: RUNS * 4 },
    );
  });
});
