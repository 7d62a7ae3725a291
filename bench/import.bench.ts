// `npm run bench:import`: how long `import:netbox` takes on a large NetBox database. The source is
// NetBox's demo database (../shared/netbox-demo, NetBox 4.2) with N prefixes and N IP addresses more,
// made with generate_series; it is imported into memory and into a fresh PostgreSQL database
// (BENCH_POSTGRES_URL or TEST_POSTGRES_URL names the server). Writes bench/results/<date>-import.json.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import pg from 'pg';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { importNetbox } from '../storage/netbox-import/import-netbox.js';
import { NetboxSource } from '../storage/netbox-import/source.js';
import { claimTarget } from '../storage/netbox-import/writer.js';
import { createStorage } from '../storage/open-storage.js';
import type { Storage } from '../storage/types.js';
import { writeResults } from './results-file.js';

const SPEC: CliSpec = {
  command: 'npm run bench:import --',
  summary: 'Times import:netbox of a NetBox database with N prefixes and N IP addresses (generate_series).',
  flags: [
    { name: 'rows', type: 'integer', default: '1000000', min: 1, help: 'prefixes, and as many IP addresses' },
    { name: 'targets', type: 'list', default: 'memory,postgres', choices: ['memory', 'postgres'], help: 'stores' },
    { name: 'demo', type: 'string', default: '/work/shared/netbox-demo/netbox-demo-v4.2.sql', help: 'the demo SQL' },
  ],
  env: [{ name: 'BENCH_POSTGRES_URL', help: 'the PostgreSQL server (else TEST_POSTGRES_URL)' }],
};

async function sql(url: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

function on(base: string, name: string): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The demo plus `n` prefixes (/28s of 10/8 and on) and `n` addresses (hosts of 100/8 and on). */
async function makeSource(base: string, demo: string, n: number): Promise<string> {
  const name = `bench_nb_${randomBytes(4).toString('hex')}`;
  await sql(base, `CREATE DATABASE "${name}"`);
  const url = on(base, name);
  await promisify(execFile)('psql', ['-q', '-d', url, '-f', demo], { maxBuffer: 64 * 1024 * 1024 });
  await sql(
    url,
    `INSERT INTO ipam_prefix (id, created, last_updated, custom_field_data, prefix, status, is_pool, description,
       _children, _depth, mark_utilized, comments)
     SELECT 100000 + i, now(), now(), '{}', set_masklen('10.0.0.0'::inet + i::bigint * 16, 28)::cidr, 'active',
       false, 'p' || i, 0, 0, false, '' FROM generate_series(1, ${n}) i`,
  );
  await sql(
    url,
    `INSERT INTO ipam_ipaddress (id, created, last_updated, custom_field_data, address, status, role, dns_name,
       description, comments)
     SELECT 100000 + i, now(), now(), '{}', set_masklen('100.0.0.0'::inet + i::bigint, 24), 'active', '', '',
       '', '' FROM generate_series(1, ${n}) i`,
  );
  await sql(url, 'ANALYZE');
  return url;
}

/** Wall seconds, and this process's CPU seconds (the machine may be shared: the CPU time says what the import cost). */
async function timeImport(from: string, target: Storage): Promise<{ wall: number; cpu: number }> {
  const src = await NetboxSource.open(from);
  try {
    const claimed = await claimTarget(target, 'target');
    const [t0, c0] = [performance.now(), process.cpuUsage()];
    await importNetbox(src, { target: claimed, progress: (l) => console.log(`  ${l}`) });
    const c = process.cpuUsage(c0);
    return { wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
  } finally {
    await src.close();
  }
}

async function main(): Promise<void> {
  const args = argsOrExit(SPEC);
  const base = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL;
  if (!base) throw new Error('set BENCH_POSTGRES_URL (or TEST_POSTGRES_URL) to a PostgreSQL server');
  if (!fs.existsSync(args.string('demo'))) throw new Error(`no demo SQL at ${args.string('demo')}`);
  const n = args.number('rows');
  console.log(`making the source: the demo + ${n} prefixes + ${n} addresses`);
  const from = await makeSource(base, args.string('demo'), n);
  const results: Record<string, number | string> = {};
  try {
    for (const kind of args.list('targets')) {
      const db = kind === 'postgres' ? `bench_imp_${randomBytes(4).toString('hex')}` : null;
      if (db) await sql(base, `CREATE DATABASE "${db}"`);
      const target = await createStorage(db ? on(base, db) : 'memory:', { idStyle: 'integer' });
      await target.open();
      try {
        console.log(`into ${kind}:`);
        const { wall, cpu } = await timeImport(from, target);
        results[kind] = Number(wall.toFixed(1));
        results[`${kind}_cpu`] = Number(cpu.toFixed(1));
        console.log(`into ${kind}: ${wall.toFixed(1)} s (${cpu.toFixed(1)} s of CPU in this process)`);
      } catch (e) {
        results[kind] = `failed: ${(e as Error).message.split('\n')[0]}`;
        console.log(`into ${kind}: ${results[kind]}`);
      } finally {
        await target.close();
        if (db) await sql(base, `DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
      }
    }
  } finally {
    await sql(base, `DROP DATABASE IF EXISTS "${new URL(from).pathname.slice(1)}" WITH (FORCE)`);
  }
  writeResults('import', { prefixes: n, addresses: n, seconds: results });
}

await main();
