// Single-object creates through one server process (#18 item 2: every write also writes its change
// record and takes a number from the counter): POST /api/dcim/sites/ with a new site per request,
// autocannon, 16 connections, on memory and each SQL backend; req/s, p50 and p99.
// Target on PostgreSQL: >= 600 creates/s with the log.
//
// Run:  npm run bench:writes [-- --seconds 10] [--connections 16] [--backends memory,postgres,mysql,mysql9]
// Writes bench/results/<date>-writes.json.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { sqlBackends } from './sql-backends.js';
import { backendsFlag, connectionsFlag, secondsFlag } from './flags.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { writeResults } from './results-file.js';
import type { WritesRow } from './results-shapes.js';

export const WRITES_CLI: CliSpec = {
  command: 'npm run bench:writes --',
  summary:
    'Single-object creates (POST /api/dcim/sites/) through one server process on each backend: req/s, p50 and p99.',
  flags: [
    secondsFlag('10', 'how long each backend is loaded'),
    connectionsFlag('16'),
    backendsFlag('memory,postgres,mysql,mysql9'),
  ],
};
const args = argsOrExit(WRITES_CLI);
const SECONDS = args.number('seconds');
const CONNECTIONS = args.number('connections');
const wanted = new Set(args.list('backends'));

async function startServer(storageUrl: string): Promise<{ child: ChildProcess; url: string; key: string }> {
  const child = spawn(
    process.execPath,
    ['--max-semi-space-size=64', new URL('./http-server.js', import.meta.url).pathname],
    { env: { ...process.env, STORAGE_URL: storageUrl, BENCH_PREFIXES: '0' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\S+) (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1], key: m[2] });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function creates(name: string, storageUrl: string): Promise<WritesRow> {
  const { child, url, key } = await startServer(storageUrl);
  try {
    let n = 0;
    const run = (seconds: number) =>
      autocannon({
        url: `${url}/api/dcim/sites/`,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            headers: { Authorization: `Token ${key}`, 'Content-Type': 'application/json' },
            setupRequest: (req) => {
              const i = n++;
              return {
                ...req,
                body: JSON.stringify({
                  name: `site-${process.pid}-${i}`,
                  slug: `site-${process.pid}-${i}`,
                  status: 'active',
                  facility: `F${i % 97}`,
                }),
              };
            },
          },
        ],
      });
    await run(2); // warm-up
    const r = await run(SECONDS);
    const bad = r.non2xx + r.errors;
    console.log(
      `  ${name.padEnd(8)} creates/s ${String(Math.round(r.requests.average)).padStart(6)}  p50 ` +
        `${r.latency.p50} ms  p99 ${r.latency.p99} ms${bad ? `  (${bad} failed)` : ''}`,
    );
    return {
      backend: name,
      rps: Math.round(r.requests.average),
      p50_ms: r.latency.p50,
      p99_ms: r.latency.p99,
      failed: bad,
    };
  } finally {
    // The database is dropped after the server has let go of it.
    await new Promise((res) => {
      child.once('exit', res);
      child.kill('SIGTERM');
    });
  }
}

console.log(`single-site creates, ${CONNECTIONS} connections, ${SECONDS} s (after a 2 s warm-up)`);
const rows: WritesRow[] = [];
if (wanted.has('memory')) rows.push(await creates('memory', 'memory:'));
for (const b of await sqlBackends(wanted)) {
  try {
    rows.push(await creates(b.name, b.url));
  } finally {
    await b.drop();
  }
}
writeResults('writes', { seconds: SECONDS, connections: CONNECTIONS, rows });
