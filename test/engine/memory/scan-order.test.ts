// An export's scan orders every match in compact form (scan-order.ts): the rows it hands out, a chunk at a
// time and from any position, are exactly the list's order for the same ordering (orderedPage), ties by id,
// nulls last ascending, over more rows than one sorted run so that the runs' merge is exercised.
import { expect } from 'chai';
import { IndexedTable } from '../../../engine/memory/indexed-table.js';
import { orderedPage, SORT_RUN } from '../../../engine/memory/order.js';
import { orderedScanSteps } from '../../../engine/memory/scan-order.js';
import { runSteps } from '../../../engine/memory/steps.js';
import { resource } from '../../../engine/schema/registry.js';
import type { OrderKey } from '../../../engine/plan/page.js';
import { mulberry32 } from '../../../engine/random/mulberry32.js';

const def = resource('prefix');
const ROWS = Math.round(SORT_RUN * 2.5);

function buildTable(): IndexedTable {
  const rand = mulberry32(38);
  const t = new IndexedTable(def);
  for (let i = 0; i < ROWS; i++) {
    // Few distinct networks and descriptions (some absent): most keys tie and the id decides.
    const prefix = `10.${Math.floor(rand() * 8)}.${Math.floor(rand() * 4)}.0/24`;
    const description = rand() < 0.2 ? undefined : `d${Math.floor(rand() * 30)}`;
    const id = `00000000-0000-4000-8000-${Math.floor(rand() * 0xffffff)
      .toString(16)
      .padStart(6, '0')}${i.toString(16).padStart(6, '0')}`;
    t.insert({ id, prefix, description, status: rand() < 0.5 ? 'active' : 'reserved', ...def.derive!({ prefix }) });
  }
  for (const row of [...t.all()].filter((_, i) => i % 13 === 0)) t.remove(row.id);
  return t;
}

const ORDERINGS: OrderKey[][] = [
  [],
  [{ field: 'prefix', desc: false }],
  [{ field: 'prefix', desc: true }],
  [
    { field: 'prefix', desc: false },
    { field: 'prefix_length', desc: false },
  ],
  [{ field: 'description', desc: false }],
  [{ field: 'description', desc: true }],
  [
    { field: 'status', desc: true },
    { field: 'prefix', desc: false },
  ],
  [{ field: 'id', desc: true }],
];

describe('memory export scan order (scan-order.ts)', () => {
  const t = buildTable();
  const every = [...t.slots()];
  const some = every.filter((s) => t.row(s)!.status === 'active');
  for (const ordering of ORDERINGS)
    for (const [name, slots] of [
      ['every row', every],
      ['some rows', some],
    ] as const)
      it(`gives the list's order for ${JSON.stringify(ordering)} (${name}), from any position`, () => {
        const want = orderedPage(slots, t, def, ordering, 0, slots.length);
        expect(want).to.have.length(slots.length);
        for (const skip of [0, 1000, SORT_RUN + 7, slots.length]) {
          const cursor = runSteps(orderedScanSteps(Uint32Array.from(slots), false, t, def, ordering, skip));
          const got: number[] = [];
          for (let part = cursor.take(1000); part.length; part = cursor.take(1000)) got.push(...part);
          expect(got).to.deep.equal(want.slice(skip));
        }
      });

  it('orders matches that come in the containment index order (a range) as the list does, both directions', () => {
    const up = [{ field: 'prefix', desc: false }];
    const inIndexOrder = orderedPage(some, t, def, up, 0, some.length);
    for (const desc of [false, true]) {
      const ordering = [{ field: 'prefix', desc }];
      const cursor = runSteps(orderedScanSteps(Uint32Array.from(inIndexOrder), true, t, def, ordering, 5));
      expect(cursor.take(some.length)).to.deep.equal(orderedPage(some, t, def, ordering, 5, some.length));
    }
  });
});
