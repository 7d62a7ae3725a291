// `npm run bench:inventory [-- --devices 10000] [--vms 10000] [--backends memory,postgres]`: how long
// Ansible's dynamic inventory (`ansible-inventory --list` through the netbox.netbox.nb_inventory
// plugin of Debian's ansible) takes over that many devices and virtual machines, each with a site,
// location, rack, role, platform, tenant, cluster (VMs) and a primary IPv4, and how many requests the
// plugin made, then the same run against the answers a proxy kept (the plugin's own share, with no
// server behind). The rows are written straight into the store (complete rows, no change log); the
// server runs in this process, the plugin in its own. Writes bench/results/<date>-inventory.json.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULTS, type Config } from '../server/config/defaults.js';
import { start } from '../server/start.js';
import { fullRow } from './full-row.js';
import type { Row, WriteOp } from '../storage/types.js';
import { sqlBackends } from './sql-backends.js';
import { backendsFlag } from './flags.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { writeResults } from './results-file.js';
import { recordingProxy } from './recording-proxy.js';
import type { InventoryRow } from './results-shapes.js';

export const INVENTORY_CLI: CliSpec = {
  command: 'npm run bench:inventory --',
  summary:
    'ansible-inventory --list through netbox.netbox.nb_inventory over N devices and N virtual machines: the ' +
    "run's time and the requests the plugin made, per backend.",
  flags: [
    { name: 'devices', type: 'integer', min: 0, default: '10000', help: 'devices written into the store' },
    { name: 'vms', type: 'integer', min: 0, default: '10000', help: 'virtual machines written into the store' },
    backendsFlag('memory,postgres'),
    { name: 'serve', type: 'flag', help: 'keep the loaded server up (for profiling the plugin by hand)' },
  ],
};
const args = argsOrExit(INVENTORY_CLI);
const DEVICES = args.number('devices');
const VMS = args.number('vms');
const wanted = new Set(args.list('backends'));
const KEY = 'bench-inventory-key-0123456789';

const order: string[] = [];
/** Deterministic ids: the resource's number, then a counter. */
const idOf = (name: string, i: number): string => {
  if (!order.includes(name)) order.push(name);
  const prefix = (order.indexOf(name) + 1).toString(16).padStart(8, '0');
  return `${prefix}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
};

/** A complete row (bench/full-row.ts). */
const row = (name: string, i: number, body: Record<string, unknown>): Row => fullRow(name, idOf(name, i), body);

const SITES = 100,
  RACKS_PER_SITE = 5,
  CLUSTERS = 50;
const batch = (name: string, rows: Row[]): WriteOp[][] => {
  const out: WriteOp[][] = [];
  for (let i = 0; i < rows.length; i += 1000)
    out.push(rows.slice(i, i + 1000).map((r) => ({ op: 'create', resource: name, row: r })));
  return out;
};
const n = (k: number) => Array.from({ length: k }, (_, i) => i);

/** The dataset, in dependency order, as batches of creates (ids are numbered in the order resources appear). */
function* dataset(): Generator<WriteOp[]> {
  yield* placeBatches();
  yield* hostBatches();
}

/** Tenants, sites with a hall and racks, and what devices and clusters are. */
function* placeBatches(): Generator<WriteOp[]> {
  yield* batch('tenant_group', [row('tenant_group', 0, { name: 'Customers', slug: 'customers' })]);
  yield* batch(
    'tenant',
    n(10).map((i) => row('tenant', i, { name: `Tenant ${i}`, slug: `tenant-${i}`, group: idOf('tenant_group', 0) })),
  );
  yield* batch('site_group', [row('site_group', 0, { name: 'All', slug: 'all' })]);
  yield* batch(
    'site',
    n(SITES).map((i) =>
      row('site', i, {
        name: `site-${i}`,
        slug: `site-${i}`,
        group: idOf('site_group', 0),
        tenant: idOf('tenant', i % 10),
      }),
    ),
  );
  yield* batch(
    'location',
    n(SITES).map((i) => row('location', i, { name: 'Hall', slug: `site-${i}-hall`, site: idOf('site', i) })),
  );
  yield* batch('rack_role', [row('rack_role', 0, { name: 'Network', slug: 'network' })]);
  yield* batch(
    'rack',
    n(SITES * RACKS_PER_SITE).map((i) =>
      row('rack', i, {
        name: `rack-${i}`,
        site: idOf('site', Math.floor(i / RACKS_PER_SITE)),
        location: idOf('location', Math.floor(i / RACKS_PER_SITE)),
        role: idOf('rack_role', 0),
      }),
    ),
  );
  yield* batch('manufacturer', [row('manufacturer', 0, { name: 'Acme', slug: 'acme' })]);
  yield* batch('device_type', [
    row('device_type', 0, { manufacturer: idOf('manufacturer', 0), model: 'Box', slug: 'box' }),
  ]);
  yield* batch(
    'device_role',
    n(3).map((i) => row('device_role', i, { name: `Role ${i}`, slug: `role-${i}` })),
  );
  yield* batch(
    'platform',
    n(4).map((i) => row('platform', i, { name: `Platform ${i}`, slug: `platform-${i}` })),
  );
  yield* batch('cluster_type', [row('cluster_type', 0, { name: 'Proxmox', slug: 'proxmox' })]);
  yield* batch(
    'cluster',
    n(CLUSTERS).map((i) =>
      row('cluster', i, { name: `cluster-${i}`, type: idOf('cluster_type', 0), site: idOf('site', i % SITES) }),
    ),
  );
}

/** Devices and virtual machines, each with its primary IPv4. */
function* hostBatches(): Generator<WriteOp[]> {
  // Addresses first: devices and VMs are written with their primary IP set.
  yield* batch(
    'ip_address',
    n(DEVICES + VMS).map((i) =>
      row('ip_address', i, { address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/16`, status: 'active' }),
    ),
  );
  yield* batch(
    'device',
    n(DEVICES).map((i) => {
      const rack = i % (SITES * RACKS_PER_SITE),
        site = Math.floor(rack / RACKS_PER_SITE);
      return row('device', i, {
        name: `dev-${i}`,
        site: idOf('site', site),
        location: idOf('location', site),
        rack: idOf('rack', rack),
        position: 1 + (i % 40),
        device_type: idOf('device_type', 0),
        role: idOf('device_role', i % 3),
        platform: idOf('platform', i % 4),
        tenant: idOf('tenant', i % 10),
        status: 'active',
        primary_ip4: idOf('ip_address', i),
      });
    }),
  );
  yield* batch(
    'virtual_machine',
    n(VMS).map((i) =>
      row('virtual_machine', i, {
        name: `vm-${i}`,
        cluster: idOf('cluster', i % CLUSTERS),
        site: idOf('site', (i % CLUSTERS) % SITES),
        role: idOf('device_role', i % 3),
        platform: idOf('platform', i % 4),
        tenant: idOf('tenant', i % 10),
        status: 'active',
        vcpus: 2,
        memory: 4096,
        disk: 40,
        primary_ip4: idOf('ip_address', DEVICES + i),
      }),
    ),
  );
}

const CONFIG = (url: string) =>
  [
    'plugin: netbox.netbox.nb_inventory',
    `api_endpoint: ${url}`,
    `token: ${KEY}`,
    'validate_certs: false',
    'group_by: [sites, device_roles, platforms, tenants, racks, location, cluster]',
    'compose:',
    '  nb_site: site.slug',
    '',
  ].join('\n');

const rows: InventoryRow[] = [];
const backends: { name: string; url: string; drop(): Promise<void> }[] = [];
if (wanted.has('memory')) backends.push({ name: 'memory', url: 'memory:', drop: async () => {} });
backends.push(...(await sqlBackends(wanted)));
for (const b of backends) {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-inventory-bench-'));
  const srv = await start(
    { ...DEFAULTS, storage: b.url, port: 0, demoData: false, tokens: [{ key: KEY, permissions: ['*'] }] } as Config,
    { info: () => {}, warn: console.warn, error: console.error },
  );
  try {
    const t0 = performance.now();
    for (const ops of dataset()) await srv.ctx.storage.apply(ops, { log: false });
    await srv.ctx.storage.afterBulkLoad();
    const loadS = +((performance.now() - t0) / 1000).toFixed(1);
    console.log(`${b.name}: ${DEVICES} devices, ${VMS} virtual machines loaded in ${loadS} s`);
    // The plugin talks to the server through a proxy that keeps the answers; run again against the
    // answers alone, it shows the plugin's own share (no server could make the run faster than that).
    const proxy = await recordingProxy(srv.url);
    const file = path.join(temp, 'netbox.yml');
    fs.writeFileSync(file, CONFIG(proxy.url));
    if (args.flag('serve')) {
      // keep serving, for profiling the plugin by hand
      console.log(`serving ${proxy.url}; plugin configuration in ${file} (ANSIBLE_LOCAL_TEMP=${temp})`);
      await new Promise(() => {});
    }
    const run = async (): Promise<{ seconds: number; stdout: string }> => {
      const local = fs.mkdtempSync(path.join(temp, 'local-')); // the plugin caches the OpenAPI document there
      const env = { ...process.env, ANSIBLE_LOCAL_TEMP: local, ANSIBLE_INVENTORY_UNPARSED_FAILED: '1' };
      const t = performance.now();
      const r = await promisify(execFile)('ansible-inventory', ['-i', file, '--list', '-v'], {
        env,
        encoding: 'utf8',
        maxBuffer: 1 << 30,
      });
      return { seconds: (performance.now() - t) / 1000, stdout: r.stdout };
    };
    const r = await run();
    const seconds = r.seconds;
    proxy.replay();
    const alone = await run();
    await proxy.close();
    if (proxy.missed.length)
      throw new Error(`the replay was asked what the run never asked: ${proxy.missed.join(', ')}`);
    const fetched = [...r.stdout.matchAll(/^Fetching: (\S+)/gm)].map((x) => x[1].replace(proxy.url, srv.url));
    const requests = fetched.length;
    // The same requests again, one after the other: how much of the run the server's answers take.
    const t2 = performance.now();
    const slowest: [number, string][] = [];
    for (const u of fetched) {
      const t = performance.now();
      await (await fetch(u, { headers: { Authorization: `Token ${KEY}` } })).arrayBuffer();
      slowest.push([performance.now() - t, u]);
    }
    const serverSeconds = (performance.now() - t2) / 1000;
    slowest.sort((x, y) => y[0] - x[0]);
    console.log(
      `  server: ${serverSeconds.toFixed(1)} s for the ${requests} requests; slowest: ${slowest
        .slice(0, 3)
        .map(([ms, u]) => `${Math.round(ms)} ms ${u.replace(srv.url, '')}`)
        .join(', ')}`,
    );
    const inventoryOf = (out: string) => out.slice(out.indexOf('{'));
    if (inventoryOf(alone.stdout) !== inventoryOf(r.stdout))
      throw new Error(`${b.name}: the run against the kept answers listed another inventory`);
    const hosts = Object.keys(JSON.parse(inventoryOf(r.stdout))._meta.hostvars).length;
    if (hosts !== DEVICES + VMS) throw new Error(`${b.name}: the inventory lists ${hosts} hosts, not ${DEVICES + VMS}`);
    rows.push({
      backend: b.name,
      devices: DEVICES,
      vms: VMS,
      load_s: loadS,
      seconds: +seconds.toFixed(1),
      requests,
      server_seconds: +serverSeconds.toFixed(2),
      plugin_alone_seconds: +alone.seconds.toFixed(1),
    });
    console.log(
      `${b.name}: ansible-inventory --list ${seconds.toFixed(1)} s (${alone.seconds.toFixed(1)} s against ` +
        `the kept answers alone), ${requests} requests, replayed in ${serverSeconds.toFixed(2)} s`,
    );
  } finally {
    await srv.close();
    await b.drop();
    fs.rmSync(temp, { recursive: true, force: true });
  }
}
writeResults('inventory', { rows });
