// Paging a broad result in network order by walking the containment index must give exactly the
// rows the comparator path gives: (family, network, length), ties by id, both directions, any page.
import { expect } from 'chai';
import fc from 'fast-check';
import { IndexedTable } from '../../../engine/memory/indexed-table.js';
import { orderedPage, PAGE_PATHS } from '../../../engine/memory/order.js';
import { resource } from '../../../engine/schema/registry.js';
import { formatCidr, networkOf, parseCidr, u32ToHex } from '../../../engine/net/ip.js';
import { evaluate, explain } from '../../../engine/memory/evaluate.js';
import * as N from '../../../engine/plan/nodes.js';
import { mulberry32 } from '../../../engine/random/mulberry32.js';
import { netOrderKey } from '../../support/net-order-key.js';

const def = resource('prefix');

function buildTable(seed: number, n: number): IndexedTable {
  const rand = mulberry32(seed);
  const t = new IndexedTable(def);
  for (let i = 0; i < n; i++) {
    // Few distinct blocks, so equal (network, length) runs are common and ids decide.
    const v6 = rand() < 0.2;
    const len = v6 ? 48 + Math.floor(rand() * 4) * 8 : 8 + Math.floor(rand() * 4) * 8;
    const prefix = v6
      ? formatCidr(6, networkOf(6, `20010db8${u32ToHex(Math.floor(rand() * 4) << 16)}${'0'.repeat(16)}`, len), len)
      : formatCidr(
          4,
          networkOf(4, u32ToHex((Math.floor(rand() * 16) << 24) | (Math.floor(rand() * 4) << 16)), len),
          len,
        );
    // Random order, unique by the counter in the low digits.
    const id = `00000000-0000-4000-8000-${Math.floor(rand() * 0xffffff)
      .toString(16)
      .padStart(6, '0')}${i.toString(16).padStart(6, '0')}`;
    t.insert({ id, prefix, status: rand() < 0.5 ? 'active' : 'reserved', ...def.derive!({ prefix }) });
  }
  // Some removals leave tombstones in the index.
  for (const row of [...t.all()].filter((_, i) => i % 17 === 0)) t.remove(row.id);
  return t;
}

/** What the comparator path gives: the order key of every row, then id. */
function reference(t: IndexedTable, slots: number[], desc: boolean, offset: number, limit: number): number[] {
  const key = (s: number) => netOrderKey(t, s)!;
  return [...slots]
    .sort((a, b) => {
      const x = key(a),
        y = key(b);
      if (x !== y) return (x < y ? -1 : 1) * (desc ? -1 : 1);
      const i = t.row(a)!.id,
        j = t.row(b)!.id;
      return i < j ? -1 : i > j ? 1 : 0;
    })
    .slice(offset, offset + limit);
}

describe('memory ordering: broad pages read off the containment index', () => {
  it('equal the comparator order for random matches, pages and directions', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.double({ min: 0.5, max: 1, noNaN: true }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 60 }),
        (seed, share, desc, withLength, offset, limit) => {
          const t = buildTable(seed, 2500);
          const rand = mulberry32(seed + 1);
          const slots = [...t.slots()].filter(() => rand() < share);
          const ordering = [{ field: 'network', desc }, ...(withLength ? [{ field: 'prefix_length', desc }] : [])];
          const got = orderedPage(slots, t, def, ordering, offset, limit);
          expect(got).to.deep.equal(reference(t, slots, desc, offset, limit));
        },
      ),
      { numRuns: Math.min(Number(process.env.PROPERTY_RUNS ?? 60), 1000) },
    ); // each run builds a table of thousands of rows
  });

  it('takes the index path for broad results (a page deep in them still matches)', () => {
    const t = buildTable(5, 4000);
    const slots = [...t.slots()];
    // Break the comparator path's input order: the answer must not depend on it.
    slots.reverse();
    expect(orderedPage(slots, t, def, [{ field: 'network', desc: false }], 100, 50)).to.deep.equal(
      reference(t, slots, false, 100, 50),
    );
  });

  it('pages one family alone (the other is skipped) in both directions', () => {
    const t = buildTable(9, 12000);
    for (const family of [4, 6])
      for (const desc of [false, true]) {
        const slots = [...t.slots()].filter((s) => t.netFamily(s) === family);
        expect(slots.length).to.be.greaterThan(1500);
        for (const offset of [0, 37, slots.length - 10]) {
          expect(
            orderedPage(slots, t, def, [{ field: 'network', desc }], offset, 25),
            `family ${family} desc ${desc} offset ${offset}`,
          ).to.deep.equal(reference(t, slots, desc, offset, 25));
        }
      }
  });
});

describe('memory ordering: a containment range is paged in its own order', () => {
  it(
    'equals the comparator order for contained / contained_or_equal with another predicate, any page, both ' +
      'directions',
    () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 1000 }),
          fc.constantFrom<N.NetOp>('contained', 'contained_or_equal'),
          fc.constantFrom('0.0.0.0/0', '1.0.0.0/8', '2.0.0.0/8', '::/0', '2001:db8::/32'),
          fc.boolean(),
          fc.boolean(),
          fc.integer({ min: 0, max: 200 }),
          fc.integer({ min: 1, max: 60 }),
          (seed, op, block, desc, withStatus, offset, limit) => {
            const t = buildTable(seed, 800);
            const c = parseCidr(block)!;
            const net = N.net('network', op, c.family, c.network, c.broadcast, c.length);
            // Half the rows are 'active': the range is filtered in place, keeping its order.
            const plan = withStatus ? N.and([net, N.cmp('status', 'string', 'eq', false, ['active'])]) : net;
            const page = { limit, offset, ordering: [{ field: 'network', desc }] };
            const got = evaluate(t, plan, page, { table: () => t }).rows.map((r) => t.slotOf(r.id)!);
            const all = evaluate(
              t,
              plan,
              { limit: 100000, offset: 0, ordering: [] },
              { table: () => t },
              false,
            ).rows.map((r) => t.slotOf(r.id)!);
            expect(got).to.deep.equal(reference(t, all, desc, offset, limit));
          },
        ),
        { numRuns: Math.min(Number(process.env.PROPERTY_RUNS ?? 60), 1000) },
      ); // each run builds a table of thousands of rows
    },
  );
});

describe('memory ordering: deep pages are sorted in pieces and merged', () => {
  /** A plain sort over every slot by (status, prefix_length desc, id). */
  function plainSort(t: IndexedTable, slots: number[]): number[] {
    const key = (s: number): [string, number, string] => {
      const r = t.row(s)!;
      return [r.status as string, r.prefix_length as number, r.id];
    };
    return [...slots].sort((a, b) => {
      const [sa, la, ia] = key(a),
        [sb, lb, ib] = key(b);
      return sa !== sb ? (sa < sb ? -1 : 1) : la !== lb ? lb - la : ia < ib ? -1 : ia > ib ? 1 : 0;
    });
  }

  it('equal a plain sort for pages deep enough to sort most matches (several sorted runs)', () => {
    const t = buildTable(11, 26000);
    const all = [...t.slots()];
    const want = plainSort(t, all);
    const ordering = [
      { field: 'status', desc: false },
      { field: 'prefix_length', desc: true },
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: all.length >> 2, max: all.length + 5 }),
        fc.integer({ min: 1, max: 80 }),
        fc.boolean(),
        (offset, limit, reversed) => {
          const input = reversed ? [...all].reverse() : all;
          expect(orderedPage(input, t, def, ordering, offset, limit)).to.deep.equal(want.slice(offset, offset + limit));
        },
      ),
      { numRuns: Math.min(Number(process.env.PROPERTY_RUNS ?? 30), 300) },
    );
  });
});

describe('memory ordering: broad exact answers paged by membership (no list of matches)', () => {
  // Every row, an equality on a common value, a tag: the count is the index's size and the page
  // is read off the containment index. It must equal the scan's answer, also with adds pending.
  const tagDef = resource('tag');
  const TAGS = ['00000000-0000-4000-8000-00000000aaa1', '00000000-0000-4000-8000-00000000aaa2'];
  function tables(seed: number, n: number) {
    const t = buildTable(seed, n);
    const rand = mulberry32(seed + 7);
    // Tag some rows (replace keeps every index in step).
    for (const row of [...t.all()]) if (rand() < 0.4) t.replace({ ...row, tags: [TAGS[Math.floor(rand() * 2)]] });
    const tags = new IndexedTable(tagDef);
    TAGS.forEach((id, i) => tags.insert({ id, slug: `t${i}`, name: `T${i}` }));
    return { t, source: { table: (name: string) => (name === 'tag' ? tags : t) } };
  }
  const PLANS = [
    N.TRUE,
    N.cmp('status', 'string', 'eq', false, ['active']),
    N.cmp('family', 'number', 'eq', false, [4]),
    N.cmp('family', 'number', 'eq', false, [6]),
    N.cmp('status', 'string', 'eq', true, ['ACTIVE']),
    N.tag('t0'),
    N.tag(TAGS[1]),
    // Ands of such answers: exact too, by the tests of all children.
    N.and([N.cmp('status', 'string', 'eq', false, ['active']), N.cmp('family', 'number', 'eq', false, [4])]),
    N.and([N.tag('t0'), N.cmp('status', 'string', 'eq', true, ['RESERVED'])]),
    N.and([N.tag('t0'), N.tag('t1')]),
    // The family confines the walk to its own entries.
    N.and([N.cmp('family', 'number', 'eq', false, [6]), N.tag('t0')]),
    N.cmp('family', 'number', 'eq', false, [4, 6]),
  ];

  it('equal the scan for every row, common values and tags, any page, both directions, with adds pending', () => {
    const { t, source } = tables(21, 9000);
    const check = (label: string) => {
      for (const plan of PLANS)
        for (const desc of [false, true])
          for (const offset of [0, 7, 1500]) {
            const page = { limit: 40, offset, ordering: [{ field: 'network', desc }] };
            const got = evaluate(t, plan, page, source);
            const want = evaluate(t, plan, page, source, false);
            expect(got.count, `${label} count ${JSON.stringify(plan)}`).to.equal(want.count);
            expect(
              got.rows.map((r) => r.id),
              `${label} ${JSON.stringify(plan)} desc=${desc} offset=${offset}`,
            ).to.deep.equal(want.rows.map((r) => r.id));
          }
    };
    check('sorted');
    // Writes: new rows (pending in the containment index), changed and removed ones.
    const rand = mulberry32(99);
    for (let i = 0; i < 300; i++) {
      const len = 8 + Math.floor(rand() * 25);
      const prefix = formatCidr(4, networkOf(4, u32ToHex(Math.floor(rand() * 2 ** 32)), len), len);
      t.insert({
        id: `00000000-0000-4000-9000-${i.toString(16).padStart(12, '0')}`,
        prefix,
        status: rand() < 0.5 ? 'active' : 'reserved',
        tags: rand() < 0.5 ? [TAGS[0]] : [],
        ...def.derive!({ prefix }),
      });
    }
    const rows = [...t.all()];
    for (let i = 0; i < 200; i++) t.remove(rows[Math.floor(rand() * rows.length)].id);
    check('after writes');
  });
});

describe('memory explain: how the page is taken', () => {
  const t = buildTable(7, 2500);
  const tables = { table: () => t };
  const page = (ordering: { field: string; desc: boolean }[], offset = 0) => ({ limit: 50, offset, ordering });
  const method = (plan: N.Plan, p: ReturnType<typeof page>) => explain(t, plan, tables, p).page?.method;
  const block = parseCidr('0.0.0.0/1')!;

  it('names the path a find takes, and the page it was asked for', () => {
    expect(method(N.TRUE, page([{ field: 'network', desc: false }]))).to.equal(PAGE_PATHS.membership);
    expect(method(N.TRUE, page([{ field: 'status', desc: false }]))).to.equal(PAGE_PATHS.heap);
    expect(
      method(
        N.net('network', 'contained', 4, block.network, block.broadcast, 1),
        page([{ field: 'network', desc: true }]),
      ),
    ).to.equal(PAGE_PATHS.range);
    expect(
      method(N.cmp('status', 'string', 'eq', false, ['nosuch']), page([{ field: 'network', desc: false }])),
    ).to.equal(PAGE_PATHS.empty);
    expect(explain(t, N.TRUE, tables, page([{ field: 'status', desc: true }], 10)).page).to.deep.include({
      ordering: '-status',
      offset: 10,
      limit: 50,
    });
    expect(explain(t, N.TRUE, tables).page).to.equal(undefined);
  });
});
