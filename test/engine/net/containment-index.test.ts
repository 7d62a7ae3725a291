// chai 6 ships no type declarations and @types/chai is not installed.
// @ts-ignore -- harmless once typings exist
import { expect } from 'chai';
import fc from 'fast-check';
import { ContainmentIndex } from '../../../engine/net/containment-index.js';
import { networkOf, parseCidr, type Family } from '../../../engine/net/ip.js';
import { mulberry32 } from '../../../engine/random/mulberry32.js';

// ---- Reference model: a plain scan with BigInt comparisons. ----
interface Block {
  family: Family;
  network: string;
  length: number;
}
const width = (f: Family) => (f === 4 ? 32 : 128);
const big = (hex: string) => BigInt('0x' + hex);
/** Does block a contain block b (a.length <= b.length, same prefix)? */
function contains(a: Block, b: Block): boolean {
  if (a.family !== b.family || a.length > b.length) return false;
  const shift = BigInt(width(a.family) - a.length);
  return big(a.network) >> shift === big(b.network) >> shift;
}
function scan(entries: Map<number, Block>, pred: (e: Block) => boolean): number[] {
  const out: number[] = [];
  for (const [slot, e] of entries) if (pred(e)) out.push(slot);
  return out.sort((x, y) => x - y);
}
const sorted = (a: number[]) => [...a].sort((x, y) => x - y);

function checkAll(idx: ContainmentIndex, model: Map<number, Block>, queries: Block[]): void {
  expect(idx.size).to.equal(model.size);
  for (const q of queries) {
    const same = (e: Block) => e.family === q.family;
    const tag = `${q.family} ${q.network}/${q.length}`;
    expect(sorted(idx.equal(q.family, q.network, q.length)), 'equal ' + tag).to.deep.equal(
      scan(model, (e) => same(e) && e.network === q.network && e.length === q.length),
    );
    expect(sorted(idx.networkEquals(q.family, q.network)), 'networkEquals ' + tag).to.deep.equal(
      scan(model, (e) => same(e) && e.network === q.network),
    );
    for (const orEqual of [false, true]) {
      expect(
        sorted(idx.containing(q.family, q.network, q.length, orEqual)),
        `containing ${orEqual} ${tag}`,
      ).to.deep.equal(scan(model, (e) => contains(e, q) && (orEqual || e.length < q.length)));
      expect(
        sorted(idx.containedIn(q.family, q.network, q.length, orEqual)),
        `containedIn ${orEqual} ${tag}`,
      ).to.deep.equal(scan(model, (e) => contains(q, e) && (orEqual || e.length > q.length)));
    }
    const hi = networkOf(q.family, q.network, q.length).replace(/0+$/, (z) => 'f'.repeat(z.length));
    const lo = q.network;
    expect(sorted(idx.networkInRange(q.family, lo, hi)), 'networkInRange ' + tag).to.deep.equal(
      scan(model, (e) => same(e) && e.network >= lo && e.network <= hi),
    );
    expect(sorted(idx.networkInRange(q.family, hi, lo)), 'networkInRange reversed ' + tag).to.deep.equal(
      scan(model, (e) => same(e) && e.network >= hi && e.network <= lo),
    );
    expect(idx.estimateContainedIn(q.family, q.network, q.length)).to.be.at.least(
      scan(model, (e) => contains(q, e)).length,
    );
  }
}

// ---- Generators: blocks nested around a few roots, plus duplicates. ----
const hexDigits = (n: number) =>
  fc
    .array(fc.integer({ min: 0, max: 15 }), { minLength: n, maxLength: n })
    .map((a) => a.map((d) => d.toString(16)).join(''));

function blockArb(family: Family): fc.Arbitrary<Block> {
  const w = width(family);
  return fc
    .record({ hex: hexDigits(w / 4), length: fc.integer({ min: 0, max: w }) })
    .map(({ hex, length }) => ({ family, network: networkOf(family, hex, length), length }));
}

/** A block inside root: root prefix, random remaining bits, longer length. */
function childArb(root: Block, host = false): fc.Arbitrary<Block> {
  const w = width(root.family);
  return fc
    .record({ hex: hexDigits(w / 4), extra: fc.integer({ min: 0, max: w - root.length }) })
    .map(({ hex, extra }) => {
      const len = host ? w : root.length + extra;
      const shift = BigInt(w - root.length);
      const mixed = ((big(root.network) >> shift) << shift) | (big(hex) & ((1n << shift) - 1n));
      const network = networkOf(root.family, mixed.toString(16).padStart(w / 4, '0'), len);
      return { family: root.family, network, length: len };
    });
}

const datasetArb = fc
  .tuple(fc.array(fc.oneof(blockArb(4), blockArb(6)), { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 120 }))
  .chain(([roots, count]) => {
    const pick = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...roots).chain(childArb) },
      { weight: 1, arbitrary: fc.constantFrom(...roots) }, // exact duplicates of a root
      { weight: 2, arbitrary: fc.oneof(blockArb(4), blockArb(6)) },
    );
    return fc.array(pick, { minLength: count, maxLength: count }).chain((blocks) => {
      // Duplicate some generated blocks verbatim.
      const dup = blocks.length ? fc.array(fc.constantFrom(...blocks), { maxLength: 20 }) : fc.constant([] as Block[]);
      return fc.tuple(
        fc.constant(roots),
        dup.map((d) => [...blocks, ...d]),
      );
    });
  });

function queriesFor(roots: Block[], blocks: Block[]): fc.Arbitrary<Block[]> {
  const hosts = (b: Block) => childArb(b, true);
  const base = [...roots, ...blocks];
  return fc
    .array(
      fc.oneof(
        fc.constantFrom(...base),
        fc.constantFrom(...base).chain(childArb),
        fc.constantFrom(...base).chain(hosts),
        fc.oneof(blockArb(4), blockArb(6)),
      ),
      { minLength: 1, maxLength: 25 },
    )
    .map((qs) => [
      ...qs,
      { family: 4, network: '00000000', length: 0 },
      { family: 6, network: '0'.repeat(32), length: 0 },
    ]);
}

describe('net/ContainmentIndex worked example', () => {
  const prefixes = [
    '192.168.0.0/16',
    '192.168.1.0/24',
    '192.168.2.0/24',
    '192.168.3.0/24',
    '192.168.3.192/28',
    '192.168.3.208/28',
    '192.168.3.224/28',
    'fd78:da4f:e596:c217::/64',
    '::/120',
    '::/122',
  ];
  const idx = new ContainmentIndex();
  prefixes.forEach((p, slot) => {
    const c = parseCidr(p)!;
    idx.add(slot, c.family, c.network, c.length);
  });
  const q = (text: string) => parseCidr(text)!;
  const names = (slots: number[]) => sorted(slots).map((s) => prefixes[s]);

  it('containedIn 192.168.0.0/16 strict = the /24s and /28s', () => {
    const c = q('192.168.0.0/16');
    expect(names(idx.containedIn(4, c.network, 16, false))).to.deep.equal(prefixes.slice(1, 7));
    expect(names(idx.containedIn(4, c.network, 16, true))).to.deep.equal(prefixes.slice(0, 7));
  });
  it('containing 192.168.3.192/30 strict', () => {
    const c = q('192.168.3.192/30');
    expect(names(idx.containing(4, c.network, 30, false))).to.deep.equal([
      '192.168.0.0/16',
      '192.168.3.0/24',
      '192.168.3.192/28',
    ]);
  });
  it('containing host 192.168.3.193/32 orEqual', () => {
    const c = q('192.168.3.193');
    expect(names(idx.containing(4, c.network, 32, true))).to.deep.equal([
      '192.168.0.0/16',
      '192.168.3.0/24',
      '192.168.3.192/28',
    ]);
  });
  it('containing IPv6 host fd78:da4f:e596:c217::5 / ::5', () => {
    expect(names(idx.containing(6, q('fd78:da4f:e596:c217::5').network, 128, true))).to.deep.equal([
      'fd78:da4f:e596:c217::/64',
    ]);
    expect(names(idx.containing(6, q('::5').network, 128, true))).to.deep.equal(['::/120', '::/122']);
  });
  it('::/120 contains ::/122 (same network address)', () => {
    expect(names(idx.containedIn(6, '0'.repeat(32), 120, false))).to.deep.equal(['::/122']);
    expect(names(idx.containing(6, '0'.repeat(32), 122, false))).to.deep.equal(['::/120']);
    expect(names(idx.networkEquals(6, '0'.repeat(32)))).to.deep.equal(['::/120', '::/122']);
    expect(names(idx.equal(6, '0'.repeat(32), 122))).to.deep.equal(['::/122']);
  });
  it('containedIn 0.0.0.0/0 never returns IPv6; ::/0 never returns IPv4', () => {
    expect(names(idx.containedIn(4, '00000000', 0, true))).to.deep.equal(prefixes.slice(0, 7));
    expect(names(idx.containedIn(6, '0'.repeat(32), 0, true))).to.deep.equal(prefixes.slice(7));
  });
  it('networkInRange', () => {
    expect(names(idx.networkInRange(4, q('192.168.3.0').network, q('192.168.3.208').network))).to.deep.equal([
      '192.168.3.0/24',
      '192.168.3.192/28',
      '192.168.3.208/28',
    ]);
  });
  it('removes and re-adds', () => {
    const j = new ContainmentIndex();
    prefixes.forEach((p, slot) => {
      const c = parseCidr(p)!;
      j.add(slot, c.family, c.network, c.length);
    });
    j.remove(3);
    j.remove(99); // unknown slot: no-op
    expect(j.size).to.equal(prefixes.length - 1);
    expect(names(j.containing(4, q('192.168.3.193').network, 32, true))).to.deep.equal([
      '192.168.0.0/16',
      '192.168.3.192/28',
    ]);
    j.add(3, 4, q('192.168.3.0/24').network, 24);
    expect(names(j.containing(4, q('192.168.3.193').network, 32, true))).to.deep.equal([
      '192.168.0.0/16',
      '192.168.3.0/24',
      '192.168.3.192/28',
    ]);
    // Re-adding an existing slot replaces its entry.
    j.add(0, 4, q('10.0.0.0/8').network, 8);
    expect(j.size).to.equal(prefixes.length);
    expect(j.containing(4, q('192.168.3.193').network, 32, true)).to.not.include(0);
    expect(j.containing(4, q('10.1.1.1').network, 32, true)).to.deep.equal([0]);
  });
  it('rejects malformed input', () => {
    const j = new ContainmentIndex();
    expect(() => j.add(-1, 4, '00000000', 8)).to.throw(RangeError);
    expect(() => j.add(1, 4, '0000000', 8)).to.throw(RangeError);
    expect(() => j.add(1, 4, '00000000', 33)).to.throw(RangeError);
    expect(() => j.add(1, 6, '00000000', 8)).to.throw(RangeError);
    expect(() => j.containing(4, 'zz000000', 8, true)).to.throw(RangeError);
  });
});

describe('net/ContainmentIndex vs plain scan (property)', () => {
  it('all queries match a scan, also after removes and re-adds', () => {
    const arb = datasetArb.chain(([roots, blocks]) =>
      fc.tuple(
        fc.constant(blocks),
        queriesFor(roots, blocks),
        fc.array(fc.nat(), { maxLength: 40 }), // remove picks
        fc.array(fc.tuple(fc.nat(), fc.oneof(fc.constantFrom(...roots).chain(childArb), fc.constantFrom(...roots))), {
          maxLength: 30,
        }),
      ),
    );
    fc.assert(
      fc.property(arb, ([blocks, queries, removes, readds]) => {
        const idx = new ContainmentIndex();
        const model = new Map<number, Block>();
        // Sparse-ish slots, inserted in shuffled-ish order.
        blocks.forEach((b, i) => {
          const slot = i * 3 + (i % 2);
          idx.add(slot, b.family, b.network, b.length);
          model.set(slot, b);
        });
        checkAll(idx, model, queries);
        const slots = [...model.keys()];
        for (const r of removes) {
          if (!slots.length) break;
          const s = slots[r % slots.length];
          idx.remove(s);
          model.delete(s);
        }
        checkAll(idx, model, queries);
        for (const [r, b] of readds) {
          const s = slots.length && r % 2 ? slots[r % slots.length] : 1000 + (r % 50);
          idx.add(s, b.family, b.network, b.length);
          model.set(s, b);
        }
        checkAll(idx, model, queries);
      }),
      { numRuns: Math.min(Number(process.env.PROPERTY_RUNS ?? 150), 5000) },
    );
  });

  it('many duplicates of a non-covering block do not break climbing', () => {
    const idx = new ContainmentIndex();
    const model = new Map<number, Block>();
    const add = (slot: number, b: Block) => {
      idx.add(slot, b.family, b.network, b.length);
      model.set(slot, b);
    };
    add(0, { family: 4, network: '0a000000', length: 8 });
    for (let i = 1; i <= 500; i++) add(i, { family: 4, network: '0a000000', length: 32 });
    for (let i = 501; i <= 700; i++) add(i, { family: 6, network: '0'.repeat(32), length: 128 });
    add(701, { family: 6, network: '0'.repeat(32), length: 64 });
    checkAll(idx, model, [
      { family: 4, network: '0a000005', length: 32 },
      { family: 4, network: '0a000000', length: 32 },
      { family: 6, network: '0'.repeat(31) + '5', length: 128 },
      { family: 6, network: '0'.repeat(32), length: 100 },
    ]);
  });

  it('tombstone compaction keeps results exact (large random, deterministic)', () => {
    let seed = 12345;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed;
    };
    const randBlock = (): Block => {
      if (rnd() % 4 === 0) {
        let hex = '20010db8';
        for (let k = 0; k < 3; k++) hex += rnd().toString(16).padStart(8, '0');
        const len = 32 + (rnd() % 97);
        return { family: 6, network: networkOf(6, hex, len), length: len };
      }
      const len = 8 + (rnd() % 25);
      return { family: 4, network: networkOf(4, rnd().toString(16).padStart(8, '0'), len), length: len };
    };
    const idx = new ContainmentIndex();
    const model = new Map<number, Block>();
    for (let i = 0; i < 5000; i++) {
      const b = randBlock();
      idx.add(i, b.family, b.network, b.length);
      model.set(i, b);
    }
    const queries: Block[] = [];
    for (let i = 0; i < 40; i++) queries.push(model.get(rnd() % 5000)!, randBlock());
    checkAll(idx, model, queries);
    for (let i = 0; i < 3000; i++) {
      const s = rnd() % 5000;
      idx.remove(s);
      model.delete(s);
    }
    checkAll(idx, model, queries);
  });
});

describe('net/ContainmentIndex at a few thousand entries (bucketed search)', () => {
  it('matches a scan across the whole IPv4 space, both halves, edges included', () => {
    const rand = mulberry32(7);
    const model = new Map<number, Block>();
    const idx = new ContainmentIndex();
    const hex8 = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
    const edges = [0, 0xffffffff, 0x80000000, 0x7fffffff];
    for (let slot = 0; slot < 6000; slot++) {
      const length = Math.floor(rand() * 33);
      const x = slot < edges.length ? edges[slot] : Math.floor(rand() * 2 ** 32);
      const b: Block = { family: 4, network: networkOf(4, hex8(x), length), length };
      model.set(slot, b);
      idx.add(slot, 4, b.network, b.length);
    }
    const queries: Block[] = [];
    for (let i = 0; i < 150; i++) {
      const length = [32, 24, 16, 8][i % 4];
      const x = i < edges.length ? edges[i] : Math.floor(rand() * 2 ** 32);
      queries.push({ family: 4, network: networkOf(4, hex8(x), length), length });
    }
    checkAll(idx, model, queries);
  });
});

describe('net/ContainmentIndex: adds waiting beside a large sorted index', () => {
  // Past 8,192 sorted entries a lookup scans up to 1,024 pending adds instead of re-sorting; the
  // answers, and the key order of containedIn (pages rely on it), must be a scan's.
  const hex8 = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
  function randomBlock(rand: () => number, near: Block[]): Block {
    const r = rand();
    if (r < 0.2 && near.length) return near[Math.floor(rand() * near.length)]; // a duplicate
    if (r < 0.5) {
      const length = Math.floor(rand() * 33);
      return {
        family: 4,
        network: networkOf(4, hex8(0x0a000000 + Math.floor(rand() * 2 ** 16) * 256), length),
        length,
      };
    }
    if (r < 0.8) {
      const length = Math.floor(rand() * 33);
      return { family: 4, network: networkOf(4, hex8(Math.floor(rand() * 2 ** 32)), length), length };
    }
    const length = 16 + Math.floor(rand() * 113);
    const hex =
      '20010db8' +
      [0, 1, 2].map(() => hex8(Math.floor(rand() * 2 ** 32) & (rand() < 0.5 ? 0xffff0000 : 0xffffffff))).join('');
    return { family: 6, network: networkOf(6, hex, length), length };
  }
  const keyOf = (b: Block) => `${b.family}${b.network}${String(b.length).padStart(3, '0')}`;

  it(
    'answers like a scan through adds, removes and re-adds, in key order (lookups and the walk), before and ' +
      'after the rebuild',
    () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => {
          const rand = mulberry32(seed);
          const idx = new ContainmentIndex();
          const model = new Map<number, Block>();
          const set = (slot: number, b: Block) => {
            idx.add(slot, b.family, b.network, b.length);
            model.set(slot, b);
          };
          const kept: Block[] = [];
          for (let slot = 0; slot < 20000; slot++) {
            const b = randomBlock(rand, []);
            set(slot, b);
            if (slot % 50 === 0) kept.push(b);
          }
          idx.flush();
          let next = 20000;
          const queries = () => Array.from({ length: 12 }, () => randomBlock(rand, kept));
          for (let round = 0; round < 6; round++) {
            // 300 writes a round: new blocks, updates of sorted and pending slots, removes.
            for (let k = 0; k < 300; k++) {
              const r = rand();
              if (r < 0.6) {
                const b = randomBlock(rand, kept);
                set(next++, b);
                kept.push(b);
              } else if (r < 0.8) set(Math.floor(rand() * next), randomBlock(rand, kept));
              else {
                const s = Math.floor(rand() * next);
                idx.remove(s);
                model.delete(s);
              }
            }
            checkAll(idx, model, queries());
            for (const q of queries()) {
              const got = idx.containedIn(q.family, q.network, q.length, true).map((s) => keyOf(model.get(s)!));
              expect(got, `containedIn order ${q.network}/${q.length}`).to.deep.equal([...got].sort());
            }
            // The ordered walk (broad pages) merges the pending adds in as well.
            const want = [...model.values()].map(keyOf).sort();
            for (const desc of [false, true]) {
              const walked: [string, boolean][] = [];
              idx.walk(desc, (slot, newKey) => {
                walked.push([keyOf(model.get(slot)!), newKey]);
                return true;
              });
              const keys = walked.map(([k]) => k);
              expect(keys, `walk desc=${desc}`).to.deep.equal(desc ? [...want].reverse() : want);
              expect(walked.map(([, nk]) => nk)).to.deep.equal(keys.map((k, j) => j === 0 || k !== keys[j - 1]));
            }
          }
        }),
        { numRuns: Math.min(Number(process.env.PROPERTY_RUNS ?? 4), 200) },
      );
    },
  );
});
