// `npm run bench:csv [-- --prefixes 1000000] [--import-rows 100000] [--backends memory,postgres,mysql]
//   [--cases export,import,page] [--import-mode auto|foreground|background]`: #38's speed targets over real
// HTTP. Per backend a server (bench/http-server.ts) runs in a process of its own on a real socket with the
// bench dataset of `prefixes` prefixes and no page cache; this process is its client:
// - export: `GET /api/ipam/prefixes/?format=csv` read whole (time to the first byte, total time, rows), the
//   server's RSS (/proc/<pid>/status) sampled every 20 ms while it runs;
// - page: a page of 50 fetched one at a time, alone and then while a second export runs (p50 / p99);
// - import: `POST` of an `import-rows`-row prefix CSV; `?background=true` first when the mode allows it (a 202
//   job is followed to its end), else in the foreground with IMPORT_MAX_ROWS raised.
// Writes bench/results/<date>-csv.json (the sizes and the load average are in it; the doc prints them).
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { backendsFlag, casesFlag, prefixesFlag } from './flags.js';
import { spread } from './measure.js';
import { writeResults } from './results-file.js';
import type { CsvExport, CsvImport, CsvPage } from './results-shapes.js';
import { startBenchServer, stopBenchServer, type BenchServer } from './server-process.js';
import { sqlBackends } from './sql-backends.js';

const CASES = ['export', 'import', 'page'] as const;
const SPEC: CliSpec = {
  command: 'npm run bench:csv --',
  summary: "CSV export, import and a page of 50 during an export, over HTTP, per backend, against #38's targets.",
  flags: [
    prefixesFlag('1000000'),
    { name: 'import-rows', type: 'integer', min: 1, default: '100000', help: 'rows of the imported CSV' },
    backendsFlag('memory,postgres,mysql'),
    casesFlag(CASES),
    {
      name: 'import-mode',
      type: 'string',
      choices: ['auto', 'foreground', 'background'],
      default: 'auto',
      help: 'auto: a background job where the server takes ?background=true, else in the foreground',
    },
  ],
};
const args = argsOrExit(SPEC);
const cases = new Set(args.list('cases'));
const PREFIXES = args.number('prefixes');
const IMPORT_ROWS = args.number('import-rows');

/** #38's targets in ms: export of 1M rows, import of 100k (scaled to the sizes run); RSS, first byte. */
const EXPORT_MS: Record<string, number> = { memory: 10_000, postgres: 30_000, mysql: 30_000, mysql9: 30_000 };
const IMPORT_MS: Record<string, number> = { memory: 10_000, postgres: 40_000, mysql: 40_000, mysql9: 40_000 };
const scaled = (ms: number, n: number, at: number) => Math.round((ms * n) / at);
const PAGE_ALONE_MS = 3000;

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const r1 = (x: number) => Math.round(x * 10) / 10;

/** The server process's resident set, in bytes. */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

const auth = (s: BenchServer) => ({ Authorization: `Token ${s.key}` });

/** One export read whole: first byte, total, rows (lines less the header), bytes, RSS growth. */
async function exportOnce(s: BenchServer, backend: string): Promise<CsvExport> {
  const pid = s.child.pid!;
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  const t0 = performance.now();
  let first = 0,
    lines = 0,
    bytes = 0;
  try {
    const res = await fetch(`${s.url}/api/ipam/prefixes/?format=csv`, { headers: auth(s) });
    if (res.status !== 200) throw new Error(`export answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!first) first = performance.now() - t0;
      bytes += value.length;
      for (let i = value.indexOf(10); i >= 0; i = value.indexOf(10, i + 1)) lines++;
    }
  } finally {
    clearInterval(sampler);
  }
  const total = performance.now() - t0;
  peak = Math.max(peak, rssOf(pid));
  return {
    backend,
    rows: lines - 1,
    bytes,
    first_byte_ms: r1(first),
    total_ms: Math.round(total),
    rss_before_mb: mb(before),
    rss_growth_mb: mb(peak - before),
    target_ms: scaled(EXPORT_MS[backend], PREFIXES, 1_000_000),
  };
}

/** Pages of 50 one at a time (offsets 0 to 950 in turn) until `until()` says stop: each one's ms. */
async function pages(s: BenchServer, until: () => boolean): Promise<number[]> {
  const out: number[] = [];
  for (let k = 0; !until(); k++) {
    const t0 = performance.now();
    const url = `${s.url}/api/ipam/prefixes/?limit=50&offset=${(k % 20) * 50}`;
    // A kept-alive connection the server closed meanwhile resets once: the page is asked again.
    const res = await fetch(url, { headers: auth(s) }).catch(() => fetch(url, { headers: auth(s) }));
    if (res.status !== 200) throw new Error(`page answered ${res.status}`);
    await res.arrayBuffer();
    out.push(performance.now() - t0);
  }
  return out;
}

/** A page of 50 alone for a while, then while an export runs. */
async function pageCase(s: BenchServer, backend: string): Promise<CsvPage> {
  await pages(
    s,
    (() => {
      const end = performance.now() + 300;
      return () => performance.now() > end;
    })(),
  ); // warm-up
  const endAlone = performance.now() + PAGE_ALONE_MS;
  const alone = await pages(s, () => performance.now() > endAlone);
  let exporting = true;
  const exp = exportOnce(s, backend).finally(() => (exporting = false));
  const during = await pages(s, () => !exporting);
  await exp;
  return {
    backend,
    alone: spread(alone),
    during_export: spread(during),
    alone_samples: alone.length,
    during_samples: during.length,
  };
}

/** `n` new prefixes (IPv6 /64s outside the dataset's space) as a CSV. */
function importCsv(n: number): string {
  const lines = ['prefix,status,description'];
  for (let i = 0; i < n; i++)
    lines.push(`2001:db8:${((i >>> 16) & 0xffff).toString(16)}:${(i & 0xffff).toString(16)}::/64,active,csv ${i}`);
  return lines.join('\n') + '\n';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Follows a background import's job to its end (throws when it failed). */
async function jobDone(s: BenchServer, job: { id?: unknown; url?: unknown }): Promise<void> {
  const url = typeof job.url === 'string' ? job.url : `${s.url}/api/core/jobs/${String(job.id)}/`;
  for (;;) {
    const res = await fetch(url, { headers: auth(s) });
    const body = (await res.json()) as { status?: unknown };
    const status = String((body.status as { value?: unknown })?.value ?? body.status);
    if (status === 'completed') return;
    if (['failed', 'errored'].includes(status)) throw new Error(`import job ${status}: ${JSON.stringify(body)}`);
    await sleep(100);
  }
}

async function importCase(s: BenchServer, backend: string): Promise<CsvImport> {
  const body = importCsv(IMPORT_ROWS);
  const mode = args.string('import-mode');
  const post = (query: string) =>
    fetch(`${s.url}/api/ipam/prefixes/${query}`, {
      method: 'POST',
      headers: { ...auth(s), 'Content-Type': 'text/csv' },
      body,
    });
  const t0 = performance.now();
  let res = await post(mode === 'foreground' ? '' : '?background=true');
  let ran: CsvImport['mode'] = 'foreground';
  if (res.status === 202) {
    await jobDone(s, (await res.json()) as { id?: unknown; url?: unknown });
    ran = 'background';
  } else if (res.status === 400 && mode === 'auto') {
    res = await post(''); // a server without background imports
  }
  if (ran === 'foreground' && res.status !== 200)
    throw new Error(`import answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const total = performance.now() - t0;
  return {
    backend,
    rows: IMPORT_ROWS,
    mode: ran,
    total_ms: Math.round(total),
    target_ms: scaled(IMPORT_MS[backend], IMPORT_ROWS, 100_000),
  };
}

interface Found {
  exports: CsvExport[];
  imports: CsvImport[];
  pages: CsvPage[];
}

/** A case, its failure kept as an error line instead of stopping the bench. */
async function tried<T>(what: string, fn: () => Promise<T>, failed: (error: string) => T): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const error = (e as Error).message.slice(0, 300);
    console.log(`  ${what}: failed: ${error}`);
    return failed(error);
  }
}

async function onBackend(backend: string, url: string, found: Found): Promise<void> {
  const t0 = performance.now();
  const s = await startBenchServer({
    STORAGE_URL: url,
    BENCH_PREFIXES: String(PREFIXES),
    PAGE_CACHE_MB: '0',
    IMPORT_MAX_ROWS: String(IMPORT_ROWS + 1),
  });
  console.log(`  ${backend}: server with ${PREFIXES} prefixes up in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  try {
    if (cases.has('export')) {
      const e = await tried(
        `${backend} export`,
        () => exportOnce(s, backend),
        (error) => ({
          ...failedExport(backend),
          error,
        }),
      );
      found.exports.push(e);
      console.log(
        `  ${backend} export: ${e.rows} rows, ${mb(e.bytes)} MB, first byte ${e.first_byte_ms} ms, ` +
          `${e.total_ms} ms (target ${e.target_ms} ms), RSS ${e.rss_before_mb} MB + ${e.rss_growth_mb} MB`,
      );
    }
    if (cases.has('page')) {
      const p = await tried(
        `${backend} page`,
        () => pageCase(s, backend),
        () => null,
      );
      if (p) found.pages.push(p);
      if (p)
        console.log(
          `  ${backend} page of 50: alone p50 ${p.alone.p50} / p99 ${p.alone.p99} ms (${p.alone_samples}); ` +
            `during an export p50 ${p.during_export.p50} / p99 ${p.during_export.p99} ms (${p.during_samples})`,
        );
    }
    if (cases.has('import')) {
      const i = await tried(
        `${backend} import`,
        () => importCase(s, backend),
        (error) => ({
          backend,
          rows: IMPORT_ROWS,
          mode: 'foreground' as const,
          total_ms: 0,
          target_ms: 0,
          error,
        }),
      );
      found.imports.push(i);
      console.log(`  ${backend} import (${i.mode}): ${i.rows} rows in ${i.total_ms} ms (target ${i.target_ms} ms)`);
    }
  } finally {
    await stopBenchServer(s);
  }
}

const failedExport = (backend: string): CsvExport => ({
  backend,
  rows: 0,
  bytes: 0,
  first_byte_ms: 0,
  total_ms: 0,
  rss_before_mb: 0,
  rss_growth_mb: 0,
  target_ms: 0,
});

async function main(): Promise<void> {
  const found: Found = { exports: [], imports: [], pages: [] };
  const wanted = new Set(args.list('backends'));
  if (wanted.has('memory')) await onBackend('memory', 'memory:', found);
  for (const b of await sqlBackends(wanted))
    try {
      await onBackend(b.name, b.url, found);
    } finally {
      await b.drop();
    }
  writeResults('csv', { prefixes: PREFIXES, import_rows: IMPORT_ROWS, ...found });
}

await main();
