// `npm run bench:http [-- --prefixes 1000000] [--backends memory,postgres] [--connections 32]
// [--pipelining 1] [--duration 10] [--only text [--update]]`: requests/s and p99 of
// representative list queries with autocannon, each backend's server in its own process (all up
// at once, each query measured on every backend back to back), written to
// bench/results/<date>-http-<client>[-<size>].json (`npm run docs` makes the doc from it).
// `--only` runs the queries whose name holds the text and prints them (no results file); with
// `--update` their rows replace the same rows of the newest file of that size.
import autocannon from 'autocannon';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBenchProcess, startBenchServer, stopBenchServer, type BenchServer } from './server-process.js';
import { RESULTS_DIR, writeResults } from './results-file.js';
import { machineInfo } from './machine.js';
import { loadSources } from './report/sources.js';
import { short } from './report/format.js';
import { SQL_BACKENDS, sqlBackends } from './sql-backends.js';
import { backendsFlag, connectionsFlag } from './flags.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { resource } from '../engine/schema/registry.js';

export const HTTP_CLI: CliSpec = {
  command: 'npm run bench:http --',
  summary: 'Requests/s and p99 of representative list queries, the server in its own process.',
  flags: [
    { name: 'prefixes', type: 'integer', min: 0, default: '1000000', help: 'prefixes loaded into the server' },
    backendsFlag('memory,postgres', ['memory', 'memory-uncached', ...SQL_BACKENDS, 'replica']),
    { name: 'duration', type: 'integer', min: 1, default: '10', help: 'seconds per query' },
    connectionsFlag('32'),
    // Above 1 the load generator spends far less CPU per request, which matters when it shares the server's cores.
    { name: 'pipelining', type: 'integer', min: 1, default: '1', help: 'requests in flight per connection' },
    // wrk (C, Debian package) costs the shared cores far less than autocannon (Node): its figure is closer to what the
    // server can do.
    {
      name: 'client',
      type: 'string',
      choices: ['autocannon', 'wrk'],
      default: 'autocannon',
      help: 'the load generator',
    },
    {
      name: 'only',
      type: 'string',
      default: '',
      help: 'run only the queries whose name holds this text, and print them (no results file is written)',
    },
    {
      name: 'update',
      type: 'flag',
      help:
        "with --only: the rows measured replace those queries' rows of the same backends (and the reference's) " +
        "in the newest results file of this size, written as today's",
    },
  ],
};
const args = argsOrExit(HTTP_CLI);
const prefixes = args.number('prefixes');
const wanted = new Set(args.list('backends'));
const duration = args.number('duration');
const connections = args.number('connections');
const pipelining = args.number('pipelining');
const client = args.string('client');

const QUERIES = [
  ['net_host, page of 50', '/api/ipam/prefixes/?network__net_host=10.1.2.3&limit=50'],
  [
    'net_contained + status, page of 50',
    '/api/ipam/prefixes/?network__net_contained=10.0.0.0/8&status=active&limit=50',
  ],
  ['tag + family, page of 50', '/api/ipam/prefixes/?tag=core&network__family=4&limit=50'],
  ['sites by region and name, page of 50', '/api/dcim/sites/?region=region-0&name__isw=site-00&limit=50'],
  ['no filter, page of 50', '/api/ipam/prefixes/?limit=50'],
  // The same page narrowed by fields= (NetBox 4): what a narrow page saves in serialization.
  ['no filter, page of 50, fields=prefix,status', '/api/ipam/prefixes/?limit=50&fields=prefix,status'],
  // What automation reads most (inventories, exports): a large page of full objects, nested device included.
  ['interfaces, page of 1,000', '/api/dcim/interfaces/?limit=1000'],
  // A page of 1,000 sites with their related counts (device_count, prefix_count, ...), and without
  // them: what the counts cost.
  ['sites, page of 1,000', '/api/dcim/sites/?limit=1000'],
  [
    'sites, page of 1,000, counts omitted',
    `/api/dcim/sites/?limit=1000&omit=${(resource('site').counts ?? []).map((c) => c.name).join(',')}`,
  ],
] as const;
const only = args.string('only');

interface Row {
  backend: string;
  query: string;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  single_ms?: number;
}

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * One request at a time, as a script reading a page once: the median of up to SINGLE_FETCHES
 * fetches (fewer once SINGLE_BUDGET_MS has gone), ms. On a server with the page cache the fetches
 * after the first are answered from it.
 */
const SINGLE_FETCHES = 11,
  SINGLE_BUDGET_MS = 5000;
async function singleFetch(url: string, key: string, path: string): Promise<number> {
  const took: number[] = [];
  const until = performance.now() + SINGLE_BUDGET_MS;
  while (took.length < SINGLE_FETCHES && (took.length < 3 || performance.now() < until)) {
    const t0 = performance.now();
    await (await fetch(url + path, { headers: { Authorization: `Token ${key}` } })).arrayBuffer();
    took.push(performance.now() - t0);
  }
  return Math.round(took.sort((a, b) => a - b)[Math.floor(took.length / 2)] * 10) / 10;
}

/** The 20,000th page of 50 (or the last, on fewer rows) in id order: by offset, and by a start cursor. */
async function deepPages(url: string, key: string): Promise<[string, string][]> {
  const offset = Math.max(0, Math.min(999_950, prefixes - 50));
  const first = (await (
    await fetch(`${url}/api/ipam/prefixes/?ordering=id&limit=1&offset=${offset}&fields=id`, {
      headers: { Authorization: `Token ${key}` },
    })
  ).json()) as { results: { id: string }[] };
  const page = (offset / 50 + 1).toLocaleString('en-US');
  return [
    [`page ${page} of 50 by offset (ordering=id)`, `/api/ipam/prefixes/?ordering=id&limit=50&offset=${offset}`],
    [`page ${page} of 50 by start cursor`, `/api/ipam/prefixes/?limit=50&start=${first.results[0].id}`],
  ];
}

async function autocannonLoad(url: string, key: string, path: string, secs = duration): Promise<LoadResult> {
  const r = await autocannon({
    url: url + path,
    connections,
    pipelining,
    duration: secs,
    headers: { Authorization: `Token ${key}` },
  });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/** wrk's text report -> figures (latencies in ms). */
function parseWrk(out: string): LoadResult {
  const ms = (label: string) => {
    const m = new RegExp(`\\s${label}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    if (!m) return NaN;
    const v = Number(m[1]);
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
  };
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const errs = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const sockErrors = errs ? errs.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  return { rps: Math.round(rps), p50: ms('50'), p99: ms('99'), errors: non2xx + sockErrors };
}

async function wrkLoad(url: string, key: string, path: string, secs = duration): Promise<LoadResult> {
  const { stdout } = await promisify(execFile)('wrk', [
    '-t1',
    `-c${connections}`,
    `-d${secs}s`,
    '--latency',
    '-H',
    `Authorization: Token ${key}`,
    url + path,
  ]);
  return parseWrk(stdout);
}

const load = client === 'wrk' ? wrkLoad : autocannonLoad;

/**
 * Queries measured as a pair on each backend, alternating in PAIR_ROUNDS rounds of a share of the
 * duration each: what the pair shows is their ratio, and the machine's drift between runs minutes
 * apart (±35 %, below) would swamp it when each is measured on every backend in turn.
 */
const PAIRED: ReadonlyMap<string, string> = new Map([['sites, page of 1,000', 'sites, page of 1,000, counts omitted']]);
const PAIR_ROUNDS = 4;

/**
 * Each path's load after a warm-up of each, alternating in `rounds` rounds of a share of the
 * duration, as one figure per path: mean rps, median p50, worst p99.
 */
async function alternating(url: string, key: string, paths: readonly string[], rounds: number): Promise<LoadResult[]> {
  const got = paths.map((): LoadResult[] => []),
    secs = Math.max(1, Math.round(duration / rounds));
  for (const p of paths) await load(url, key, p, secs); // warm-up pass
  for (let r = 0; r < rounds; r++) for (const [i, p] of paths.entries()) got[i].push(await load(url, key, p, secs));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return got.map((rs) => ({
    rps: Math.round(rs.reduce((a, x) => a + x.rps, 0) / rs.length),
    p50: median(rs.map((x) => x.p50)),
    p99: Math.max(...rs.map((x) => x.p99)),
    errors: rs.reduce((a, x) => a + x.errors, 0),
  }));
}

const rows: Row[] = [];
const backends: { name: string; url: string; drop(): Promise<void>; env?: Record<string, string> }[] = [];
if (wanted.has('memory')) backends.push({ name: 'memory', url: 'memory:', drop: async () => {} });
// `memory-uncached`: memory with PAGE_CACHE_MB=0: every request reads and serializes (what a page costs the first
// time).
if (wanted.has('memory-uncached'))
  backends.push({ name: 'memory, no page cache', url: 'memory:', drop: async () => {}, env: { PAGE_CACHE_MB: '0' } });
backends.push(...(await sqlBackends(wanted)));
// `replica`: PostgreSQL with READ_REPLICA=memory (the server answers reads from its replica).
if (wanted.has('replica'))
  for (const b of await sqlBackends(new Set(['postgres'])))
    backends.push({ name: 'postgres+replica', url: b.url, drop: b.drop, env: { READ_REPLICA: 'memory' } });
/** The server process's resident memory (Linux), MB. */
const rssMb = (pid: number | undefined): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(pid ? fs.readFileSync(`/proc/${pid}/status`, 'utf8') : '');
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
};
const memory: string[] = [];
const REFERENCE = 'reference: bare Express';
/** A backend's server, up for the whole run, with its own deep-page paths (cursors name its ids). */
interface Running {
  readonly name: string;
  readonly srv: BenchServer;
  readonly paths: ReadonlyMap<string, string>;
  drop(): Promise<void>;
}
const running: Running[] = [];
let reference: BenchServer | null = null;
let referenceFile = '';
const line = (name: string, r: LoadResult, extra = '') =>
  console.log(
    `  ${name.padEnd(28)} ${String(r.rps).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ` +
      `${r.errors}${extra}`,
  );
try {
  // Every server is loaded first and stays up: each query is then measured on all of them back to
  // back, so the machine's drift over the run (±35 % between runs minutes apart, seen here) falls
  // on every row of a query alike and the rows' ratios hold.
  for (const b of backends) {
    console.log(`\n== ${b.name}: loading ${prefixes.toLocaleString()} prefixes`);
    const srv = await startBenchServer({ STORAGE_URL: b.url, BENCH_PREFIXES: String(prefixes), ...b.env });
    const rss = rssMb(srv.child.pid);
    memory.push(
      `- ${b.name}: server process ${rss} MB resident after the load ` +
        `(${Math.round((rss * 1048576) / prefixes)} B per prefix, everything included).`,
    );
    console.log(memory[memory.length - 1]);
    running.push({
      name: b.name,
      srv,
      paths: new Map([...QUERIES, ...(await deepPages(srv.url, srv.key))].filter(([n]) => n.includes(only))),
      drop: b.drop,
    });
  }
  const names = running.length ? [...running[0].paths.keys()] : [];
  // The reference row: a bare Express app sending the first backend's answers (bench/reference-server.ts), measured
  // beside them.
  if (running.length) {
    const first = running[0];
    const bodies = await Promise.all(
      names.map(async (n) =>
        (
          await fetch(first.srv.url + first.paths.get(n)!, { headers: { Authorization: `Token ${first.srv.key}` } })
        ).json(),
      ),
    );
    referenceFile = path.join(os.tmpdir(), `netinv-reference-${process.pid}.json`);
    fs.writeFileSync(referenceFile, JSON.stringify(Object.fromEntries(names.map((_, i) => [`/${i}`, bodies[i]]))));
    reference = await startBenchProcess('./reference-server.js', { REFERENCE_BODIES: referenceFile });
  }
  // Each query alone, or with its partner (PAIRED) when both are asked.
  const groups = names
    .filter((n) => ![...PAIRED].some(([a, b]) => b === n && names.includes(a)))
    .map((n) => [n, ...[PAIRED.get(n)].filter((p): p is string => !!p && names.includes(p))]);
  for (const group of groups) {
    const rounds = group.length > 1 ? PAIR_ROUNDS : 1;
    console.log(`\n== ${group.join(' / ')}${rounds > 1 ? ` (alternating, ${rounds} rounds)` : ''}`);
    const measure = (url: string, key: string, paths: string[]) => alternating(url, key, paths, rounds);
    for (const b of running) {
      const results = await measure(
        b.srv.url,
        b.srv.key,
        group.map((n) => b.paths.get(n)!),
      );
      for (const [k, q] of group.entries()) {
        const r = results[k],
          single = await singleFetch(b.srv.url, b.srv.key, b.paths.get(q)!);
        rows.push({
          backend: b.name,
          query: q,
          rps: r.rps,
          p50_ms: r.p50,
          p99_ms: r.p99,
          errors: r.errors,
          single_ms: single,
        });
        line(group.length > 1 ? `${b.name} (${k ? 'second' : 'first'})` : b.name, r, `  one at a time ${single} ms`);
      }
    }
    if (reference) {
      const results = await measure(
        reference.url,
        '-',
        group.map((q) => `/${names.indexOf(q)}`),
      );
      for (const [k, q] of group.entries()) {
        rows.push({
          backend: REFERENCE,
          query: q,
          rps: results[k].rps,
          p50_ms: results[k].p50,
          p99_ms: results[k].p99,
          errors: results[k].errors,
        });
        line(group.length > 1 ? `${REFERENCE} (${k ? 'second' : 'first'})` : REFERENCE, results[k]);
        for (const x of rows.filter((x) => x.query === q && x.backend !== REFERENCE))
          console.log(`  ${x.backend.padEnd(28)} ${(x.rps / results[k].rps).toFixed(2)}× the reference (${q})`);
      }
    }
  }
} finally {
  if (reference) await stopBenchServer(reference);
  if (referenceFile) fs.rmSync(referenceFile, { force: true });
  for (const b of running) {
    await stopBenchServer(b.srv);
    await b.drop();
  }
}
// Backend by backend, as the report lists them.
const order = [...backends.map((b) => b.name), REFERENCE];
rows.sort((x, y) => order.indexOf(x.backend) - order.indexOf(y.backend));

// One file per size: the doc's main table is the 1M run (`http-autocannon`), with 10k and 100k beside it.
const kind = `http-${client}${prefixes === 1_000_000 ? '' : `-${short(prefixes)}`}`;
if (only && args.flag('update')) {
  // A query measured again (after a change to its path) on the backends given: its other rows stay.
  const newest = loadSources(RESULTS_DIR)[kind as 'http-autocannon'];
  if (!newest || newest.data.prefixes !== prefixes || newest.data.connections !== connections)
    throw new Error(`--update: no ${kind} file with ${prefixes} prefixes and ${connections} connections to update`);
  // Rows of one file are compared with each other: they must come from one kind of machine.
  const here = machineInfo(),
    there = newest.data.machine;
  if (here.cpu !== there.cpu || here.cores !== there.cores)
    throw new Error(
      `--update: the newest ${kind} file was measured on ${there.cores} × ${there.cpu}, this machine is ` +
        `${here.cores} × ${here.cpu}: run the whole bench`,
    );
  const measured = new Set(rows.map((r) => `${r.backend}\u0000${r.query}`));
  const { machine: _before, rows: before, ...rest } = newest.data;
  const at = (x: Row) => before.findIndex((r) => r.backend === x.backend && r.query === x.query);
  writeResults(kind, {
    ...rest,
    rows: [...before.filter((r) => !measured.has(`${r.backend}\u0000${r.query}`)), ...rows].sort(
      (x, y) => at(x) - at(y),
    ),
  });
  process.exit(0);
}
if (only) process.exit(0);
writeResults(kind, { prefixes, client, connections, pipelining, rows });
console.log(memory.join('\n'));
