// Scale-out of memory replicas: 1, 2, 3 server processes with READ_REPLICA=memory on one database,
// each holding the whole inventory. For each count: list reads spread over all processes (one
// autocannon per process, the connections shared out), single-site creates likewise, each
// process's resident memory and its initial load time. Writes the figures to
// bench/results/<date>-scale-out.json; `npm run docs` makes docs/scale-out.md's measured section and
// docs/benchmarks.md from them.
//
// Run:  npm run bench:scale-out [-- --prefixes 100000] [--processes 1,2,3] [--duration 10] [--connections 24]
// [--backends postgres,mysql]
import autocannon from 'autocannon';
import fs from 'node:fs';
import { writeResults } from './results-file.js';
import { SQL_BACKENDS, sqlBackends } from './sql-backends.js';
import { backendsFlag, connectionsFlag } from './flags.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { startBenchServer, stopBenchServer, type BenchServer } from './server-process.js';

export const SCALE_OUT_CLI: CliSpec = {
  command: 'npm run bench:scale-out --',
  summary:
    'Memory replicas scaled out: 1, 2, 3 READ_REPLICA=memory processes on one database; reads and creates ' +
    'spread over them, memory and load time per process.',
  flags: [
    { name: 'prefixes', type: 'integer', min: 0, default: '100000', help: 'prefixes in the dataset' },
    { name: 'processes', type: 'list', default: '1,2,3', help: 'process counts to measure, ascending' },
    { name: 'duration', type: 'integer', min: 1, default: '10', help: 'seconds per measured row' },
    connectionsFlag('24'),
    backendsFlag('postgres', SQL_BACKENDS),
  ],
};
const args = argsOrExit(SCALE_OUT_CLI);
const PREFIXES = args.number('prefixes');
const COUNTS = args.list('processes').map(Number);
const DURATION = args.number('duration');
const CONNECTIONS = args.number('connections');
const wanted = new Set(args.list('backends'));

const READS = [
  ['net_host, page of 50', '/api/ipam/prefixes/?network__net_host=10.1.2.3&limit=50'],
  ['sites by region and name, page of 50', '/api/dcim/sites/?region=region-0&name__isw=site-00&limit=50'],
] as const;

interface Load {
  rps: number;
  p99: number;
  errors: number;
}

/** One autocannon per server at once, the connections shared out; requests/s summed, the worst p99. */
async function spread(
  servers: readonly BenchServer[],
  opts: (s: BenchServer, i: number) => autocannon.Options,
): Promise<Load> {
  const each = Math.max(1, Math.round(CONNECTIONS / servers.length));
  const runs = await Promise.all(
    servers.map((s, i) => autocannon({ connections: each, duration: DURATION, ...opts(s, i) })),
  );
  return {
    rps: Math.round(runs.reduce((a, r) => a + r.requests.average, 0)),
    p99: Math.max(...runs.map((r) => r.latency.p99)),
    errors: runs.reduce((a, r) => a + r.errors + r.non2xx, 0),
  };
}

const rssMb = (pid: number | undefined): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(pid ? fs.readFileSync(`/proc/${pid}/status`, 'utf8') : '');
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
};
const loadMs = (s: BenchServer): number =>
  Number(/replica: loaded [\d,]+ rows from [^\n]*? in (\d+) ms/.exec(s.output())?.[1] ?? NaN);

interface Row {
  backend: string;
  processes: number;
  what: string;
  rps: number;
  p99_ms: number;
  errors: number;
}
const rows: Row[] = [];
const procs: string[] = [];
console.log(
  `memory replicas scaled out: ${COUNTS.join(', ')} processes on one database, ` +
    `${PREFIXES.toLocaleString('en-US')} prefixes`,
);
for (const b of await sqlBackends(wanted)) {
  const servers: BenchServer[] = [];
  try {
    for (const n of COUNTS) {
      while (servers.length < n) {
        const s = await startBenchServer({
          STORAGE_URL: b.url,
          BENCH_PREFIXES: String(PREFIXES),
          READ_REPLICA: 'memory',
          BENCH_LOAD: servers.length ? 'none' : '',
        });
        servers.push(s);
        const rss = rssMb(s.child.pid);
        procs.push(
          `- ${b.name}, process ${servers.length}: initial load ${loadMs(s).toLocaleString('en-US')} ms, ` +
            `${rss} MB resident after it (${Math.round((rss * 1048576) / PREFIXES)} B per prefix, everything ` +
            `included)`,
        );
        console.log(procs[procs.length - 1]);
      }
      for (const [what, path] of READS) {
        await spread(servers, (s) => ({
          url: s.url + path,
          duration: 2,
          headers: { Authorization: `Token ${s.key}` },
        })); // warm-up
        const r = await spread(servers, (s) => ({ url: s.url + path, headers: { Authorization: `Token ${s.key}` } }));
        rows.push({ backend: b.name, processes: n, what, rps: r.rps, p99_ms: r.p99, errors: r.errors });
        console.log(
          `  ${b.name} ×${n}  ${what.padEnd(38)} ${String(r.rps).padStart(7)} req/s  p99 ${r.p99} ms  errors ` +
            `${r.errors}`,
        );
      }
      const w = await spread(servers, (s, i) => ({
        url: `${s.url}/api/dcim/sites/`,
        method: 'POST',
        idReplacement: true,
        headers: { Authorization: `Token ${s.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `scale ${n} ${i} [<id>]`, slug: `scale-${n}-${i}-[<id>]` }),
      }));
      rows.push({
        backend: b.name,
        processes: n,
        what: 'single-site creates',
        rps: w.rps,
        p99_ms: w.p99,
        errors: w.errors,
      });
      console.log(
        `  ${b.name} ×${n}  ${'single-site creates'.padEnd(38)} ${String(w.rps).padStart(7)} req/s  p99 ` +
          `${w.p99} ms  errors ${w.errors}`,
      );
    }
  } finally {
    for (const s of servers) await stopBenchServer(s);
    await b.drop();
  }
}

writeResults('scale-out', { prefixes: PREFIXES, connections: CONNECTIONS, duration: DURATION, rows, processes: procs });
