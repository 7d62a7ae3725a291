// `npm run bench:data -- --prefixes 1000000 --seed 42 [--shape uniform|ipam] [--v6-share 0.1667]
//   [--storage URL]`: generates a deterministic dataset and loads it through the Storage interface
// into memory:/dir, PostgreSQL or MySQL (STORAGE_URL when --storage is not given), with progress bars.
import { createStorage } from '../storage/open-storage.js';
import { datasetCounts, type DatasetOptions } from './generate.js';
import { loadDataset } from './load.js';
import { SHAPE_FLAG } from './flags.js';
import { argsOrExit, type CliSpec } from '../storage/cli-args.js';

export const DATA_CLI: CliSpec = {
  command: 'npm run bench:data --',
  summary:
    'Generates a deterministic dataset and loads it through the Storage interface into memory:/dir, ' +
    'PostgreSQL or MySQL.',
  flags: [
    { name: 'prefixes', type: 'integer', min: 1, default: '100000', help: 'prefixes to generate' },
    { name: 'seed', type: 'integer', default: '42', help: 'seed of the generator' },
    SHAPE_FLAG,
    { name: 'v6-share', type: 'number', min: 0, max: 1, default: String(1 / 6), help: 'share of IPv6 prefixes' },
    { name: 'storage', type: 'string', value: 'URL', help: 'where to load it (default STORAGE_URL, else memory:)' },
  ],
  env: [{ name: 'STORAGE_URL', help: 'where to load it when --storage is not given' }],
};

function options(): { o: DatasetOptions; url: string } {
  const a = argsOrExit(DATA_CLI);
  const o: DatasetOptions = {
    prefixes: a.number('prefixes'),
    seed: a.number('seed'),
    shape: a.string('shape') as DatasetOptions['shape'],
    v6Share: a.number('v6-share'),
  };
  return { o, url: a.string('storage') || (process.env.STORAGE_URL ?? 'memory:') };
}

async function main(): Promise<void> {
  const { o, url } = options();
  if (url === 'memory:')
    console.log(
      'note: storage memory: keeps nothing after this process; use --storage memory:/dir, postgres://… or mysql://…',
    );
  const storage = await createStorage(url);
  await storage.open();
  try {
    const c = datasetCounts(o);
    console.log(
      `loading ${o.shape} dataset, seed ${o.seed}: ${Object.entries(c)
        .map(([k, v]) => `${v.toLocaleString()} ${k}`)
        .join(', ')} into ${url.replace(/:\/\/[^@/]*@/, '://…@')}`,
    );
    const ms = await loadDataset(storage, o, storage.kind);
    console.log(`loaded in ${(ms / 1000).toFixed(1)} s`);
  } finally {
    await storage.close();
  }
}

main().catch((e: Error) => {
  console.error(`bench:data: ${e.message}`);
  process.exitCode = 1;
});
