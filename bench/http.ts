// `npm run bench:http [-- --prefixes 1000000] [--backends memory,postgres] [--connections 32]
// [--pipelining 1] [--duration 10]`: requests/s and p99 of
// representative list queries with autocannon, the server in its own process.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { replaceSection } from '../server/tools/doc-sections.js';
import { machineInfo } from './machine.js';
import { sqlBackends } from './sql-backends.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => { const i = args.indexOf(`--${name}`); return i >= 0 && args[i + 1] ? args[i + 1] : dflt; };
const prefixes = Number(opt('prefixes', '1000000'));
const wanted = new Set(opt('backends', 'memory,postgres').split(','));
const duration = Number(opt('duration', '10'));
const connections = Number(opt('connections', '32'));
// Requests in flight per connection: above 1 the load generator spends far less CPU per request,
// which matters when it shares the server's cores.
const pipelining = Number(opt('pipelining', '1'));

const QUERIES = [
  ['net_host, page of 50', '/api/ipam/prefixes/?network__net_host=10.1.2.3&limit=50'],
  ['net_contained + status, page of 50', '/api/ipam/prefixes/?network__net_contained=10.0.0.0/8&status=active&limit=50'],
  ['tag + family, page of 50', '/api/ipam/prefixes/?tag=core&network__family=4&limit=50'],
  ['sites by region and name, page of 50', '/api/dcim/sites/?region=region-0&name__isw=site-00&limit=50'],
] as const;

interface Row { backend: string; query: string; rps: number; p50_ms: number; p99_ms: number; errors: number }

async function startServer(storageUrl: string): Promise<{ child: ChildProcess; url: string; key: string }> {
  // The flag npm start uses: a larger young generation, fewer collections under load.
  const child = spawn(process.execPath, ['--max-semi-space-size=64', new URL('./http-server.js', import.meta.url).pathname], { env: { ...process.env, STORAGE_URL: storageUrl, BENCH_PREFIXES: String(prefixes) }, stdio: ['ignore', 'pipe', 'inherit'] });
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

async function load(url: string, key: string, path: string): Promise<autocannon.Result> {
  return autocannon({ url: url + path, connections, pipelining, duration, headers: { Authorization: `Token ${key}` } });
}

const rows: Row[] = [];
const backends: { name: string; url: string; drop(): Promise<void> }[] = [];
if (wanted.has('memory')) backends.push({ name: 'memory', url: 'memory:', drop: async () => {} });
backends.push(...(await sqlBackends(wanted)));
for (const b of backends) {
  console.log(`\n== ${b.name}: loading ${prefixes.toLocaleString()} prefixes`);
  const srv = await startServer(b.url);
  for (const [name, path] of QUERIES) {
    await load(srv.url, srv.key, path); // warm-up pass
    const r = await load(srv.url, srv.key, path);
    rows.push({ backend: b.name, query: name, rps: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, errors: r.errors + r.non2xx });
    console.log(`  ${name.padEnd(40)} ${String(Math.round(r.requests.average)).padStart(7)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  errors ${r.errors + r.non2xx}`);
  }
  srv.child.kill('SIGTERM');
  await b.drop();
}

const m = machineInfo();
const md = [
  `Taken on ${m.date}: ${m.cores} cores (${m.cpu}), ${m.memory_gib} GiB, Node ${m.node}; ${prefixes.toLocaleString('en-US')} prefixes; autocannon, ${connections} connections, pipelining ${pipelining}, ${duration} s per query after a warm-up pass; server and load generator share the machine.`,
  '', '| backend | query | requests/s | p50 | p99 | errors |', '|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.backend} | ${r.query} | ${r.rps} | ${r.p50_ms} ms | ${r.p99_ms} ms | ${r.errors} |`),
];
for (const [name] of QUERIES) {
  const mem = rows.find((r) => r.backend === 'memory' && r.query === name), pg = rows.find((r) => r.backend === 'postgres' && r.query === name);
  if (mem && pg) md.push(`- ${name}: memory serves ${(mem.rps / pg.rps).toFixed(1)}× the PostgreSQL-backed server's requests/s.`);
}
fs.mkdirSync(new URL('../../bench/results/', import.meta.url), { recursive: true });
fs.writeFileSync(new URL(`../../bench/results/${String(m.date)}-http.json`, import.meta.url), JSON.stringify({ machine: m, prefixes, rows }, null, 1));
const doc = new URL('../../docs/benchmarks.md', import.meta.url);
fs.writeFileSync(doc, replaceSection(fs.readFileSync(doc, 'utf8'), 'http', md.join('\n')));
console.log('\nwrote docs/benchmarks.md (HTTP section)');
