// `npm run bench [-- --quick] [--sizes 10000,100000,1000000] [--backends memory,postgres,mysql,mysql9]`:
// every query class on every backend (and a plain scan) at each size, median/p99/ops/s and
// ratios taken in one run. Writes bench/results/<date>-filters.json (`npm run docs` makes
// docs/benchmarks.md from it).
import fs from 'node:fs';
import { evaluate, evaluatePage } from '../engine/memory/evaluate.js';
import { PlanCache } from '../engine/plan/plan-cache.js';
import { planQuery } from '../engine/plan/planner.js';
import { parseQuery } from '../engine/query/index.js';
import { resource } from '../engine/schema/registry.js';
import { customFieldDefOf } from '../engine/schema/resources/custom-field.js';
import type { CustomFieldDef } from '../engine/schema/types.js';
import { createStorage } from '../storage/open-storage.js';
import { MemoryStorage } from '../storage/memory/memory-storage.js';
import type { Page, Storage } from '../storage/types.js';
import { loadDataset } from './load.js';
import { machineInfo } from './machine.js';
import { measure, type Figure } from './measure.js';
import { BENCH_PICK, queryClasses } from './query-classes.js';
import { writeResults } from './results-file.js';
import type { FilterResults as BenchResults, Measurement } from './results-shapes.js';
import { sqlBackends } from './sql-backends.js';
import { backendsFlag, SHAPE_FLAG } from './flags.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';

export const BENCH_CLI: CliSpec = {
  command: 'npm run bench --',
  summary:
    'Every query class on every backend (and a plain scan) at each size: median, p99, ops/s and ratios.\n' +
    'Writes bench/results/<date>-filters.json; `npm run docs` makes docs/benchmarks.md from it.',
  flags: [
    { name: 'quick', type: 'flag', help: 'one size, 100000 prefixes (unless --sizes is given)' },
    {
      name: 'sizes',
      type: 'list',
      items: 'integer',
      min: 1,
      default: '10000,100000,1000000',
      help: 'dataset sizes in prefixes',
    },
    backendsFlag('memory,postgres,mysql,mysql9'),
    { name: 'seed', type: 'integer', default: '42', help: 'seed of the dataset' },
    SHAPE_FLAG,
    {
      name: 'classes',
      type: 'string',
      value: 'TEXT',
      help:
        'only the query classes whose name contains TEXT (a check: written as <date>-filters-partial.json, ' +
        'which the doc does not read)',
    },
    { name: 'no-scan', type: 'flag', help: 'skip the plain-scan baseline' },
    // Keeps FILE's measurements for the (size, backend) pairs not measured now, so one backend can
    // be measured again without re-running the rest; notes say which run each came from.
    {
      name: 'merge',
      type: 'string',
      value: 'FILE',
      help: "keep FILE's measurements for the sizes and backends not measured now",
    },
  ],
};
const args = argsOrExit(BENCH_CLI);

const quick = args.flag('quick');
const sizes = quick && !args.given('sizes') ? [100000] : args.list('sizes').map(Number);
const wanted = new Set(args.list('backends'));
const seed = args.number('seed');
const shape = args.string('shape') as 'uniform' | 'ipam';
const only = args.string('classes');
const noScan = args.flag('no-scan');
const mergeFrom = args.string('merge');
const PAGE: Page = {
  limit: 50,
  offset: 0,
  ordering: [
    { field: 'network', desc: false },
    { field: 'prefix_length', desc: false },
  ],
};

async function main(): Promise<void> {
  const results: BenchResults = { machine: machineInfo(), shape, seed, measurements: [], loads: [], notes: [] };
  for (const size of sizes) {
    console.log(`\n== ${size.toLocaleString()} prefixes (${shape}, seed ${seed})`);
    const run = await prepare(results, size);
    if (wanted.has('memory')) await measureMemory(run);
    await measureSql(results, run);
  }
  if (mergeFrom) mergeOld(results, mergeFrom);
  // A run of some classes only (--classes) is a check: its file is not the doc's (bench/report/sources.ts).
  const { machine, ...body } = results;
  writeResults(`filters${quick ? '-quick' : ''}${only ? '-partial' : ''}`, body, machine);
}

const prefixDef = resource('prefix');

/** One size's dataset in memory, its query classes planned, and where a figure is recorded. */
interface SizeRun {
  readonly size: number;
  readonly o: { prefixes: number; seed: number; shape: 'uniform' | 'ipam'; v6Share: number };
  readonly mem: MemoryStorage;
  readonly table: ReturnType<MemoryStorage['table']>;
  readonly samples: string[];
  readonly cfs: CustomFieldDef[];
  readonly classes: ReturnType<typeof queryClasses>;
  readonly plans: ReturnType<typeof planQuery>['plan'][];
  readonly record: (cls: string, backend: string, f: Figure, matched: number) => void;
}

async function prepare(results: BenchResults, size: number): Promise<SizeRun> {
  const o = { prefixes: size, seed, shape, v6Share: 1 / 6 };
  const mem = new MemoryStorage(null);
  await mem.open();
  results.loads.push({ size, backend: 'memory', ms: Math.round(await loadDataset(mem, o, 'memory')) });
  const table = mem.table('prefix');
  const samples: string[] = [];
  let k = 0;
  for (const row of table.all()) if (k++ % 997 === 0) samples.push(row.prefix as string);
  const cfs = (
    await mem.find('custom_field', { kind: 'const', value: true }, { limit: 100, offset: 0, ordering: [] })
  ).rows.map(customFieldDefOf);
  const classes = queryClasses(samples, BENCH_PICK).filter((c) => !only || c.name.includes(only));
  const plans = classes.map((c) => {
    const r = planQuery(prefixDef, parseQuery(new URLSearchParams(c.query)), {
      strict: true,
      customFields: cfs.filter((d) => d.content_types.includes('ipam.prefix')),
    });
    if (Object.keys(r.errors).length) throw new Error(`${c.name}: ${JSON.stringify(r.errors)}`);
    return r.plan;
  });
  const record = (cls: string, backend: string, f: Figure, matched: number) => {
    results.measurements.push({ size, backend, class: cls, matched, ...f } satisfies Measurement);
    console.log(
      `  ${backend.padEnd(8)} ${cls.padEnd(26)} median ${String(f.median_us).padStart(9)} µs  p99 ` +
        `${String(f.p99_us).padStart(9)} µs  ${String(f.ops_per_s).padStart(8)} ops/s  (${matched} rows)`,
    );
  };
  return { size, o, mem, table, samples, cfs, classes, plans, record };
}

/** Every class on the memory engine (a page, the rows too, a plain scan), then parsing and planning. */
async function measureMemory({ mem, table, samples, cfs, classes, plans, record }: SizeRun): Promise<void> {
  for (const [i, c] of classes.entries()) {
    const matched = evaluate(table, plans[i], PAGE, mem).count;
    record(c.name, 'memory', await measure(() => evaluatePage(table, plans[i], PAGE, mem)), matched);
    record(c.name, 'memory+rows', await measure(() => evaluate(table, plans[i], PAGE, mem)), matched);
    if (!noScan)
      record(
        c.name,
        'scan',
        await measure(() => evaluatePage(table, plans[i], PAGE, mem, false), { maxMs: 300 }),
        matched,
      );
  }
  const cache = new PlanCache();
  const params = [...new URLSearchParams(queryClasses(samples, BENCH_PICK)[14].query)];
  const popts = { strict: true, customFields: cfs };
  record('parse+plan (cached)', 'memory', await measure(() => cache.get(prefixDef, params, popts)), 0);
  let n = 0;
  record(
    'parse+plan (uncached)',
    'memory',
    await measure(() => {
      n++;
      return planQuery(
        prefixDef,
        parseQuery([
          ['network__net_contained', `10.${n & 255}.${(n >> 8) & 255}.0/24`],
          ['status', 'active'],
          [`cf_rack_count__lt`, String(n % 1000)],
          ['tag__n', `t${n}`],
        ]),
        { strict: true, customFields: cfs },
      );
    }),
    0,
  );
}

/** Every class on each reachable SQL backend (a fresh database each), and the backend's extra figures. */
async function measureSql(results: BenchResults, { size, o, samples, classes, plans, record }: SizeRun) {
  for (const b of await sqlBackends(wanted)) {
    let storage: Storage | null = null;
    try {
      (results.machine.servers ??= {})[b.name] = b.version;
      storage = await createStorage(b.url);
      await storage.open();
      results.loads.push({ size, backend: b.name, ms: Math.round(await loadDataset(storage, o, b.name)) });
      for (const [i, c] of classes.entries()) {
        const matched = (await storage.find('prefix', plans[i], PAGE)).count;
        record(
          c.name,
          b.name,
          await measure(() => storage!.find('prefix', plans[i], PAGE), { async: true, maxMs: 800 }),
          matched,
        );
      }
      if (b.extra) {
        const extra = await b.extra(samples);
        try {
          for (const [name, fn] of Object.entries(extra.fns))
            record(name, b.name, await measure(fn, { async: true, slow: true }), await fn());
        } finally {
          await extra.close();
        }
      }
    } catch (e) {
      results.notes.push(`${b.name} at ${size}: ${(e as Error).message}`);
      console.log(`  ${b.name}: skipped: ${(e as Error).message}`);
    } finally {
      await storage?.close();
      await b.drop();
    }
  }
}

/** --merge: the earlier file's figures for the sizes and backends not measured now are kept. */
function mergeOld(results: BenchResults, file: string): void {
  const old = JSON.parse(fs.readFileSync(file, 'utf8')) as BenchResults;
  const fresh = new Set(results.measurements.map((x) => `${x.size}/${x.backend}`));
  const kept = old.measurements.filter((x) => !fresh.has(`${x.size}/${x.backend}`));
  results.measurements.push(...kept);
  results.loads.push(
    ...old.loads.filter((l) => !results.loads.some((n) => n.size === l.size && n.backend === l.backend)),
  );
  const pair = (x: { backend: string; size: number }) => `${x.backend} at ${x.size.toLocaleString('en-US')}`;
  const keptPairs = [...new Set(kept.map(pair))];
  const freshPairs = [...new Set(results.measurements.filter((x) => fresh.has(`${x.size}/${x.backend}`)).map(pair))];
  results.notes.push(
    ...old.notes,
    `Measured again on ${results.machine.date}: ${freshPairs.join(', ')}. ` +
      `Kept from the earlier run (${String(old.machine.date)}): ${keptPairs.join(', ')}.`,
  );
}

await main();
