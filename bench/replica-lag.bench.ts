// Replication lag of memory replicas (#19): two server processes with READ_REPLICA=memory on one
// fresh database; single-site creates at a steady rate (default 500/s, half through each process)
// for a while. For every 5th write, as soon as it is acknowledged, the OTHER process is asked for a
// list with X-Min-Change-Seq set to the write's seq: it answers once its replica has applied the
// write, so the time to that answer is the replication lag plus one request (an upper bound). A
// read that had to fall back to the database (1 s) counts as 1,000 ms. Reports the write rate
// reached and the lag's p50 / p99 / max, over the writes after a warm-up at the same rate.
// Target: p99 <= 50 ms at 500 writes/s.
//
// Run:  npm run bench:replica [-- --rate 500] or [--rate 100,200,500] [--seconds 10] [--warmup 2] [--backends
// postgres,mysql,mysql9]
// Writes bench/results/<date>-replica-lag.json.
import http from 'node:http';
import { cpuMsByCommand, cpuMsOf, cpuMsSince, DATABASE_PROCESS } from './process-cpu.js';
import { connectionCpu } from './database-cpu.js';
import { startBenchServer, stopBenchServer } from './server-process.js';
import { SQL_BACKENDS, sqlBackends } from './sql-backends.js';
import { backendsFlag, secondsFlag } from './flags.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { writeResults } from './results-file.js';
import type { ReplicaLagRow } from './results-shapes.js';
import { spread } from './measure.js';

export const REPLICA_CLI: CliSpec = {
  command: 'npm run bench:replica --',
  summary:
    'Replication lag of memory replicas: two READ_REPLICA=memory processes on one database, creates at a ' +
    'steady rate, lag p50/p99/max.',
  flags: [
    {
      name: 'rate',
      type: 'list',
      items: 'integer',
      min: 1,
      default: '500',
      help: 'writes per second (half through each process); several: one run each, fresh processes and database',
    },
    secondsFlag('10', 'how long the counted writes go on'),
    {
      name: 'warmup',
      type: 'integer',
      min: 0,
      default: '2',
      help: 'seconds of writes at the same rate before, not counted (fresh processes and connections)',
    },
    backendsFlag('postgres', SQL_BACKENDS),
  ],
};
const args = argsOrExit(REPLICA_CLI);
const RATES = args.list('rate').map(Number);
const SECONDS = args.number('seconds');
const WARMUP = args.number('warmup');
const wanted = new Set(args.list('backends'));

const startServer = (storageUrl: string, load: boolean) =>
  startBenchServer({
    STORAGE_URL: storageUrl,
    BENCH_PREFIXES: '0',
    READ_REPLICA: 'memory',
    BENCH_LOAD: load ? '' : 'none',
  });

/**
 * One keep-alive request (node:http: on cores the servers share, it costs a third of `fetch`'s CPU per request,
 * measured).
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
/** Each server's host and port, parsed once (the load generator's CPU counts in the sum). */
const hosts = new Map<string, { host: string; port: string }>();
function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; header(name: string): string | undefined }> {
  let at = hosts.get(base);
  if (!at) {
    const u = new URL(base);
    hosts.set(base, (at = { host: u.hostname, port: u.port }));
  }
  const { host, port } = at;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host,
        port,
        path,
        method,
        headers: body ? { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } : headers,
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, header: (h) => res.headers[h] as string | undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Creates at a steady rate, alternating between the two servers; every fifth one is read back from the
 * other server with its seq to wait for (the lag), and again without (what a read costs alone).
 */
class SteadyWrites {
  n = 0;
  ok = 0;
  failed = 0;
  inFlight = 0;
  readonly lags: number[] = [];
  readonly plain: number[] = [];

  constructor(
    private readonly urls: readonly string[],
    private readonly headers: Record<string, string>,
    private readonly rate: number,
  ) {}

  /** Forgets what the warm-up counted. */
  reset(): void {
    this.ok = 0;
    this.failed = 0;
    this.lags.length = 0;
    this.plain.length = 0;
  }

  private async lagOf(other: string, seq: number): Promise<void> {
    const t = performance.now();
    const r = await send(other, 'GET', '/api/dcim/sites/?limit=1', {
      ...this.headers,
      'X-Min-Change-Seq': String(seq),
    });
    this.lags.push(r.header('x-read-source') === 'replica' ? performance.now() - t : 1000);
    // The same read without a seq to wait for, at once: what a request costs on this loaded machine.
    const t2 = performance.now();
    await send(other, 'GET', '/api/dcim/sites/?limit=1', this.headers);
    this.plain.push(performance.now() - t2);
  }

  private async write(): Promise<void> {
    const i = this.n++;
    this.inFlight++;
    try {
      const body = JSON.stringify({ name: `lag-${i}`, slug: `lag-${i}` });
      const r = await send(this.urls[i % 2], 'POST', '/api/dcim/sites/', this.headers, body);
      if (r.status === 201) this.ok++;
      else this.failed++;
      if (r.status === 201 && i % 5 === 0) await this.lagOf(this.urls[(i + 1) % 2], Number(r.header('x-change-seq')));
    } catch {
      this.failed++;
    } finally {
      this.inFlight--;
    }
  }

  /**
   * Steady rate for `seconds`: every 10 ms, the writes due by now (at most 64 in flight); then the last ones finish.
   */
  async steady(seconds: number): Promise<number> {
    const t0 = performance.now(),
      n0 = this.n;
    while (performance.now() < t0 + seconds * 1000) {
      const due = n0 + Math.floor(((performance.now() - t0) / 1000) * this.rate);
      while (this.n < due && this.inFlight < 64) void this.write();
      await new Promise((r) => setTimeout(r, 10));
    }
    while (this.inFlight) await new Promise((r) => setTimeout(r, 10));
    return (performance.now() - t0) / 1000;
  }
}

async function run(name: string, url: string, rate: number, database: string): Promise<ReplicaLagRow> {
  const servers = [await startServer(url, true), await startServer(url, false)];
  const connections = await connectionCpu(name === 'postgres' ? 'postgres' : 'mysql', url);
  try {
    const headers = { Authorization: `Token ${servers[0].key}`, 'Content-Type': 'application/json' };
    // Fresh processes and connections: their first second (code compiled, the database's caches
    // filled per connection) is not the steady state, so it is run first and not counted.
    const urls = servers.map((x) => x.url);
    const w = new SteadyWrites(urls, headers, rate);
    await w.steady(WARMUP);
    const warm = { writes: w.ok, buckets: await appliedBuckets(urls, w.ok) };
    w.reset();
    // The CPU each kind of process spent on the counted writes: on shared cores, what bounds the rate.
    // The database's share is what its connections to this database used: on a machine shared with
    // other work, every process of the database server would count the other databases' load too
    // (that figure is kept as database_all).
    const cpu0 = {
      servers: servers.map((x) => cpuMsOf(x.child.pid!)),
      database: await connections.read(),
      all: cpuMsByCommand(database),
      generator: process.cpuUsage(),
    };
    const secs = await w.steady(SECONDS);
    const gen = process.cpuUsage(cpu0.generator);
    const cpuMs = {
      servers: servers.reduce((a, x, i) => a + cpuMsOf(x.child.pid!) - cpu0.servers[i], 0),
      database: cpuMsSince(cpu0.database, await connections.read()),
      all: cpuMsSince(cpu0.all, cpuMsByCommand(database)),
      generator: (gen.user + gen.system) / 1000,
    };
    const perWrite = (ms: number) => Math.round((ms / Math.max(1, w.ok)) * 100) / 100;
    const cpu = {
      servers: perWrite(cpuMs.servers),
      database: perWrite(cpuMs.database),
      generator: perWrite(cpuMs.generator),
      database_all: perWrite(cpuMs.all),
    };
    const applied = applyLag(await appliedBuckets(urls, warm.writes + w.ok), warm.buckets);
    const row: ReplicaLagRow = {
      backend: name,
      asked: rate,
      writes_per_s: Math.round(w.ok / secs),
      failed: w.failed,
      lag_reads: w.lags.length,
      lag_ms: spread(w.lags),
      plain_ms: spread(w.plain),
      cpu_ms_per_write: cpu,
      applied: { count: applied.count, p50_le_ms: applied.p50, p99_le_ms: applied.p99 },
    };
    printRow(row, cpu);
    return row;
  } finally {
    await connections.close();
    for (const s of servers) await stopBenchServer(s);
  }
}

function printRow(row: ReplicaLagRow, cpu: NonNullable<ReplicaLagRow['cpu_ms_per_write']>): void {
  const { lag_ms: lag, plain_ms: alone, applied } = row;
  console.log(
    `  ${row.backend.padEnd(8)} ${row.writes_per_s} writes/s (asked ${row.asked}, ${row.failed} failed); lag over ` +
      `${row.lag_reads} writes: p50 ${lag.p50} ms  p99 ${lag.p99} ms  max ${lag.max} ms`,
  );
  console.log(
    `  ${''.padEnd(8)} the same read right after, without X-Min-Change-Seq: p50 ${alone.p50} ms  p99 ` +
      `${alone.p99} ms  max ${alone.max} ms`,
  );
  console.log(
    `  ${''.padEnd(8)} CPU per write: the two servers ${cpu.servers} ms, the database ${cpu.database} ms ` +
      `(every process of it: ${cpu.database_all} ms), this load generator ${cpu.generator} ms; sum ` +
      `${Math.round((cpu.servers + cpu.database + cpu.generator) * 100) / 100} ms`,
  );
  console.log(
    `  ${''.padEnd(8)} records applied by the two replicas (netinv_replica_apply_lag_seconds, written -> ` +
      `applied): ${applied.count}; p50 ≤ ${applied.p50_le_ms} ms, p99 ≤ ${applied.p99_le_ms} ms`,
  );
}

/**
 * Both replicas' netinv_replica_apply_lag_seconds buckets, summed (cumulative counts by bound), once both applied
 * `writes` records (or 5 s passed).
 */
async function appliedBuckets(urls: readonly string[], writes: number): Promise<Map<string, number>> {
  const buckets = new Map<string, number>();
  for (let tries = 0; ; tries++) {
    buckets.clear();
    for (const url of urls) {
      const body = await (await fetch(`${url}/metrics`)).text();
      for (const m of body.matchAll(/^netinv_replica_apply_lag_seconds_bucket\{le="([^"]+)"\} (\S+)$/gm))
        buckets.set(m[1], (buckets.get(m[1]) ?? 0) + Number(m[2]));
    }
    if ((buckets.get('+Inf') ?? 0) >= writes * urls.length || tries > 50) return buckets;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The replicas' own figure: each change record's age when a replica applied it, from the histogram
 * both serve on /metrics, the records counted since `before` (the warm-up's), as the bucket bounds
 * its p50 and p99 fall in.
 */
function applyLag(
  after: ReadonlyMap<string, number>,
  before: ReadonlyMap<string, number>,
): { count: number; p50: string; p99: string } {
  const buckets = [...after].map(([le, c]) => [le, c - (before.get(le) ?? 0)] as const);
  const count = buckets.find(([le]) => le === '+Inf')?.[1] ?? 0;
  const at = (p: number) => {
    const le = buckets.find(([, c]) => c >= (count * p) / 100)?.[0];
    return le === undefined ? '?' : le === '+Inf' ? '∞' : String(Number(le) * 1000);
  };
  return { count, p50: at(50), p99: at(99) };
}

console.log(
  `memory replica lag: two replica processes, ${RATES.join(', ')} single-site creates/s for ${SECONDS} s ` +
    `each after ${WARMUP} s not counted`,
);
const rows: ReplicaLagRow[] = [];
for (const rate of RATES) {
  for (const b of await sqlBackends(wanted)) {
    try {
      rows.push(await run(b.name, b.url, rate, DATABASE_PROCESS[b.name]));
    } finally {
      await b.drop();
    }
  }
}
writeResults('replica-lag', { rate: Math.max(...RATES), seconds: SECONDS, warmup_seconds: WARMUP, rows });
