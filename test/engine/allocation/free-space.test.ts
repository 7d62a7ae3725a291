// Free space inside a block (NetBox's available-prefixes / available-ips), against oracles that
// look at every address: the pure algorithm on spans from a plain scan of the children, and the
// containment index's covered spans (runs of touching blocks, tombstones, pending adds) against
// that plain scan.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import fc from 'fast-check';
import { ContainmentIndex } from '../../../engine/net/containment-index.js';
import {
  addressGaps,
  allocateBlocks,
  bigOf,
  cidrBlocks,
  countAddresses,
  firstFit,
  freeAddresses,
  freeBlocks,
  gaps,
  hexOf,
  reservedAddresses,
  spanOf,
  type Block,
  type Span,
} from '../../../engine/allocation/free-space.js';
import { formatCidr, maxLength, parseCidr, type Family } from '../../../engine/net/ip.js';
import { mulberry32 } from '../../../engine/random/mulberry32.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);

const block = (text: string): Block & { family: Family } => {
  const c = parseCidr(text)!;
  return { family: c.family, network: bigOf(c.network), length: c.length };
};
const spanText = (text: string): Span => {
  const b = block(text);
  return spanOf(b.family, b);
};
const cidrText = (family: Family, b: Block) => formatCidr(family, hexOf(family, b.network), b.length);
/** The spans of some blocks, sorted by first address (as a scan in address order gives them). */
const spansOf = (family: Family, blocks: readonly Block[]): Span[] =>
  blocks.map((b) => spanOf(family, b)).sort((x, y) => (x.lo < y.lo ? -1 : x.lo > y.lo ? 1 : 0));

describe('net/free-space worked examples (as NetBox answers)', () => {
  it('available prefixes: the largest blocks of what the children leave, in address order', () => {
    const parent = block('10.0.0.0/24');
    const used = spansOf(4, [block('10.0.0.64/26')]);
    expect([...freeBlocks(4, spanOf(4, parent), used)].map((b) => cidrText(4, b))).to.deep.equal([
      '10.0.0.0/26',
      '10.0.0.128/25',
    ]);
  });

  it('nested, overlapping and touching spans count once', () => {
    const used = spansOf(4, [
      block('10.0.0.0/25'),
      block('10.0.0.0/26'),
      block('10.0.0.128/27'),
      block('10.0.0.160/27'),
    ]);
    expect([...freeBlocks(4, spanText('10.0.0.0/24'), used)].map((b) => cidrText(4, b))).to.deep.equal([
      '10.0.0.192/26',
    ]);
  });

  it('an interval becomes the fewest CIDR blocks', () => {
    expect(
      [...cidrBlocks(4, { lo: bigOf('0a000001'), hi: bigOf('0a0000fe') })].map((b) => cidrText(4, b)),
    ).to.deep.equal([
      '10.0.0.1/32',
      '10.0.0.2/31',
      '10.0.0.4/30',
      '10.0.0.8/29',
      '10.0.0.16/28',
      '10.0.0.32/27',
      '10.0.0.64/26',
      '10.0.0.128/26',
      '10.0.0.192/27',
      '10.0.0.224/28',
      '10.0.0.240/29',
      '10.0.0.248/30',
      '10.0.0.252/31',
      '10.0.0.254/32',
    ]);
    expect([...cidrBlocks(6, spanText('::/0'))].map((b) => cidrText(6, b))).to.deep.equal(['::/0']);
    expect([...cidrBlocks(4, spanText('0.0.0.0/0'))].map((b) => cidrText(4, b))).to.deep.equal(['0.0.0.0/0']);
  });

  it('first fit: the first aligned block in address order (NetBox takes the first large enough free block)', () => {
    const within = spanText('10.0.0.0/16');
    const used = spansOf(4, [block('10.0.0.0/26'), block('10.0.1.0/24')]);
    expect(cidrText(4, { network: firstFit(4, gaps(within, used), 26)!, length: 26 })).to.equal('10.0.0.64/26');
    expect(cidrText(4, { network: firstFit(4, gaps(within, used), 24)!, length: 24 })).to.equal('10.0.2.0/24');
    expect(firstFit(4, gaps(within, used), 15)).to.equal(null);
  });

  it('several requests in the order given; the first that does not fit is named', () => {
    const within = spanText('10.0.0.0/24');
    const used = spansOf(4, [block('10.0.0.64/26')]);
    const ok = allocateBlocks(4, within, used, [26, 25]);
    expect('blocks' in ok && ok.blocks.map((b) => cidrText(4, b))).to.deep.equal(['10.0.0.0/26', '10.0.0.128/25']);
    expect(allocateBlocks(4, within, used, [26, 26, 26, 26])).to.deep.equal({ failed: 3 });
    const mixed = allocateBlocks(4, within, [], [25, 26, 26]);
    expect('blocks' in mixed && mixed.blocks.map((b) => cidrText(4, b))).to.deep.equal([
      '10.0.0.0/25',
      '10.0.0.128/26',
      '10.0.0.192/26',
    ]);
  });

  it('free addresses skip what is taken and what NetBox never offers', () => {
    const take = (text: string, used: string[], limit = 10) => {
      const b = block(text);
      return freeAddresses(b.family, b, spanOf(b.family, b), spansOf(b.family, used.map(block)), limit).map((x) =>
        cidrText(b.family, { network: x, length: b.length }),
      );
    };
    expect(take('10.0.0.0/29', ['10.0.0.2/32'])).to.deep.equal([
      '10.0.0.1/29',
      '10.0.0.3/29',
      '10.0.0.4/29',
      '10.0.0.5/29',
      '10.0.0.6/29',
    ]);
    expect(take('10.0.0.0/31', [])).to.deep.equal(['10.0.0.0/31', '10.0.0.1/31']);
    expect(take('10.0.0.7/32', [])).to.deep.equal(['10.0.0.7/32']);
    expect(take('2001:db8::/64', ['2001:db8::2/128'], 3)).to.deep.equal([
      '2001:db8::1/64',
      '2001:db8::3/64',
      '2001:db8::4/64',
    ]);
    expect(take('2001:db8::/127', [])).to.deep.equal(['2001:db8::/127', '2001:db8::1/127']);
    expect(take('10.0.0.0/30', ['10.0.0.1/32', '10.0.0.2/32'])).to.deep.equal([]);
    const b = block('10.0.0.0/24');
    expect(countAddresses(addressGaps(4, b, spanOf(4, b), spansOf(4, [block('10.0.0.0/25')])))).to.equal(127n);
  });
});

// ---- Oracle: every address of a small parent as a bitmap. ----

interface Case {
  family: Family;
  parent: Block;
  children: Block[];
  lengths: number[];
}

/** A parent of at most 2^12 addresses somewhere in the space, children inside it (nested, duplicated, touching). */
const caseArb: fc.Arbitrary<Case> = fc
  .record({
    family: fc.constantFrom<Family>(4, 6),
    size: fc.integer({ min: 0, max: 12 }),
    seed: fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }),
    picks: fc.array(fc.tuple(fc.bigInt({ min: 0n, max: 4095n }), fc.integer({ min: 1, max: 12 })), { maxLength: 40 }),
    lengths: fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 5 }),
  })
  .map(({ family, size, seed, picks, lengths }) => {
    const w = maxLength(family);
    const length = w - size;
    const network = ((seed % (1n << BigInt(w))) >> BigInt(size)) << BigInt(size);
    const children = picks
      .map(([off, extra]) => {
        const len = Math.min(w, length + extra);
        const shift = BigInt(w - len);
        return { network: ((network + (off % (1n << BigInt(size)))) >> shift) << shift, length: len };
      })
      .filter((c) => c.length > length);
    return {
      family,
      parent: { network, length },
      children,
      lengths: lengths.map((l) => Math.min(w, length + 1 + (l % Math.max(1, size)))).filter((l) => l > length),
    };
  });

function bitmap(c: Case): boolean[] {
  const span = spanOf(c.family, c.parent);
  const used = new Array<boolean>(Number(span.hi - span.lo + 1n)).fill(false);
  for (const ch of c.children) {
    const s = spanOf(c.family, ch);
    for (let x = s.lo; x <= s.hi; x++) used[Number(x - span.lo)] = true;
  }
  return used;
}

describe('net/free-space against every address', () => {
  it('free blocks cover exactly the free addresses, in order, none mergeable with its neighbour', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const span = spanOf(c.family, c.parent);
        const used = bitmap(c);
        const blocks = [...freeBlocks(c.family, span, spansOf(c.family, c.children))];
        const seen = new Array<boolean>(used.length).fill(false);
        let prevEnd = span.lo - 1n;
        blocks.forEach((b, i) => {
          const s = spanOf(c.family, b);
          expect(s.lo > prevEnd, 'in address order, disjoint').to.equal(true);
          expect(b.network % (s.hi - s.lo + 1n), 'aligned').to.equal(0n);
          for (let x = s.lo; x <= s.hi; x++) seen[Number(x - span.lo)] = true;
          prevEnd = s.hi;
          const next = blocks[i + 1];
          const buddies =
            next &&
            next.length === b.length &&
            s.hi + 1n === next.network &&
            b.network % ((s.hi - s.lo + 1n) * 2n) === 0n;
          expect(!!buddies, 'two blocks that make one larger block').to.equal(false);
        });
        expect(seen).to.deep.equal(used.map((u) => !u));
      }),
      { numRuns: RUNS },
    );
  });

  it('allocations are the first free aligned blocks, one request after the other', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const span = spanOf(c.family, c.parent);
        const used = bitmap(c);
        const expected: (bigint | null)[] = [];
        for (const len of c.lengths) {
          const size = 1 << (maxLength(c.family) - len);
          let found: number | null = null;
          for (let a = 0; a + size <= used.length && found === null; a += size)
            if (used.slice(a, a + size).every((u) => !u)) found = a;
          if (found === null) {
            expected.push(null);
            break;
          }
          used.fill(true, found, found + size);
          expected.push(span.lo + BigInt(found));
        }
        const out = allocateBlocks(c.family, span, spansOf(c.family, c.children), c.lengths);
        if (expected[expected.length - 1] === null) expect(out).to.deep.equal({ failed: expected.length - 1 });
        else expect('blocks' in out && out.blocks.map((b) => b.network)).to.deep.equal(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it('free addresses: the first free ones in order, reserved ones never', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 64 }), (c, limit) => {
        const span = spanOf(c.family, c.parent);
        const used = bitmap(c);
        for (const r of reservedAddresses(c.family, c.parent)) used[Number(r.lo - span.lo)] = true;
        const expected = used.map((u, i) => (u ? null : span.lo + BigInt(i))).filter((x): x is bigint => x !== null);
        expect(freeAddresses(c.family, c.parent, span, spansOf(c.family, c.children), limit)).to.deep.equal(
          expected.slice(0, limit),
        );
        expect(countAddresses(addressGaps(c.family, c.parent, span, spansOf(c.family, c.children)))).to.equal(
          BigInt(expected.length),
        );
      }),
      { numRuns: RUNS },
    );
  });
});

// ---- The containment index's covered spans against a plain scan of the children. ----

interface Entry {
  family: Family;
  network: bigint;
  length: number;
}

/** Covered spans of the index inside a block, as the pure algorithm takes them. */
function indexSpans(idx: ContainmentIndex, family: Family, b: Block, minLen: number): Span[] {
  const out: Span[] = [];
  idx.coveredSpans(family, hexOf(family, b.network), b.length, minLen, (lo, hi) => {
    out.push({ lo: bigOf(lo), hi: bigOf(hi) });
    return true;
  });
  for (let i = 1; i < out.length; i++) expect(out[i].lo >= out[i - 1].lo, 'spans in address order').to.equal(true);
  return out;
}

/** The children a plain scan finds: inside the block, length >= minLen. */
function scanSpans(entries: Map<number, Entry>, family: Family, b: Block, minLen: number): Span[] {
  const within = spanOf(family, b);
  const kids = [...entries.values()].filter(
    (e) => e.family === family && e.length >= minLen && e.network >= within.lo && e.network <= within.hi,
  );
  return spansOf(family, kids);
}

function sameFreeSpace(idx: ContainmentIndex, entries: Map<number, Entry>, family: Family, b: Block): void {
  for (const minLen of [b.length + 1, b.length]) {
    const within = spanOf(family, b);
    const fromIndex = [...gaps(within, indexSpans(idx, family, b, minLen))];
    const fromScan = [...gaps(within, scanSpans(entries, family, b, minLen))];
    expect(fromIndex, `free space of ${cidrText(family, b)} (length >= ${minLen})`).to.deep.equal(fromScan);
  }
}

/** Random blocks around a few roots: nested, touching runs, duplicates. */
function randomEntries(rand: () => number, count: number): Entry[] {
  const out: Entry[] = [];
  const roots: Entry[] = [
    { family: 4, network: bigOf('0a000000'), length: 8 },
    { family: 4, network: bigOf('c0a80000'), length: 16 },
    { family: 6, network: bigOf('20010db8000000000000000000000000'), length: 32 },
    { family: 4, network: 0n, length: 0 },
  ];
  out.push(...roots);
  while (out.length < count) {
    const root = roots[Math.floor(rand() * roots.length)];
    const w = maxLength(root.family);
    const len = Math.min(w, root.length + 1 + Math.floor(rand() * 24));
    const shift = BigInt(w - len);
    // Crowd the start of the root so that runs of touching blocks form.
    const slotsInRoot = 1n << BigInt(Math.min(len - root.length, 12));
    const k = BigInt(Math.floor(rand() * Number(slotsInRoot)));
    const e = { family: root.family, network: root.network + (k << shift), length: len };
    out.push(e);
    if (rand() < 0.3) {
      // a run of touching same-size blocks (inside the root)
      const end = spanOf(root.family, root).hi;
      for (let i = 1n; i < 20n && e.network + ((i + 1n) << shift) - 1n <= end; i++)
        out.push({ ...e, network: e.network + (i << shift) });
    }
    if (rand() < 0.05) out.push({ ...e });
  }
  return out;
}

function queryBlocks(rand: () => number, entries: readonly Entry[]): Entry[] {
  const out = entries.slice(0, 4);
  for (let i = 0; i < 30; i++) out.push(entries[Math.floor(rand() * entries.length)]);
  return out;
}

describe('net/ContainmentIndex covered spans against a plain scan', () => {
  function check(seed: number, count: number, churn: number): void {
    const rand = mulberry32(seed);
    const idx = new ContainmentIndex();
    const entries = new Map<number, Entry>();
    let slot = 0;
    const add = (e: Entry) => {
      idx.add(slot, e.family, hexOf(e.family, e.network), e.length);
      entries.set(slot++, e);
    };
    for (const e of randomEntries(rand, count)) add(e);
    idx.flush();
    const check = () => {
      for (const q of queryBlocks(rand, [...entries.values()])) sameFreeSpace(idx, entries, q.family, q);
    };
    check();
    // Removals leave tombstones in the sorted part; adds wait unsorted (past 8,192 entries).
    for (let round = 0; round < 4; round++) {
      const slots = [...entries.keys()];
      for (let i = 0; i < churn; i++) {
        const s = slots[Math.floor(rand() * slots.length)];
        if (entries.has(s)) {
          idx.remove(s);
          entries.delete(s);
        }
      }
      for (const e of randomEntries(rand, churn).slice(4)) add(e);
      check();
    }
  }

  it('small indexes (rebuilt at each query, tombstones kept)', () => {
    for (let seed = 1; seed <= Math.max(20, RUNS / 5); seed++) check(seed, 200, 40);
  });

  it('a large index: runs, tombstones inside runs, pending adds merged in', () => {
    check(7, 20000, 300);
  });

  it('a run of 100,000 touching /26s is one stretch', () => {
    const idx = new ContainmentIndex();
    idx.add(0, 4, hexOf(4, bigOf('0a000000')), 8);
    for (let i = 0; i < 100000; i++) idx.add(i + 1, 4, hexOf(4, bigOf('0a000000') + BigInt(i * 64)), 26);
    idx.flush();
    const spans = indexSpans(idx, 4, block('10.0.0.0/8'), 9);
    expect(spans.map((s) => [hexOf(4, s.lo), hexOf(4, s.hi)])).to.deep.equal([
      ['0a000000', hexOf(4, bigOf('0a000000') + 6400000n - 1n)],
    ]);
    const fit = firstFit(4, gaps(spanText('10.0.0.0/8'), spans), 24)!;
    expect(cidrText(4, { network: fit, length: 24 })).to.equal('10.97.168.0/24');
    // One removal in the middle splits the run where it was.
    idx.remove(50001);
    const split = indexSpans(idx, 4, block('10.0.0.0/8'), 9);
    expect([...freeBlocks(4, spanText('10.0.0.0/8'), split)].slice(0, 1).map((b) => cidrText(4, b))).to.deep.equal([
      '10.48.212.0/26',
    ]);
  });
});
