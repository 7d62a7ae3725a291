// Replication lag of memory replicas (#19): two server processes with READ_REPLICA=memory on one
// fresh database; single-site creates at a steady rate (default 500/s, half through each process)
// for a while. For every 5th write, as soon as it is acknowledged, the OTHER process is asked for a
// list with X-Min-Change-Seq set to the write's seq: it answers once its replica has applied the
// write, so the time to that answer is the replication lag plus one request (an upper bound). A
// read that had to fall back to the database (1 s) counts as 1,000 ms. Reports the write rate
// reached and the lag's p50 / p99 / max. Target: p99 <= 50 ms at 500 writes/s.
//
// Run:  npm run bench:replica [-- --rate 500] [--seconds 10] [--backends postgres,mysql,mysql9]
// Writes bench/results/<date>-replica-lag.json.
import { startBenchServer, stopBenchServer } from './server-process.js';
import { SQL_BACKENDS, sqlBackends } from './sql-backends.js';
import { backendsFlag, secondsFlag } from './flags.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { writeResults } from './results-file.js';
import type { ReplicaLagRow } from './results-shapes.js';
import { spread } from './measure.js';

export const REPLICA_CLI: CliSpec = {
  command: 'npm run bench:replica --',
  summary: 'Replication lag of memory replicas: two READ_REPLICA=memory processes on one database, creates at a steady rate, lag p50/p99/max.',
  flags: [
    { name: 'rate', type: 'integer', min: 1, default: '500', help: 'writes per second (half through each process)' },
    secondsFlag('10', 'how long the writes go on'),
    backendsFlag('postgres', SQL_BACKENDS),
  ],
};
const args = argsOrExit(REPLICA_CLI);
const RATE = args.number('rate');
const SECONDS = args.number('seconds');
const wanted = new Set(args.list('backends'));

const startServer = (storageUrl: string, load: boolean) => startBenchServer({ STORAGE_URL: storageUrl, BENCH_PREFIXES: '0', READ_REPLICA: 'memory', BENCH_LOAD: load ? '' : 'none' });

async function run(name: string, url: string): Promise<ReplicaLagRow> {
  const servers = [await startServer(url, true), await startServer(url, false)];
  try {
    const headers = { Authorization: `Token ${servers[0].key}`, 'Content-Type': 'application/json' };
    let n = 0, ok = 0, failed = 0, inFlight = 0;
    const lags: number[] = [];
    const plain: number[] = [];
    const t0 = performance.now();
    const end = t0 + SECONDS * 1000;
    const lagOf = async (other: string, seq: number) => {
      const t = performance.now();
      const r = await fetch(`${other}/api/dcim/sites/?limit=1`, { headers: { ...headers, 'X-Min-Change-Seq': String(seq) } });
      await r.text();
      lags.push(r.headers.get('x-read-source') === 'replica' ? performance.now() - t : 1000);
      // The same read without a seq to wait for, at once: what a request costs on this loaded machine.
      const t2 = performance.now();
      await (await fetch(`${other}/api/dcim/sites/?limit=1`, { headers })).text();
      plain.push(performance.now() - t2);
    };
    const write = async () => {
      const i = n++;
      inFlight++;
      try {
        const r = await fetch(`${servers[i % 2].url}/api/dcim/sites/`, { method: 'POST', headers, body: JSON.stringify({ name: `lag-${i}`, slug: `lag-${i}` }) });
        await r.text();
        if (r.status === 201) ok++; else failed++;
        if (r.status === 201 && i % 5 === 0) await lagOf(servers[(i + 1) % 2].url, Number(r.headers.get('x-change-seq')));
      } catch { failed++; } finally { inFlight--; }
    };
    // Steady rate: every 10 ms, the writes due by now (at most 64 in flight).
    while (performance.now() < end) {
      const due = Math.floor(((performance.now() - t0) / 1000) * RATE);
      while (n < due && inFlight < 64) void write();
      await new Promise((r) => setTimeout(r, 10));
    }
    while (inFlight) await new Promise((r) => setTimeout(r, 10));
    const secs = (performance.now() - t0) / 1000;
    const applied = await applyLag(servers.map((x) => x.url), ok);
    const lag = spread(lags), alone = spread(plain);
    console.log(`  ${name.padEnd(8)} ${Math.round(ok / secs)} writes/s (asked ${RATE}, ${failed} failed); lag over ${lags.length} writes: p50 ${lag.p50} ms  p99 ${lag.p99} ms  max ${lag.max} ms`);
    console.log(`  ${''.padEnd(8)} the same read right after, without X-Min-Change-Seq: p50 ${alone.p50} ms  p99 ${alone.p99} ms  max ${alone.max} ms`);
    console.log(`  ${''.padEnd(8)} records applied by the two replicas (netinv_replica_apply_lag_seconds, written -> applied): ${applied.count}; p50 ≤ ${applied.p50} ms, p99 ≤ ${applied.p99} ms`);
    return { backend: name, writes_per_s: Math.round(ok / secs), failed, lag_reads: lags.length, lag_ms: lag, plain_ms: alone,
      applied: { count: applied.count, p50_le_ms: applied.p50, p99_le_ms: applied.p99 } };
  } finally {
    for (const s of servers) await stopBenchServer(s);
  }
}

/**
 * The replicas' own figure: each change record's age when a replica applied it, from the histogram
 * both serve on /metrics (summed), as the bucket bounds its p50 and p99 fall in. Waits until both
 * applied every write.
 */
async function applyLag(urls: readonly string[], writes: number): Promise<{ count: number; p50: string; p99: string }> {
  const buckets = new Map<string, number>();
  for (let tries = 0; ; tries++) {
    buckets.clear();
    for (const url of urls) {
      for (const m of (await (await fetch(`${url}/metrics`)).text()).matchAll(/^netinv_replica_apply_lag_seconds_bucket\{le="([^"]+)"\} (\S+)$/gm)) {
        buckets.set(m[1], (buckets.get(m[1]) ?? 0) + Number(m[2]));
      }
    }
    if ((buckets.get('+Inf') ?? 0) >= writes * urls.length || tries > 50) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const count = buckets.get('+Inf') ?? 0;
  const at = (p: number) => {
    const le = [...buckets].find(([, c]) => c >= (count * p) / 100)?.[0];
    return le === undefined ? '?' : le === '+Inf' ? '∞' : String(Number(le) * 1000);
  };
  return { count, p50: at(50), p99: at(99) };
}

console.log(`memory replica lag: two replica processes, ${RATE} single-site creates/s for ${SECONDS} s`);
const rows: ReplicaLagRow[] = [];
for (const b of await sqlBackends(wanted)) {
  try { rows.push(await run(b.name, b.url)); } finally { await b.drop(); }
}
writeResults('replica-lag', { rate: RATE, seconds: SECONDS, rows });
