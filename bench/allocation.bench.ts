// IP allocation (#17 item 3): the first free /24 in a /8 whose first 100,000 /26s are taken
// (NetBox #14026: over 30 s on a /8). Per backend: `search`, the free-space read of an allocation
// without a hint (Storage.coveredSpans over every child, then the first fit), the first allocation
// after the load (one call), and `allocate`, the whole allocation behind the POST (the lock, the
// read from the store's hint on SQL, the prefix created through the inventory service; each call
// takes the next /24). Targets: memory <= 1 ms, PostgreSQL <= 20 ms. Then the write cost: the load
// time, and single prefix creates (`create`: in address order, `create*`: at random places).
//
// Run:  npm run bench:allocation [-- --taken 100000] [--backends memory,postgres,mysql,mysql9]
// URLs: TEST_POSTGRES_URL / TEST_MYSQL_URL (MariaDB) / TEST_MYSQL9_URL (MySQL 9), default the local servers.
// Writes bench/results/<date>-allocation.json.
import { allocateBlocks, knownPart } from '../engine/allocation/free-space.js';
import { formatV4, parseCidr } from '../engine/net/ip.js';
import { resource } from '../engine/schema/registry.js';
import { createStorage } from '../storage/open-storage.js';
import { Allocation } from '../app/allocation.js';
import { Inventory } from '../app/inventory.js';
import type { Row, Storage, WriteOp } from '../storage/types.js';
import { measure, type Figure } from './measure.js';
import { sqlBackends } from './sql-backends.js';
import { backendsFlag } from './flags.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { writeResults } from './results-file.js';
import { prefixRow as newPrefixRow } from './prefix-rows.js';
import type { AllocationRow } from './results-shapes.js';

export const ALLOCATION_CLI: CliSpec = {
  command: 'npm run bench:allocation --',
  summary:
    'The first free /24 in a /8 whose first /26s are taken: the free-space search, the allocation behind the ' +
    'POST, and the write cost.',
  flags: [
    { name: 'taken', type: 'integer', min: 1, default: '100000', help: '/26s taken in the /8 before allocating' },
    backendsFlag('memory,postgres,mysql,mysql9'),
  ],
};
const args = argsOrExit(ALLOCATION_CLI);
const TAKEN = args.number('taken');
const wanted = new Set(args.list('backends'));
const PARENT = '10.0.0.0/8';
const BATCH = 5000;

const NOW = new Date().toISOString();
const prefixRow = (prefix: string): Row => newPrefixRow(prefix, NOW);

/** The parent /8 and the first TAKEN /26s in it, in batches. */
async function load(storage: Storage): Promise<Row> {
  const parent = prefixRow(PARENT);
  await storage.apply([{ op: 'create', resource: 'prefix', row: parent }], { log: false });
  const base = 10 * 2 ** 24;
  for (let start = 0; start < TAKEN; start += BATCH) {
    const ops: WriteOp[] = [];
    for (let i = start; i < Math.min(TAKEN, start + BATCH); i++)
      ops.push({ op: 'create', resource: 'prefix', row: prefixRow(`${formatV4(base + i * 64)}/26`) });
    await storage.apply(ops, { log: false });
  }
  await storage.afterBulkLoad();
  return parent;
}

/** What allocatePrefixes does under its lock before it writes: the free space, then the first fit. */
async function search(storage: Storage, parent: Row): Promise<string> {
  const c = parseCidr(parent.prefix as string)!;
  const block = { family: c.family, network: c.network, broadcast: c.broadcast, length: c.length };
  const span = { lo: BigInt(`0x${c.network}`), hi: BigInt(`0x${c.broadcast}`) };
  for (let max = 64; ; max *= 8) {
    const got = await storage.coveredSpans('prefix', block, max);
    const { within, used } = knownPart(span, got);
    const r = allocateBlocks(4, within, used, [24]);
    if ('blocks' in r) return formatV4(Number(r.blocks[0].network));
    if (got.complete) throw new Error('no room');
  }
}

async function bench(name: string, url: string): Promise<AllocationRow> {
  const storage = await createStorage(url);
  await storage.open();
  const t = performance.now();
  const parent = await load(storage);
  const loadMs = Math.round(performance.now() - t);
  console.log(`${name}: loaded ${TAKEN.toLocaleString()} /26s in ${loadMs} ms`);
  const first = await search(storage, parent);
  if (first !== formatV4(10 * 2 ** 24 + TAKEN * 64)) throw new Error(`${name}: first free /24 is ${first}`);
  const report = (what: string, f: Figure) => {
    console.log(
      `  ${name.padEnd(8)} ${what.padEnd(9)} median ${String(f.median_us).padStart(8)} µs  p99 ` +
        `${String(f.p99_us).padStart(8)} µs  ${f.ops_per_s} ops/s`,
    );
    return f;
  };
  const searched = report('search', await measure(() => search(storage, parent), { async: true, maxMs: 3000 }));
  const allocation = new Allocation(new Inventory(storage));
  const allocate = async () => {
    const out = await allocation.allocatePrefixes(parent, [{ prefix_length: 24 }]);
    if (!out.ok) throw new Error(JSON.stringify(out.errors));
  };
  // The first allocation after the bulk load reads every child (SQL stores keep a hint from then on).
  const t0 = performance.now();
  await allocate();
  const firstMs = Math.round((performance.now() - t0) * 10) / 10;
  console.log(`  ${name.padEnd(8)} first allocate: ${firstMs} ms`);
  const allocated = report('allocate', await measure(allocate, { async: true, maxMs: 3000 }));
  // Write cost: single prefix creates, one per transaction, in /8s of their own: /26s one after
  // another (each extends what its parent is covered up to, on SQL), and /26s at random places.
  const single = (prefix: () => string) => () =>
    storage.apply([{ op: 'create', resource: 'prefix', row: prefixRow(prefix()) }]);
  await storage.apply([
    { op: 'create', resource: 'prefix', row: prefixRow('11.0.0.0/8') },
    { op: 'create', resource: 'prefix', row: prefixRow('12.0.0.0/8') },
  ]);
  let next = 0;
  const create = report(
    'create',
    await measure(
      single(() => `${formatV4(11 * 2 ** 24 + next++ * 64)}/26`),
      { async: true, maxMs: 3000 },
    ),
  );
  const createRandom = report(
    'create*',
    await measure(
      single(() => `${formatV4(12 * 2 ** 24 + Math.floor(Math.random() * 2 ** 18) * 64)}/26`),
      { async: true, maxMs: 3000 },
    ),
  );
  await storage.close();
  return {
    backend: name,
    load_ms: loadMs,
    first_allocate_ms: firstMs,
    search: searched,
    allocate: allocated,
    create,
    create_random: createRandom,
  };
}

async function main(): Promise<void> {
  console.log(`first free /24 in ${PARENT} whose first ${TAKEN.toLocaleString()} /26s are taken`);
  const rows: AllocationRow[] = [];
  if (wanted.has('memory')) rows.push(await bench('memory', 'memory:'));
  for (const b of await sqlBackends(wanted)) {
    try {
      rows.push(await bench(b.name, b.url));
    } finally {
      await b.drop();
    }
  }
  writeResults('allocation', { taken: TAKEN, rows });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
