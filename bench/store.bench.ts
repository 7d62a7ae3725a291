// Memory store: time to load and index prefixes, heap held per prefix, and the cost of building a
// row object for a page. Sites, devices and tags are loaded first and not counted.
// Then a restart from the snapshot compaction would write of it (bench/restart.ts): a fresh process's
// time to an open store and its peak RSS; and the server's first start on the journal bench:data
// would leave of the same batches, to its `listening on` line (bench/journal-start.ts).
// Run: node --expose-gc dist/bench/store.bench.js [--prefixes 1200000] [--shape uniform|ipam] [--no-restart]
// [--no-journal-start]
// Writes bench/results/<date>-store.json.
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { MemoryStorage } from '../storage/memory/memory-storage.js';
import { datasetBatches, type DatasetOptions } from './generate.js';
import { canCollect, heapBytes as heap } from './heap.js';
import type { WriteOp } from '../storage/types.js';
import { measureRestart } from './restart.js';
import { measureJournalStart } from './journal-start.js';
import { prefixesFlag, SHAPE_FLAG } from './flags.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';
import { writeResults } from './results-file.js';

export const STORE_CLI: CliSpec = {
  command: 'npm run bench:store --',
  summary:
    'Memory store: time to load and index prefixes, heap held per prefix, the cost of a page of row objects, ' +
    'and a restart from a snapshot.',
  flags: [
    prefixesFlag('1200000', 'prefixes to load'),
    SHAPE_FLAG,
    { name: 'no-restart', type: 'flag', help: 'skip the restart measurement' },
    { name: 'no-journal-start', type: 'flag', help: "skip the server's first start on the journal" },
    { name: 'profile', type: 'string', value: 'FILE', help: 'write a CPU profile of the timed part to FILE' },
    {
      name: 'server-node-flags',
      type: 'string',
      value: 'FLAGS',
      help:
        'node flags for the journal starts\' server processes, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" ' +
        '(figures then not kept)',
    },
  ],
};
const args = argsOrExit(STORE_CLI);
if (!canCollect) throw new Error('run with node --expose-gc');

async function main(): Promise<void> {
  const prefixes = args.number('prefixes');
  const o: DatasetOptions = {
    prefixes,
    seed: 42,
    shape: args.string('shape') as DatasetOptions['shape'],
    v6Share: 1 / 6,
  };
  // The batches are generated first and kept as JSON text, as a file to load would hold them; each
  // is parsed just before it is applied (fresh objects, flat strings). Only the store's own work
  // (apply, then afterBulkLoad) is timed: while the generator ran between batches, its garbage
  // was collected inside the timed part (~0.5-1 s of the old figures).
  const texts: string[] = [];
  for (const b of datasetBatches(o)) texts.push(JSON.stringify(b));
  const store = new MemoryStorage(null);
  // The heap is measured before the first prefix row exists: a store that keeps the very objects
  // it is given is charged for them. `--profile FILE`: a CPU profile of the timed part.
  const profile = args.string('profile');
  const session = profile ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
  }
  let base = -1,
    loadMs = 0,
    n = 0;
  for (const text of texts) {
    const batch = JSON.parse(text) as WriteOp[];
    const prefixBatch = batch.some((op) => op.resource === 'prefix');
    if (prefixBatch && base < 0) {
      base = await heap();
      await session?.post('Profiler.start');
    }
    const t0 = performance.now();
    await store.apply(batch, { log: false });
    if (prefixBatch) {
      loadMs += performance.now() - t0;
      n += batch.length;
    }
  }
  const t0 = performance.now();
  await store.afterBulkLoad();
  const settleMs = performance.now() - t0;
  loadMs += settleMs;
  if (session) writeFileSync(profile, JSON.stringify((await session.post('Profiler.stop')).profile));
  const held = (await heap()) - base;
  // Row objects for pages: the per-row cost a result page pays after the query.
  const t = store.table('prefix');
  const slots = [...t.slots()];
  let k = 0;
  const r0 = performance.now();
  const reads = 200000;
  for (let i = 0; i < reads; i++) k += t.row(slots[(i * 7919) % slots.length])!.prefix ? 1 : 0;
  const rowUs = ((performance.now() - r0) * 1000) / reads;
  // A restart from the snapshot compaction would write of this store (median of 3 fresh processes).
  const restart = args.flag('no-restart') ? {} : measureRestart(store);
  // The server's first start on the journal of these batches, as bench:data leaves it (median of 3).
  const serverFlags = args.string('server-node-flags')?.split(/\s+/).filter(Boolean) ?? [];
  const journalStart = args.flag('no-journal-start') ? {} : await measureJournalStart(texts, 3, serverFlags);
  const figures = {
    prefixes: n,
    shape: o.shape,
    load_s: +(loadMs / 1000).toFixed(2),
    of_which_sorting_s: +(settleMs / 1000).toFixed(2),
    bytes_per_prefix: Math.round(held / n),
    heap_mb: Math.round(held / 2 ** 20),
    row_object_us: +rowUs.toFixed(3),
    ...restart,
    ...journalStart,
  };
  console.log(JSON.stringify({ ...figures, check: k }));
  // A profiled run (or one with other server flags) is slower by the profiler: its figures are not kept.
  if (!profile && !serverFlags.length) writeResults('store', figures);
}

await main();
