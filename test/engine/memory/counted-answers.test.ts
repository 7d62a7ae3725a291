// Broad exact answers counted from index structure (a sorted range's length, large tags' bitmaps
// anded word by word) with the page walked by membership: the count and every page equal a plain
// scan's, after rows come and go (property, at a size where the bitmaps and the walk engage).
import { expect } from 'chai';
import fc from 'fast-check';
import * as N from '../../../engine/plan/nodes.js';
import type { Plan } from '../../../engine/plan/nodes.js';
import { evaluatePage, explain } from '../../../engine/memory/evaluate.js';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';

const now = '2026-01-01T00:00:00.000Z';
const id = (p: string, i: number) => `00000000-0000-4000-8000-${p}${String(i).padStart(11, '0')}`;
const TAGS = ['core', 'edge', 'lab'];

/** 12,000 prefixes (tags on about half each, so their sets pass the bitmap threshold), some removed. */
function store(seed: number, removed: readonly number[]): MemoryStorage {
  const s = new MemoryStorage(null);
  TAGS.forEach((slug, i) =>
    s.table('tag').insert({ id: id('2', i), name: slug, slug, created: now, last_updated: now }),
  );
  let x = seed || 1;
  const rand = () => ((x = (x * 48271) % 2147483647) / 2147483647) * 0.999999;
  const t = s.table('prefix');
  for (let i = 0; i < 12000; i++) {
    const len = Math.max(24, 8 + Math.floor(rand() * 25));
    const a = Math.floor(rand() * 256),
      b = Math.floor(rand() * 256);
    t.insert({
      id: id('3', i),
      created: now,
      last_updated: now,
      prefix: `10.${a}.${b}.0/${len}`,
      prefix_length: len,
      family: 4,
      status: 'active',
      site: null,
      tags: TAGS.flatMap((_, k) => (rand() < [0.6, 0.5, 0.05][k] ? [id('2', k)] : [])),
      description: '',
      custom_fields: {},
    });
  }
  for (const r of new Set(removed.map((k) => k % 12000))) t.remove(id('3', r));
  return s;
}

const plans: Plan[] = [
  N.and([N.tag('core'), N.tag('edge')]),
  N.and([N.tag('core'), N.tag('edge'), N.tag('lab')]),
  N.and([N.cmp('prefix_length', 'number', 'gte', false, [25]), N.cmp('prefix_length', 'number', 'lte', false, [28])]),
  N.and([N.cmp('prefix_length', 'number', 'gt', false, [24]), N.cmp('prefix_length', 'number', 'lt', false, [30])]),
  N.cmp('prefix_length', 'number', 'gte', false, [26]),
  N.cmp('prefix_length', 'number', 'lt', false, [27]),
  N.and([N.tag('core'), N.cmp('prefix_length', 'number', 'gte', false, [26])]),
];

describe('counts of broad exact answers from index structure', () => {
  it('equal a plain scan, count and page, as rows come and go (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        fc.array(fc.nat(), { maxLength: 300 }),
        fc.oneof(fc.nat({ max: 100 }), fc.nat({ max: 3000 })),
        fc.integer({ min: 1, max: 60 }),
        fc.boolean(),
        (seed, removed, offset, limit, desc) => {
          const s = store(seed, removed);
          const t = s.table('prefix');
          const page = {
            offset,
            limit,
            ordering: [
              { field: 'network', desc },
              { field: 'prefix_length', desc },
            ],
          };
          for (const plan of plans) {
            const got = evaluatePage(t, plan, page, s);
            const want = evaluatePage(t, plan, page, s, false);
            expect(got.count).to.equal(want.count);
            expect(got.slots).to.deep.equal(want.slots);
          }
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 8) },
    );
  });

  it('take the first page by membership, with no list of matches built', () => {
    const s = store(7, []);
    const t = s.table('prefix');
    const page = { offset: 0, limit: 50, ordering: [{ field: 'network', desc: false }] };
    for (const plan of [plans[0], plans[2]]) {
      const ex = explain(t, plan, s, page);
      expect(ex.page?.method, ex.plan).to.match(/^a walk of the containment index in network order, testing each row/);
      const got = evaluatePage(t, plan, page, s);
      expect([got.count, got.slots]).to.deep.equal(Object.values(evaluatePage(t, plan, page, s, false)));
    }
    expect(explain(t, plans[0], s).strategy).to.equal('and(tags, tags)');
  });
});
