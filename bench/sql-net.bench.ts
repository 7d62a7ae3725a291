// Network lookups on SQL storage: loads N random IPv4 prefixes (/8–/32; default 1,000,000) into a
// fresh PostgreSQL and MySQL/MariaDB database through Storage.apply (multi-row batches), then
// measures the client-side latency of Storage.find (first page of 50 in API order, + COUNT)
// for net_host (prefixes containing an address) and a selective net_contained (inside a /16).
// On PostgreSQL the same lookups are also timed in Nautobot's SQL form: a predicate on an
// expression wrapped around the column, which no index serves.
//
// Run:  npm run build && node dist/bench/sql-net.bench.js [--rows N] [--queries N] [--scan-queries N]
//       [--only postgres|mysql|mysql9] [--keep] [--load-only]
// URLs: TEST_POSTGRES_URL / TEST_MYSQL_URL (MariaDB) / TEST_MYSQL9_URL (MySQL 9) (default: the local
// servers of docs/storage.md).
import { performance } from 'node:perf_hooks';
import { netValuePlan, parseNetValue, type NetValue } from '../engine/plan/net-terms.js';
import type { Plan } from '../engine/plan/nodes.js';
import { formatAddress, networkOf, u32ToHex } from '../engine/net/ip.js';
import { freshDatabase, TEST_DB_KINDS, testDbDriver, type TestDbKind } from '../storage/test-db.js';
import { SqlStorage } from '../storage/sql/sql-storage.js';
import type { SqlDriver } from '../storage/sql/driver.js';
import { PgDriver } from '../storage/postgres/pg-driver.js';
import { MysqlDriver } from '../storage/mysql/mysql-driver.js';
import type { Page, Row, WriteOp } from '../storage/types.js';
import { prefixRowWith } from './prefix-rows.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const ROWS = Number(opt('rows', '1000000'));
const QUERIES = Number(opt('queries', '2000'));
const WARMUP = Math.min(300, QUERIES);
/** The wrapped-column form scans the table: a few runs give its median. */
const SCAN_QUERIES = Number(opt('scan-queries', '20'));
const BATCH = 20000;
const ONLY = opt('only', '');
/** Keep the loaded database (its URL is printed) instead of dropping it. */
const KEEP = args.includes('--keep');
const LOAD_ONLY = args.includes('--load-only');

process.env.TEST_POSTGRES_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
process.env.TEST_MYSQL_URL ??= 'mysql://root@127.0.0.1:3306/test';
process.env.TEST_MYSQL9_URL ??= 'mysql://root@127.0.0.1:3307/test';

let seed = 0x9e3779b9;
/** xorshift32, as bench/net-index.bench.ts: the same data on every run. */
function rnd(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
}

/** Time-ordered ids (UUIDv7 layout): rows append to the primary key instead of splitting pages. */
function orderedId(i: number): string {
  const h = i.toString(16).padStart(12, '0');
  const r = u32ToHex(rnd()) + u32ToHex(rnd());
  const tail = `${r.slice(6, 16)}${u32ToHex(rnd()).slice(0, 2)}`;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-7${r.slice(0, 3)}-8${r.slice(3, 6)}-${tail}`;
}

const NOW = '2026-01-01T00:00:00.000Z';

function prefixRow(i: number): Row {
  const len = 8 + (rnd() % 25);
  const hex = networkOf(4, u32ToHex(rnd()), len);
  const prefix = `${formatAddress({ family: 4, hex })}/${len}`;
  return prefixRowWith(prefix, { id: orderedId(i), created: NOW, last_updated: NOW });
}

const netValue = (text: string): NetValue => parseNetValue(text) as NetValue;
const PAGE: Page = {
  limit: 50,
  offset: 0,
  ordering: [
    { field: 'network', desc: false },
    { field: 'prefix_length', desc: false },
  ],
};

interface Stat {
  median: number;
  p95: number;
  p99: number;
  meanCount: number;
}

function stats(ms: number[], counts: number[]): Stat {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), p95: q(0.95), p99: q(0.99), meanCount: counts.reduce((a, b) => a + b, 0) / counts.length };
}

async function measure(run: (i: number) => Promise<number>, queries = QUERIES, warmup = WARMUP): Promise<Stat> {
  for (let i = 0; i < warmup; i++) await run(i);
  const ms: number[] = [],
    counts: number[] = [];
  for (let i = 0; i < queries; i++) {
    const t0 = performance.now();
    counts.push(await run(warmup + i));
    ms.push(performance.now() - t0);
  }
  return stats(ms, counts);
}

/** Query texts, drawn once so every variant sees the same lookups. */
const samples = (() => {
  const hosts: string[] = [],
    blocks: string[] = [];
  for (let i = 0; i < WARMUP + QUERIES; i++) {
    hosts.push(formatAddress({ family: 4, hex: u32ToHex(rnd()) }));
    blocks.push(`${formatAddress({ family: 4, hex: networkOf(4, u32ToHex(rnd()), 16) })}/16`);
  }
  return { hosts, blocks };
})();

/** Nautobot's shape on PostgreSQL: the stored column wrapped in a conversion, compared with a value. */
function nautobotForm(d: SqlDriver): Record<string, (i: number) => Promise<number>> {
  const cols =
    'id, created, last_updated, prefix, network, broadcast, prefix_length, family, status, site, vlan, ' +
    'description, tags, custom_fields';
  const order = ' ORDER BY net_block, prefix_length, id LIMIT 50';
  const run = async (where: string, params: unknown[]) => {
    await d.query(`SELECT ${cols} FROM prefix WHERE ${where}${order}`, params);
    return Number((await d.query(`SELECT count(*) AS n FROM prefix WHERE ${where}`, params)).rows[0].n);
  };
  return {
    // prefixes containing the address: prefix_length <= 32 AND addr BETWEEN wrapped(network) AND wrapped(broadcast)
    net_host: (i) =>
      run(
        `prefix_length <= 32 AND $1::inet BETWEEN CAST(HOST(net_block) AS inet) AND ` +
          `CAST(HOST(broadcast(net_block)) AS inet)`,
        [samples.hosts[i]],
      ),
    // prefixes inside the /16: prefix_length > 16 AND wrapped(network) BETWEEN net AND broadcast
    net_contained: (i) => {
      const b = netValue(samples.blocks[i]).cidr;
      return run(`prefix_length > 16 AND CAST(HOST(net_block) AS inet) BETWEEN $1::inet AND $2::inet`, [
        formatAddress({ family: 4, hex: b.network }),
        formatAddress({ family: 4, hex: b.broadcast }),
      ]);
    },
  };
}

interface Result {
  kind: string;
  label: string;
  loadSec: number;
  rows: number;
  lines: [string, Stat][];
  plans: Record<string, string>;
}

/** The index (or scan) the database picks for a compiled plan, in one line. */
async function planLine(d: SqlDriver, storage: SqlStorage, plan: Plan): Promise<string> {
  const e = (await storage.explain('prefix', plan)) as { database_plan: unknown };
  const text = JSON.stringify(e.database_plan);
  // PostgreSQL plans are JSON; MariaDB's may stay text (raw bytes of binary parameters).
  const field = (k: string) => new RegExp(`\\\\?"${k}\\\\?":\\s*\\\\?"([^"\\\\]+)`, 'g');
  const names = [...new Set([...text.matchAll(field('(?:Index Name|key)'))].map((m) => m[1]))];
  const kinds = [...new Set([...text.matchAll(field('(?:Node Type|access_type)'))].map((m) => m[1]))];
  void d;
  return `${kinds.join(' > ')}${names.length ? ` using ${names.join(', ')}` : ''}`;
}

async function bench(kind: TestDbKind): Promise<Result | null> {
  const db = await freshDatabase(kind);
  if (!db) return null;
  const driver: SqlDriver = testDbDriver(kind) === 'postgres' ? new PgDriver(db.url) : new MysqlDriver(db.url);
  const storage = new SqlStorage(driver);
  try {
    await storage.open();
    const label = storage.dialect.label;
    seed = 0x9e3779b9;
    const t0 = performance.now();
    for (let i = 0; i < ROWS; i += BATCH) {
      const ops: WriteOp[] = [];
      for (let k = i; k < Math.min(ROWS, i + BATCH); k++)
        ops.push({ op: 'create', resource: 'prefix', row: prefixRow(k) });
      await storage.apply(ops, { log: false });
      if ((i / BATCH) % 10 === 0)
        process.stdout.write(`\r  ${label}: loaded ${Math.min(ROWS, i + BATCH).toLocaleString('en')} rows`);
    }
    const loadSec = (performance.now() - t0) / 1000;
    process.stdout.write(`\r  ${label}: loaded ${ROWS.toLocaleString('en')} rows in ${loadSec.toFixed(1)} s\n`);
    await driver.query(kind === 'postgres' ? 'VACUUM (ANALYZE) prefix' : 'ANALYZE TABLE prefix');
    if (KEEP) console.log(`  ${label}: kept at ${db.url}`);
    if (LOAD_ONLY) return { kind, label, loadSec, rows: ROWS, lines: [], plans: {} };

    const hostPlan = (i: number) => netValuePlan('network', 'net_host', netValue(samples.hosts[i]));
    const containedPlan = (i: number) => netValuePlan('network', 'net_contained', netValue(samples.blocks[i]));
    const lines: [string, Stat][] = [];
    lines.push([
      'net_host (Storage.find)',
      await measure(async (i) => (await storage.find('prefix', hostPlan(i), PAGE)).count),
    ]);
    lines.push([
      'net_contained /16 (Storage.find)',
      await measure(async (i) => (await storage.find('prefix', containedPlan(i), PAGE)).count),
    ]);
    if (kind === 'postgres') {
      const nb = nautobotForm(driver);
      lines.push([
        `net_host (Nautobot SQL form, ${SCAN_QUERIES} queries)`,
        await measure(nb.net_host, SCAN_QUERIES, 2),
      ]);
      lines.push([
        `net_contained /16 (Nautobot SQL form, ${SCAN_QUERIES} queries)`,
        await measure(nb.net_contained, SCAN_QUERIES, 2),
      ]);
    }
    const plans = {
      net_host: await planLine(driver, storage, hostPlan(0)),
      net_contained: await planLine(driver, storage, containedPlan(0)),
    };
    return { kind, label, loadSec, rows: ROWS, lines, plans };
  } finally {
    await storage.close().catch(() => undefined);
    if (!KEEP) await db.drop().catch(() => undefined);
  }
}

function report(results: Result[]): string {
  const out: string[] = [];
  out.push(
    `${ROWS.toLocaleString('en')} random IPv4 prefixes (/8–/32), ${QUERIES} queries per line after ${WARMUP} ` +
      `warm-up, one client, sequential.`,
  );
  out.push(
    'Latency is client-side per Storage.find: the first page of 50 (ordered by network, prefix_length) and ' +
      'the COUNT (PostgreSQL: page first, COUNT only when the page is full; MySQL: both at once on two ' +
      'connections).',
  );
  out.push('');
  out.push('| database | lookup | median ms | p95 ms | p99 ms | mean matches |');
  out.push('|---|---|---:|---:|---:|---:|');
  for (const r of results)
    for (const [name, s] of r.lines)
      out.push(
        `| ${r.label} | ${name} | ${s.median.toFixed(3)} | ${s.p95.toFixed(3)} | ${s.p99.toFixed(3)} | ` +
          `${s.meanCount.toFixed(1)} |`,
      );
  out.push('');
  out.push('| database | load (Storage.apply, 20,000-row batches) | net_host plan | net_contained plan |');
  out.push('|---|---:|---|---|');
  for (const r of results)
    out.push(
      `| ${r.label} | ${r.loadSec.toFixed(1)} s (${Math.round(r.rows / r.loadSec).toLocaleString('en')} ` +
        `rows/s) | ${r.plans.net_host} | ${r.plans.net_contained} |`,
    );
  return out.join('\n');
}

async function main(): Promise<void> {
  const results: Result[] = [];
  for (const kind of TEST_DB_KINDS) {
    if (ONLY && ONLY !== kind) continue;
    try {
      const r = await bench(kind);
      if (r) results.push(r);
      else console.log(`  ${kind}: skipped (no URL)`);
    } catch (e) {
      console.log(`  ${kind}: skipped (${(e as Error).message.split('\n')[0]})`);
    }
  }
  console.log('\n' + report(results));
}

await main();
