// `npm run bench:graphql [-- --prefixes 100000] [--devices 10000] [--big-prefixes 1000000]
//   [--backends memory,postgres,mysql] [--cases …]`: GraphQL requests timed one at a time through
// GraphqlService.run (no HTTP) on the bench dataset (generate.ts) plus `devices` devices with 10 interfaces
// each and one address per interface (graphql-data.ts), against #37's targets; the prefix tree case on a
// memory store of `big-prefixes` prefixes. Writes bench/results/<date>-graphql.json (graphql-quick when a
// size is below its default, which the doc does not read).
import '../server/production-mode.js'; // first: graphql-js in production mode, as the server runs it
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { Inventory } from '../app/inventory.js';
import { GraphqlService } from '../app/graphql/run-graphql.js';
import { DEFAULT_GRAPHQL_LIMITS, VIEW_ALL } from '../app/graphql/contract.js';
import * as N from '../engine/plan/nodes.js';
import { defaultOrdering } from '../engine/plan/page.js';
import { resource } from '../engine/schema/registry.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { createStorage } from '../storage/open-storage.js';
import type { Storage } from '../storage/types.js';
import { datasetCounts, type DatasetOptions } from './generate.js';
import { ADDRESS_BLOCK, INTERFACES_PER_DEVICE, loadDevices } from './graphql-data.js';
import { backendsFlag, casesFlag, prefixesFlag } from './flags.js';
import { loadDataset } from './load.js';
import { measure } from './measure.js';
import { hostInside } from './query-classes.js';
import { writeResults } from './results-file.js';
import type { GraphqlCase, GraphqlRss } from './results-shapes.js';
import { sqlBackends } from './sql-backends.js';

const CASES = ['devices', 'addresses', 'prefix-tree', 'rss'] as const;
type CaseName = (typeof CASES)[number];
const SPEC: CliSpec = {
  command: 'npm run bench:graphql --',
  summary: "GraphQL requests one at a time through GraphqlService.run, per backend, against #37's targets.",
  flags: [
    prefixesFlag('100000'),
    { name: 'devices', type: 'integer', min: 1, default: '10000', help: 'devices added, 10 interfaces each' },
    { name: 'big-prefixes', type: 'integer', min: 1, default: '1000000', help: 'prefixes for the prefix tree case' },
    { name: 'seed', type: 'integer', default: '42', help: 'seed of the dataset generator' },
    backendsFlag('memory,postgres,mysql'),
    casesFlag(CASES),
    { name: 'profile', type: 'string', value: 'DIR', help: 'write a CPU profile of each timed case into DIR' },
  ],
};
const args = argsOrExit(SPEC);
const cases = new Set(args.list('cases') as readonly CaseName[]);
const wanted = new Set(args.list('backends'));
const DEVICES = args.number('devices');
const dataset = (prefixes: number): DatasetOptions => ({
  prefixes,
  seed: args.number('seed'),
  shape: 'uniform',
  v6Share: 1 / 6,
});

/** #37's targets, in milliseconds (memory's own where it has one). */
const TARGET_MS: Record<string, Record<string, number>> = {
  devices: { memory: 100, postgres: 400, mysql: 400, mysql9: 400 },
  addresses: { memory: 1000, postgres: 1000, mysql: 1000, mysql9: 1000 },
  'prefix-tree': { memory: 5 },
};
const RSS_TARGET_MB = 200;

const QUERY = {
  devices: '{ devices(limit: 500) { name interfaces { name ip_addresses { address } } } }',
  addresses: `{ ip_addresses(parent: "${ADDRESS_BLOCK}") { address interface { name device { name } } } }`,
  rss: '{ ip_addresses { id address } }',
  prefixTree: (v: string) => `{ prefixes(network__net_contains_or_equals: "${v}") { prefix children { prefix } } }`,
};

const round = (x: number) => Math.round(x * 100) / 100;

/** Objects in an answer (`data` itself not counted): every object of every list and every nested object. */
function objects(data: unknown): number {
  return data && typeof data === 'object' ? Object.values(data).reduce((n: number, x) => n + count(x), 0) : 0;
}
function count(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + count(x), 0);
  if (v && typeof v === 'object') return 1 + Object.values(v).reduce((n: number, x) => n + count(x), 0);
  return 0;
}

/** One request; an answer with errors stops the bench with them. */
function runner(service: GraphqlService): (query: string) => Promise<unknown> {
  return async (query) => {
    const res = await service.run({ query }, { limits: DEFAULT_GRAPHQL_LIMITS, viewer: VIEW_ALL });
    if (res.errors?.length) throw new Error(`${query}: ${res.errors.map((e) => e.message).join('; ')}`);
    return res.data;
  };
}

/** The share of the wall time `fn` takes that goes to garbage collection. */
async function withGc<T>(fn: () => Promise<T>): Promise<{ value: T; gcShare: number }> {
  let gcMs = 0;
  const t0 = performance.now();
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMs += e.duration;
  });
  obs.observe({ entryTypes: ['gc'] });
  try {
    const value = await fn();
    return { value, gcShare: gcMs / (performance.now() - t0) };
  } finally {
    obs.disconnect();
  }
}

/** `fn` under the CPU profiler when --profile is given: DIR/<backend>-<case>.cpuprofile. */
async function profiled<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const dir = args.string('profile');
  if (!dir) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${file}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

async function timed(backend: string, name: string, query: () => string, run: (q: string) => Promise<unknown>) {
  try {
    return await timedOrThrow(backend, name, query, run);
  } catch (e) {
    const error = (e as Error).message.slice(0, 300);
    console.log(`  ${backend} ${name}: failed: ${error}`);
    const out: GraphqlCase = {
      backend,
      case: name,
      objects: 0,
      median_ms: 0,
      p99_ms: 0,
      samples: 0,
      gc_share: 0,
      target_ms: null,
      error,
    };
    return out;
  }
}

async function timedOrThrow(backend: string, name: string, query: () => string, run: (q: string) => Promise<unknown>) {
  const answer = await run(query());
  const slow = name === 'addresses';
  const { value: f, gcShare } = await profiled(`${backend}-${name}`, () =>
    withGc(() => measure(() => run(query()), { async: true, slow, maxMs: slow ? 0 : 3000 })),
  );
  const target = TARGET_MS[name][backend];
  const out: GraphqlCase = {
    backend,
    case: name,
    objects: objects(answer),
    median_ms: round(f.median_us / 1000),
    p99_ms: round(f.p99_us / 1000),
    samples: f.samples,
    gc_share: round(gcShare),
    target_ms: target ?? null,
  };
  const verdict = target === undefined ? '' : f.median_us / 1000 <= target ? ' (target met)' : ' (TARGET MISSED)';
  console.log(
    `  ${backend} ${name}: ${out.objects} objects, median ${out.median_ms} ms, p99 ${out.p99_ms} ms, ` +
      `${f.samples} samples, ${Math.round(out.gc_share * 100)}% of the time in GC; ` +
      `target ${target ?? '—'} ms${verdict}`,
  );
  return out;
}

const gc = (globalThis as { gc?: () => void }).gc;
const mb = (b: number) => Math.round(b / 2 ** 20);

/** RSS before (after collections), the highest RSS seen while the request runs and its answer is held. */
async function rssOf(backend: string, run: (q: string) => Promise<unknown>): Promise<GraphqlRss> {
  for (let k = 0; k < 4; k++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 25));
  }
  const before = process.memoryUsage.rss();
  let peak = before;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 2);
  const t0 = performance.now();
  let answer: unknown;
  try {
    answer = await run(QUERY.rss);
  } finally {
    clearInterval(sample);
  }
  const ms = performance.now() - t0;
  peak = Math.max(peak, process.memoryUsage.rss());
  const out = {
    backend,
    objects: objects(answer),
    ms: Math.round(ms),
    rss_before_mb: mb(before),
    rss_growth_mb: mb(peak - before),
    target_mb: RSS_TARGET_MB,
  };
  console.log(
    `  ${backend} rss: ${out.objects} objects in ${out.ms} ms, RSS ${out.rss_before_mb} MB + ${out.rss_growth_mb} ` +
      `MB (target ≤ ${RSS_TARGET_MB} MB)`,
  );
  return out;
}

interface Store {
  readonly name: string;
  readonly storage: Storage;
  drop(): Promise<void>;
}

async function stores(): Promise<Store[]> {
  const out: Store[] = [];
  if (wanted.has('memory'))
    out.push({ name: 'memory', storage: await createStorage('memory:'), drop: () => Promise.resolve() });
  for (const b of await sqlBackends(wanted))
    out.push({ name: b.name, storage: await createStorage(b.url), drop: () => b.drop() });
  return out;
}

async function deviceCases(s: Store, found: { cases: GraphqlCase[]; rss: GraphqlRss[] }): Promise<void> {
  await s.storage.open();
  try {
    const o = dataset(args.number('prefixes'));
    const ms = await loadDataset(s.storage, o, s.name);
    const t0 = performance.now();
    const rows = await loadDevices(s.storage, DEVICES, datasetCounts(o).sites);
    console.log(
      `  ${s.name}: dataset in ${(ms / 1000).toFixed(1)} s, ${rows} device rows in ` +
        `${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const inventory = new Inventory(s.storage);
    const run = runner(new GraphqlService(inventory, s.storage));
    try {
      if (cases.has('rss')) found.rss.push(await rssOf(s.name, run));
      if (cases.has('devices')) found.cases.push(await timed(s.name, 'devices', () => QUERY.devices, run));
      if (cases.has('addresses')) found.cases.push(await timed(s.name, 'addresses', () => QUERY.addresses, run));
    } finally {
      inventory.close();
    }
  } finally {
    await s.storage.close();
    await s.drop();
  }
}

/** The prefix tree case on memory: values are hosts inside prefixes of the dataset, taken in turn. */
async function prefixTree(n: number): Promise<GraphqlCase> {
  const storage = await createStorage('memory:');
  await storage.open();
  try {
    await loadDataset(storage, dataset(n), `memory, ${n} prefixes`);
    const prefix = resource('prefix');
    const page = { limit: 50, offset: Math.floor(n / 2), ordering: defaultOrdering(prefix) };
    const found = await storage.find('prefix', N.and([]), page);
    const hosts = found.rows
      .map((r) => String(r.prefix))
      .filter((p) => !p.includes(':'))
      .map(hostInside);
    const inventory = new Inventory(storage);
    let k = 0;
    try {
      const run = runner(new GraphqlService(inventory, storage));
      return await timed('memory', 'prefix-tree', () => QUERY.prefixTree(hosts[k++ % hosts.length]), run);
    } finally {
      inventory.close();
    }
  } finally {
    await storage.close();
  }
}

async function main(): Promise<void> {
  const found: { cases: GraphqlCase[]; rss: GraphqlRss[] } = { cases: [], rss: [] };
  if (['devices', 'addresses', 'rss'].some((c) => cases.has(c as CaseName)))
    for (const s of await stores()) await deviceCases(s, found);
  const big = args.number('big-prefixes');
  if (cases.has('prefix-tree') && wanted.has('memory')) found.cases.push(await prefixTree(big));
  const quick = args.number('prefixes') < 100_000 || DEVICES < 10_000 || big < 1_000_000 || cases.size < CASES.length;
  writeResults(quick ? 'graphql-quick' : 'graphql', {
    prefixes: args.number('prefixes'),
    devices: DEVICES,
    interfaces: DEVICES * INTERFACES_PER_DEVICE,
    addresses: DEVICES * INTERFACES_PER_DEVICE,
    big_prefixes: big,
    max_objects: DEFAULT_GRAPHQL_LIMITS.maxObjects,
    queries: {
      devices: QUERY.devices,
      addresses: QUERY.addresses,
      rss: QUERY.rss,
      'prefix-tree': QUERY.prefixTree('…'),
    },
    ...found,
  });
}

await main();
