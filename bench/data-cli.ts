// `npm run bench:data -- --prefixes 1000000 --seed 42 [--shape uniform|ipam] [--v6-share 0.1667]
//   [--storage URL]`: generates a deterministic dataset and loads it through the Storage interface
// into memory:/dir, PostgreSQL or MySQL (STORAGE_URL when --storage is not given), with progress bars.
import { createStorage } from '../storage/open-storage.js';
import { datasetCounts, type DatasetOptions } from './generate.js';
import { loadDataset } from './load.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => { const i = args.indexOf(`--${name}`); return i >= 0 && args[i + 1] ? args[i + 1] : dflt; };

function options(): { o: DatasetOptions; url: string } {
  const prefixes = Number(opt('prefixes', '100000'));
  const seed = Number(opt('seed', '42'));
  const shape = opt('shape', 'uniform');
  const v6Share = Number(opt('v6-share', String(1 / 6)));
  const problems: string[] = [];
  if (!Number.isInteger(prefixes) || prefixes < 1) problems.push('--prefixes must be a whole number above 0');
  if (!Number.isInteger(seed)) problems.push('--seed must be a whole number');
  if (shape !== 'uniform' && shape !== 'ipam') problems.push('--shape must be uniform or ipam');
  if (!(v6Share >= 0 && v6Share <= 1)) problems.push('--v6-share must be between 0 and 1');
  if (problems.length) { console.error(`bench:data: ${problems.join('; ')}`); process.exit(2); }
  return { o: { prefixes, seed, shape: shape as 'uniform' | 'ipam', v6Share }, url: opt('storage', process.env.STORAGE_URL ?? 'memory:') };
}

async function main(): Promise<void> {
  const { o, url } = options();
  if (url === 'memory:') console.log('note: storage memory: keeps nothing after this process; use --storage memory:/dir, postgres://… or mysql://…');
  const storage = await createStorage(url);
  await storage.open();
  try {
    const c = datasetCounts(o);
    console.log(`loading ${o.shape} dataset, seed ${o.seed}: ${Object.entries(c).map(([k, v]) => `${v.toLocaleString()} ${k}`).join(', ')} into ${url.replace(/:\/\/[^@/]*@/, '://…@')}`);
    const ms = await loadDataset(storage, o, storage.kind);
    console.log(`loaded in ${(ms / 1000).toFixed(1)} s`);
  } finally {
    await storage.close();
  }
}

main().catch((e: Error) => { console.error(`bench:data: ${e.message}`); process.exitCode = 1; });
