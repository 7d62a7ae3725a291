// HashIndex membership testers: past 4,096 rows a key is tested through a bitmap kept in step with
// adds and removes; every answer must equal membership in the key's slot set.
import { expect } from 'chai';
import fc from 'fast-check';
import { HashIndex } from '../../../engine/memory/hash-index.js';

describe('memory/HashIndex tester', () => {
  it('equals set membership for small and large keys, before and after later writes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.array(fc.tuple(fc.boolean(), fc.constantFrom('a', 'b'), fc.integer({ min: 0, max: 40000 })), {
          maxLength: 300,
        }),
        (seed, later) => {
          let x = seed || 1;
          const rnd = () => {
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            return (x >>> 0) / 2 ** 32;
          };
          const h = new HashIndex();
          // 'a' large (bitmap), 'b' small (set), 'c' one row (bare number).
          for (let s = 0; s < 12000; s++) h.add(rnd() < 0.6 ? 'a' : rnd() < 0.02 ? 'b' : 'z', s);
          h.add('c', 7);
          const check = () => {
            for (const key of ['a', 'b', 'c', 'missing']) {
              const t = h.tester(key);
              const set = h.get(key) ?? new Set<number>();
              for (let s = 0; s < 41000; s += 7) expect(t(s), `${key} ${s}`).to.equal(set.has(s));
              for (const s of set) expect(t(s), `${key} member ${s}`).to.equal(true);
            }
          };
          check(); // builds the bitmap of 'a'
          for (const [add, key, slot] of later) {
            if (add) h.add(key, slot);
            else h.remove(key, slot);
          }
          check(); // bitmap kept in step, grown past its first size
        },
      ),
      { numRuns: Math.min(Number(process.env.PROPERTY_RUNS ?? 10), 200) },
    );
  });

  it('a key shrinking to one row drops its bitmap and still answers', () => {
    const h = new HashIndex();
    for (let s = 0; s < 5000; s++) h.add('k', s);
    expect(h.tester('k')(4999)).to.equal(true);
    for (let s = 1; s < 5000; s++) h.remove('k', s);
    const t = h.tester('k');
    expect(t(0)).to.equal(true);
    expect(t(4999)).to.equal(false);
    h.add('k', 4999);
    expect(h.tester('k')(4999)).to.equal(true);
  });
});
