// Bulk creates at scale (#34 item 2): one server process per backend on a fresh database, CLIENTS
// clients each POSTing batches of BATCH distinct /24 prefixes (`POST /api/ipam/prefixes/` with a
// JSON array) one after the other until TOTAL prefixes are stored. Per batch: its latency and
// status. Reported: prefixes/s over the whole run, errors by status, the 10th and the last batch
// (and the median of the ten batches from the 10th against the last ten, which one slow batch moves
// less), the CPU per 1,000 prefixes of the server, the database and this load generator, and the
// server's pool waits read from its /metrics at the end. No ANALYZE is run by hand: the database
// starts empty and only the server's own work keeps its statistics.
// Targets at 1,000,000: no error; >= 30,000/s memory, >= 8,000/s PostgreSQL, >= 4,000/s MariaDB and
// MySQL 9; the last batch <= 1.5x the tenth.
//
// Run:  npm run bench:bulk [-- --total 1000000] [--batch 1000] [--clients 4] [--backends memory,postgres,mysql,mysql9]
// [--cpu-prof DIR] [--keep]
// Writes bench/results/<date>-bulk.json (with --total other than 1,000,000: <date>-bulk-<total>.json, which the doc
// does not read).
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { cpuMsByCommand, cpuMsOf, cpuMsSince, DATABASE_PROCESS } from './process-cpu.js';
import { startBenchServer, stopBenchServer, type BenchServer } from './server-process.js';
import { sqlBackends } from './sql-backends.js';
import { backendsFlag } from './flags.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { RESULTS_DIR, writeResults } from './results-file.js';
import { spread } from './measure.js';
import type { BulkResults, BulkRow } from './results-shapes.js';
import fs from 'node:fs';
import { machineInfo } from './machine.js';

export const BULK_CLI: CliSpec = {
  command: 'npm run bench:bulk --',
  summary:
    'Bulk creates of /24 prefixes through the REST API on a fresh database per backend: prefixes/s, batch ' +
    'latencies, errors, CPU.',
  flags: [
    { name: 'total', type: 'integer', min: 1000, default: '1000000', help: 'prefixes created in all' },
    { name: 'batch', type: 'integer', min: 1, max: 10000, default: '1000', help: 'prefixes per request' },
    {
      name: 'clients',
      type: 'integer',
      min: 1,
      max: 64,
      default: '4',
      help: 'clients sending batches at once (each waits for its answer)',
    },
    backendsFlag('memory,postgres,mysql,mysql9'),
    {
      name: 'cpu-prof',
      type: 'string',
      value: 'DIR',
      help: 'run each server with node --cpu-prof, its profile written to DIR',
    },
    {
      name: 'keep',
      type: 'flag',
      help: 'keep each SQL database after its run (its URL is printed): to look at its tables and plans',
    },
    {
      name: 'update',
      type: 'flag',
      help: "keep the other backends' rows of today's file of this total (backends measured by separate runs)",
    },
  ],
};
const args = argsOrExit(BULK_CLI);
const TOTAL = args.number('total');
const BATCH = args.number('batch');
const CLIENTS = args.number('clients');
const PROF_DIR = args.string('cpu-prof');
const wanted = new Set(args.list('backends'));
const BATCHES = Math.ceil(TOTAL / BATCH);

/**
 * The i-th prefix: a /24 from 16.0.0.0 up to 143.255.255.0, the 2^23 of them visited in a scrambled
 * order (an odd multiplier is a bijection modulo 2^23), so the batches land all over the index as
 * an import of many sites' networks would, not appended at its end. Distinct up to 8,388,608.
 */
function prefixAt(i: number): string {
  const k = Number((BigInt(i) * 2654435761n) % 8388608n) + 16 * 65536;
  return `${k >>> 16}.${(k >>> 8) & 255}.${k & 255}.0/24`;
}

function batchBody(b: number): string {
  const items: string[] = [];
  for (let i = b * BATCH; i < Math.min(TOTAL, (b + 1) * BATCH); i++)
    items.push(`{"prefix":"${prefixAt(i)}","status":"active","description":"bulk ${i}"}`);
  return `[${items.join(',')}]`;
}

// One socket per client: a spare socket left idle in the agent past the server's keep-alive timeout
// (5 s) and then reused meets a close in flight: the likely cause of the few ECONNRESET the first
// 1M runs counted (5-6 of ~1,000 batches on memory at a load average of 15).
const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS + 1, scheduling: 'fifo' });
/** One request; the answer is read and dropped (parsing 1,000 objects would load this generator for nothing). */
function send(
  base: string,
  method: string,
  p: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(base + p);
    const req = http.request(
      {
        agent,
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method,
        headers: body ? { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } : headers,
      },
      (res) => {
        const keep = (res.statusCode ?? 0) >= 300 || p === '/metrics'; // an error's body is kept for the log
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (keep) chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * netinv_db_pool_wait_seconds from the server's /metrics: waits, their sum and the largest bucket reached; timeouts.
 */
async function poolWaits(s: BenchServer): Promise<BulkRow['pool']> {
  const text = (await send(s.url, 'GET', '/metrics', {})).text;
  const num = (re: RegExp) => {
    const m = re.exec(text);
    return m ? Number(m[1]) : null;
  };
  const count = num(/^netinv_db_pool_wait_seconds_count(?:\{[^}]*\})? (\S+)$/m);
  if (count === null) return null;
  const sum = num(/^netinv_db_pool_wait_seconds_sum(?:\{[^}]*\})? (\S+)$/m) ?? 0;
  const timeouts = num(/^netinv_db_pool_wait_timeouts_total(?:\{[^}]*\})? (\S+)$/m) ?? 0;
  return { waits: count, mean_ms: count ? Math.round((sum / count) * 1e5) / 100 : 0, timeouts };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};
const r2 = (x: number) => Math.round(x * 100) / 100;

async function run(name: string, storageUrl: string, database: string | null): Promise<BulkRow> {
  // Nothing loaded first (BENCH_LOAD=none): a bench load would ANALYZE the tables, which this run must not have.
  const env: Record<string, string> = { STORAGE_URL: storageUrl, BENCH_PREFIXES: '0', BENCH_LOAD: 'none' };
  const prof = PROF_DIR
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${path.resolve(PROF_DIR)}`,
        `--cpu-prof-name=bulk-${name}-${process.pid}.cpuprofile`,
      ]
    : [];
  const server = await startBenchServer(env, prof);
  try {
    const load0 = os.loadavg()[0];
    const cpu0 = {
      server: cpuMsOf(server.child.pid!),
      database: database ? cpuMsByCommand(database) : new Map<number, number>(),
      generator: process.cpuUsage(),
    };
    const t0 = performance.now();
    const posted = await postAll(name, server, t0);
    const secs = (performance.now() - t0) / 1000;
    const gen = process.cpuUsage(cpu0.generator);
    const per1k = (cpuMs: number) => r2((cpuMs / Math.max(1, posted.created)) * 1000);
    const cpu = {
      server: per1k(cpuMsOf(server.child.pid!) - cpu0.server),
      database: database ? per1k(cpuMsSince(cpu0.database, cpuMsByCommand(database))) : 0,
      generator: per1k((gen.user + gen.system) / 1000),
    };
    const { ms } = posted;
    const marks: Marks = {
      tenth: ms[Math.min(9, BATCHES - 1)],
      last: ms[BATCHES - 1],
      early: median(ms.slice(9, 19)),
      late: median(ms.slice(-10)),
    };
    const pool = await poolWaits(server).catch(() => null);
    const row = bulkRow(name, posted, secs, marks, cpu, load0, pool);
    printRow(row, posted.firstError, marks);
    return row;
  } finally {
    await stopBenchServer(server);
  }
}

/** What the clients' POSTs gave: each batch's time (ms), errors by status, the first error's text. */
interface Posted {
  readonly ms: number[];
  readonly errors: Record<string, number>;
  readonly firstError: string;
  readonly created: number;
}
/** Batch times that tell whether creates slow down as the table grows. */
interface Marks {
  readonly tenth: number;
  readonly last: number;
  readonly early: number;
  readonly late: number;
}

/** Every batch POSTed by CLIENTS clients at once, with a progress line every 10 s. */
async function postAll(name: string, server: BenchServer, t0: number): Promise<Posted> {
  const headers = {
    Authorization: `Token ${server.key}`,
    'Content-Type': 'application/json',
    Accept: 'application/json',
  };
  const ms = new Array<number>(BATCHES).fill(NaN);
  const errors: Record<string, number> = {};
  let firstError = '';
  let next = 0,
    created = 0;
  let lastShown = t0;
  const client = async () => {
    for (let b = next++; b < BATCHES; b = next++) {
      const body = batchBody(b);
      const t = performance.now();
      let status: number;
      try {
        const r = await send(server.url, 'POST', '/api/ipam/prefixes/', headers, body);
        status = r.status;
        if (status !== 201 && !firstError) firstError = `${status} ${r.text.slice(0, 300)}`;
      } catch (e) {
        status = 0;
        if (!firstError) firstError = (e as Error).message;
      }
      ms[b] = performance.now() - t;
      if (status === 201) created += Math.min(BATCH, TOTAL - b * BATCH);
      else errors[String(status)] = (errors[String(status)] ?? 0) + 1;
      if (performance.now() - lastShown > 10000) {
        lastShown = performance.now();
        console.log(
          `  ${name.padEnd(8)} ${created.toLocaleString('en-US')} created, ` +
            `${Math.round(created / ((lastShown - t0) / 1000))}/s, batch ${b}: ${Math.round(ms[b])} ms`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return { ms, errors, firstError, created };
}

function bulkRow(
  name: string,
  { ms, errors, created }: Posted,
  secs: number,
  { tenth, last, early, late }: Marks,
  cpu: BulkRow['cpu_ms_per_1000'],
  load0: number,
  pool: BulkRow['pool'],
): BulkRow {
  return {
    backend: name,
    total: TOTAL,
    created,
    seconds: r2(secs),
    prefixes_per_s: Math.round(created / secs),
    errors,
    batch_ms: spread(ms),
    tenth_ms: r2(tenth),
    last_ms: r2(last),
    last_over_tenth: r2(last / tenth),
    median_10th_to_19th_ms: r2(early),
    median_last_10_ms: r2(late),
    late_over_early: r2(late / early),
    cpu_ms_per_1000: cpu,
    load_average_1m: { start: r2(load0), end: r2(os.loadavg()[0]) },
    pool,
  };
}

function printRow(row: BulkRow, firstError: string, { tenth, last, early, late }: Marks): void {
  const { backend: name, created, errors, cpu_ms_per_1000: cpu, pool } = row;
  const errs =
    Object.entries(errors)
      .map(([s, n]) => `${n}× ${s}`)
      .join(', ') || 'none';
  console.log(
    `  ${name.padEnd(8)} ${row.prefixes_per_s.toLocaleString('en-US')} prefixes/s ` +
      `(${created.toLocaleString('en-US')} in ${row.seconds} s), errors: ` +
      `${errs}${firstError ? ` (first: ${firstError})` : ''}`,
  );
  console.log(
    `  ${''.padEnd(8)} batch p50 ${row.batch_ms.p50} ms, p99 ${row.batch_ms.p99} ms, max ` +
      `${row.batch_ms.max} ms; 10th ${Math.round(tenth)} ms, last ${Math.round(last)} ms ` +
      `(${row.last_over_tenth}×); median of 10th-19th ${Math.round(early)} ms, of the last 10 ` +
      `${Math.round(late)} ms (${row.late_over_early}×)`,
  );
  const waits = pool ? `; pool waits ${pool.waits} (mean ${pool.mean_ms} ms, ${pool.timeouts} timed out)` : '';
  console.log(
    `  ${''.padEnd(8)} CPU per 1,000 prefixes: server ${cpu.server} ms, database ${cpu.database} ms, ` +
      `generator ${cpu.generator} ms; load ${row.load_average_1m.start} -> ${row.load_average_1m.end}${waits}`,
  );
}

const kind = TOTAL === 1_000_000 ? 'bulk' : `bulk-${TOTAL}`;
const rows: BulkRow[] = [];
const UPDATE = args.flag('update');
/**
 * The file is written after each backend (a run of an hour stopped in its last backend keeps the
 * others). --update: today's file is read at each write (another run may have written it meanwhile).
 */
function save(): void {
  const today = new URL(`${machineInfo().date}-${kind}.json`, RESULTS_DIR);
  const kept =
    UPDATE && fs.existsSync(today)
      ? (JSON.parse(fs.readFileSync(today, 'utf8')) as BulkResults).rows.filter(
          (r) => !rows.some((x) => x.backend === r.backend),
        )
      : [];
  const order = ['memory', 'postgres', 'mysql', 'mysql9'];
  const all = [...kept, ...rows].sort((a, b) => order.indexOf(a.backend) - order.indexOf(b.backend));
  writeResults(kind, { total: TOTAL, batch: BATCH, clients: CLIENTS, rows: all });
}
console.log(`bulk creates: ${TOTAL.toLocaleString('en-US')} /24 prefixes, batches of ${BATCH}, ${CLIENTS} clients`);
if (wanted.has('memory')) {
  rows.push(await run('memory', 'memory:', null));
  save();
}
for (const b of await sqlBackends(wanted)) {
  try {
    rows.push(await run(b.name, b.url, DATABASE_PROCESS[b.name]));
    save();
  } finally {
    if (args.flag('keep')) console.log(`  ${b.name} database kept: ${b.url}`);
    else await b.drop();
  }
}
