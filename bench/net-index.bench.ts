// Benchmark of engine/net ContainmentIndex: build time, memory per entry and
// per-query latency (median/p99) at 10k and 1M IPv4 prefixes + 200k IPv6.
// Run: node --expose-gc dist/bench/net-index.bench.js
import Benchmark from 'benchmark';
import { performance } from 'node:perf_hooks';
import { ContainmentIndex } from '../engine/net/containment-index.js';
import { networkOf, parseCidr, u32ToHex } from '../engine/net/ip.js';
import { mulberry32 } from '../engine/random/mulberry32.js';
import { prefixTexts } from './generate.js';
import { V6Index } from '../engine/net/v6-index.js';
import { hexToWords6 } from '../engine/net/words.js';
import { canCollect, heapBytes as heap } from './heap.js';

if (!canCollect) console.warn('warning: run with --expose-gc for meaningful memory figures');

let seed = 0x9e3779b9;
/** xorshift32: deterministic data across runs. */
function rnd(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
}

/** Drops repeated (network, length) pairs: real inventories rarely hold duplicates. */
function dedupe(data: Prefix[]): Prefix[] {
  const seen = new Set<string>();
  return data.filter((p) => {
    const k = p.hex + '/' + p.len;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

interface Prefix {
  hex: string;
  len: number;
}

/**
 * Re-creates the strings flat. Concatenated (cons) strings get flattened when
 * the index reads them and GC then frees their parts, which would show up as
 * negative index memory.
 */
function flat(data: Prefix[]): Prefix[] {
  return JSON.parse(JSON.stringify(data)) as Prefix[];
}

function v4Prefixes(n: number): Prefix[] {
  const out: Prefix[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const len = 8 + (rnd() % 25);
    out[i] = { hex: networkOf(4, u32ToHex(rnd()), len), len };
  }
  return flat(out);
}

/**
 * n distinct random prefixes: length uniform /8–/32, redrawn when the block is already present.
 * Uniform lengths with repeats put ~150 copies of every /8 into 1M rows, so a host would sit in
 * ~300 prefixes at 1M and 3 at 10k: the query would be measuring its output, not the index.
 */
function v4Distinct(n: number): Prefix[] {
  const seen = new Set<string>();
  const out: Prefix[] = [];
  while (out.length < n) {
    const len = 8 + (rnd() % 25);
    const hex = networkOf(4, u32ToHex(rnd()), len);
    const k = hex + '/' + len;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ hex, len });
  }
  return flat(out);
}

function v6Hex(): string {
  return '20010db8' + u32ToHex(rnd()) + u32ToHex(rnd()) + u32ToHex(rnd());
}

function v6Prefixes(n: number): Prefix[] {
  const out: Prefix[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const len = 32 + (rnd() % 97);
    out[i] = { hex: networkOf(6, v6Hex(), len), len };
  }
  return flat(out);
}

interface Built {
  idx: ContainmentIndex;
  addMs: number;
  rebuildMs: number;
  bytesPerEntry: number;
}

async function build(idx: ContainmentIndex, family: 4 | 6, data: Prefix[], firstSlot: number): Promise<Built> {
  const before = await heap();
  const t0 = performance.now();
  for (let i = 0; i < data.length; i++) idx.add(firstSlot + i, family, data[i].hex, data[i].len);
  const t1 = performance.now();
  idx.flush();
  const t2 = performance.now();
  const bytes = (await heap()) - before;
  return { idx, addMs: t1 - t0, rebuildMs: t2 - t1, bytesPerEntry: bytes / data.length };
}

interface Lat {
  median: number;
  p99: number;
  avgResults: number;
}

/** Per-query latency in µs, timer overhead (median of empty timings) subtracted. */
function latency(queries: string[], run: (q: string) => number[]): Lat {
  let results = 0;
  for (const q of queries) results += run(q).length; // warm-up
  const n = queries.length;
  const t = new Float64Array(n);
  const empty = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = performance.now();
    empty[i] = performance.now() - a;
  }
  for (let i = 0; i < n; i++) {
    const q = queries[i];
    const a = performance.now();
    run(q);
    t[i] = performance.now() - a;
  }
  t.sort();
  empty.sort();
  const overhead = empty[n >> 1];
  const at = (p: number) => Math.max(0, t[Math.min(n - 1, Math.floor(p * n))] - overhead) * 1000;
  return { median: at(0.5), p99: at(0.99), avgResults: results / n };
}

/** `aimed`: hosts drawn inside existing prefixes (data that covers a small part of the space). */
function queriesV4(count: number, data: Prefix[], aimed = false) {
  const hosts: string[] = [],
    slash24: string[] = [],
    near24: string[] = [];
  for (let i = 0; i < count; i++) {
    hosts.push(
      aimed ? u32ToHex((parseInt(data[rnd() % data.length].hex, 16) | (rnd() & 0xff)) >>> 0) : u32ToHex(rnd()),
    );
    slash24.push(networkOf(4, u32ToHex(rnd()), 24));
    // Selective containedIn is aimed where data is: the /24 around an existing prefix.
    near24.push(networkOf(4, data[rnd() % data.length].hex, 24));
  }
  return { hosts, slash24, near24 };
}

const QUERIES = 20000;
const fmt = (x: number, d = 2) => x.toFixed(d);

function measure(label: string, idx: ContainmentIndex, data: Prefix[], aimed = false) {
  const q = queriesV4(QUERIES, data, aimed);
  const rows: [string, Lat][] = [
    ['containing host orEqual (net_host)', latency(q.hosts, (h) => idx.containing(4, h, 32, true))],
    ['containing /24 orEqual (net_contains_or_equals)', latency(q.slash24, (h) => idx.containing(4, h, 24, true))],
    ['containedIn /24 strict (net_contained)', latency(q.near24, (h) => idx.containedIn(4, h, 24, false))],
  ];
  for (const [name, l] of rows) {
    console.log(
      `${label} ${name}: median ${fmt(l.median, 3)} µs, p99 ${fmt(l.p99, 3)} µs, avg results ${fmt(l.avgResults)}`,
    );
  }
  return { q, rows };
}

function benchSuite(label: string, idx: ContainmentIndex, q: ReturnType<typeof queriesV4>): Promise<void> {
  return new Promise((resolve) => {
    let i = 0;
    const next = () => (i = (i + 1) % QUERIES);
    new Benchmark.Suite(label)
      .add(`${label} containing host`, () => {
        idx.containing(4, q.hosts[next()], 32, true);
      })
      .add(`${label} containing /24 orEqual`, () => {
        idx.containing(4, q.slash24[next()], 24, true);
      })
      .add(`${label} containedIn /24`, () => {
        idx.containedIn(4, q.near24[next()], 24, false);
      })
      .on('cycle', (e: Benchmark.Event) => {
        const b = e.target;
        if (!(b instanceof Benchmark)) return; // a cycle event's target is the benchmark that ran
        console.log(`  benchmark.js ${b.name}: mean ${fmt(b.stats.mean * 1e6, 3)} µs ±${fmt(b.stats.rme, 1)}%`);
      })
      .on('complete', () => resolve())
      .run({ async: false, maxTime: 1.5 } as Benchmark.Options);
  });
}

/** Compare the chosen IPv6 column layout with sorted 32-char hex strings. */
async function v6LayoutComparison(data: Prefix[]): Promise<void> {
  const hexes = data.map((p) => p.hex).sort();
  const queries: string[] = [];
  for (let i = 0; i < QUERIES; i++) queries.push(v6Hex());

  const m0 = await heap();
  const strings: string[] = [];
  for (const h of hexes) {
    const s = h.slice(0, 16) + h.slice(16);
    s.charCodeAt(31);
    strings.push(s);
  }
  const stringBytes = ((await heap()) - m0) / strings.length;

  const words = new Uint32Array(hexes.length * 4);
  hexes.forEach((h, i) => hexToWords6(h, words, i * 4));
  const v6 = new V6Index();
  v6.n = hexes.length;
  v6.net = words;
  v6.len = new Uint8Array(hexes.length);

  const lbString = (x: string) => {
    let lo = 0,
      hi = strings.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (strings[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const w = new Uint32Array(4);
  const lbWords = (x: string) => {
    hexToWords6(x, w, 0);
    return v6.lowerBound(w[0], w[1], w[2], w[3], 0);
  };
  const time = (f: (x: string) => number) => {
    let s = 0;
    for (const q of queries) s += f(q);
    const t0 = performance.now();
    for (let r = 0; r < 5; r++) for (const q of queries) s += f(q);
    return { ns: ((performance.now() - t0) * 1e6) / (5 * queries.length), s };
  };
  const ts = time(lbString),
    tw = time(lbWords);
  console.log(
    `IPv6 layout @${hexes.length}: hex strings ${fmt(stringBytes, 1)} B/entry (string+slot only), lowerBound ` +
      `${fmt(ts.ns, 0)} ns; ` +
      `u32 words 16 B/entry, lowerBound incl. hex->words ${fmt(tw.ns, 0)} ns`,
  );
}

async function main() {
  console.log(
    `Node ${process.version}, ${process.platform}/${process.arch}, gc ${canCollect ? 'exposed' : 'NOT exposed'}`,
  );

  await distinctFigures();
  await ipamFigures();

  const small = v4Prefixes(10_000);
  const b10k = await build(new ContainmentIndex(), 4, small, 0);
  console.log(
    `10k IPv4 build: add ${fmt(b10k.addMs)} ms + rebuild ${fmt(b10k.rebuildMs)} ms, ` +
      `${fmt(b10k.bytesPerEntry, 1)} B/entry`,
  );
  const m10k = measure('10k', b10k.idx, small);

  const big = v4Prefixes(1_000_000);
  const b1m = await build(new ContainmentIndex(), 4, big, 0);
  console.log(
    `1M IPv4 build: add ${fmt(b1m.addMs)} ms + rebuild ${fmt(b1m.rebuildMs)} ms = ` +
      `${fmt(b1m.addMs + b1m.rebuildMs)} ms, ${fmt(b1m.bytesPerEntry, 1)} B/entry`,
  );

  const v6 = v6Prefixes(200_000);
  const alone6 = await build(new ContainmentIndex(), 6, v6, 0);
  console.log(
    `200k IPv6 alone: add ${fmt(alone6.addMs)} ms + rebuild ${fmt(alone6.rebuildMs)} ms, ` +
      `${fmt(alone6.bytesPerEntry, 1)} B/entry`,
  );
  alone6.idx = null as never;
  const b6 = await build(b1m.idx, 6, v6, 1_000_000);
  console.log(
    `+200k IPv6 into the 1M index: add ${fmt(b6.addMs)} ms + rebuild ${fmt(b6.rebuildMs)} ms, ` +
      `whole 1.2M index ${fmt((b1m.bytesPerEntry * 1e6 + b6.bytesPerEntry * 2e5) / 1.2e6, 1)} B/entry`,
  );

  // Lazy path: one change, next flush re-sorts only the touched (IPv4) sub-index.
  b1m.idx.remove(0);
  b1m.idx.add(0, 4, big[0].hex, big[0].len);
  const t0 = performance.now();
  b1m.idx.flush();
  console.log(`rebuild after one add, 1M IPv4 sub-index: ${fmt(performance.now() - t0)} ms`);

  pendingAdds(b1m.idx, big);

  const m1m = measure('1M', b1m.idx, big);
  const v6q: string[] = [];
  for (let i = 0; i < QUERIES; i++) v6q.push(v6Hex());
  const l6 = latency(v6q, (h) => b1m.idx.containing(6, h, 128, true));
  console.log(
    `200k IPv6 containing host: median ${fmt(l6.median, 3)} µs, p99 ${fmt(l6.p99, 3)} µs, avg results ` +
      `${fmt(l6.avgResults)}`,
  );
  ratios(m10k.rows, m1m.rows);

  await dedupFigures(small, big, v6, v6q);

  await benchSuite('10k', b10k.idx, m10k.q);
  await benchSuite('1M', b1m.idx, m1m.q);
  await v6LayoutComparison(v6);
}

/** Main figures: distinct prefixes (what an inventory holds). The repeats-allowed generator follows. */
async function distinctFigures(): Promise<void> {
  const s10k = v4Distinct(10_000);
  const i10k = (await build(new ContainmentIndex(), 4, s10k, 0)).idx;
  const r10k = measure('10k-distinct', i10k, s10k);
  const s1m = v4Distinct(1_000_000);
  const b = await build(new ContainmentIndex(), 4, s1m, 0);
  console.log(
    `1M distinct IPv4 build: add ${fmt(b.addMs)} ms + rebuild ${fmt(b.rebuildMs)} ms = ` +
      `${fmt(b.addMs + b.rebuildMs)} ms, ${fmt(b.bytesPerEntry, 1)} B/entry`,
  );
  const r1m = measure('1M-distinct', b.idx, s1m);
  ratios(r10k.rows, r1m.rows);
}

/** The IPAM shape of `npm run bench:data` (/16 > /24 > /30 and /32): a host sits in ~3 prefixes at any size. */
async function ipamFigures(): Promise<void> {
  const ipam = (n: number) =>
    flat(
      [...prefixTexts({ prefixes: n, seed: 42, shape: 'ipam', v6Share: 0 }, mulberry32(42))].map((t) => {
        const c = parseCidr(t)!;
        return { hex: c.network, len: c.length };
      }),
    );
  const s10k = ipam(10_000),
    s1m = ipam(1_000_000);
  const r10k = measure('10k-ipam', (await build(new ContainmentIndex(), 4, s10k, 0)).idx, s10k, true);
  const r1m = measure('1M-ipam', (await build(new ContainmentIndex(), 4, s1m, 0)).idx, s1m, true);
  ratios(r10k.rows, r1m.rows);
}

function pendingAdds(idx: ContainmentIndex, big: Prefix[]): void {
  // Writes between lookups: up to 1,024 pending adds are scanned beside the sorted entries, so a
  // lookup right after a write does not re-sort 1M entries.
  for (const pending of [1, 100, 1000]) {
    for (let k = 0; k < pending; k++) idx.add(5_000_000 + k, 4, big[k + 1].hex, big[k + 1].len);
    const hosts = queriesV4(2000, big).hosts;
    const lp = latency(hosts, (h) => idx.containing(4, h, 32, true));
    console.log(
      `1M IPv4 containing host with ${pending} pending adds: median ${fmt(lp.median, 3)} µs, p99 ${fmt(lp.p99, 3)} µs`,
    );
    for (let k = 0; k < pending; k++) idx.remove(5_000_000 + k);
    idx.flush();
  }
}

/** Same generator, duplicates removed: isolates index cost from result size. */
async function dedupFigures(small: Prefix[], big: Prefix[], v6: Prefix[], v6q: string[]): Promise<void> {
  const u10k = dedupe(small),
    u1m = dedupe(big),
    u6 = dedupe(v6);
  console.log(`dedup: 10k -> ${u10k.length}, 1M -> ${u1m.length}, 200k IPv6 -> ${u6.length}`);
  const d10k = (await build(new ContainmentIndex(), 4, u10k, 0)).idx;
  const md10k = measure('10k-dedup', d10k, u10k);
  const d1m = (await build(new ContainmentIndex(), 4, u1m, 0)).idx;
  const md1m = measure('1M-dedup', d1m, u1m);
  const d6 = (await build(new ContainmentIndex(), 6, u6, 0)).idx;
  const ld6 = latency(v6q, (h) => d6.containing(6, h, 128, true));
  console.log(
    `IPv6-dedup containing host: median ${fmt(ld6.median, 3)} µs, p99 ${fmt(ld6.p99, 3)} µs, avg results ` +
      `${fmt(ld6.avgResults)}`,
  );
  ratios(md10k.rows, md1m.rows);
}

function ratios(a: [string, Lat][], b: [string, Lat][]): void {
  for (let k = 0; k < a.length; k++) {
    console.log(`ratio median ${b[k][0]}: ${fmt(b[k][1].median / Math.max(1e-9, a[k][1].median))}x`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
