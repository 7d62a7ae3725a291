// The server under HTTP load: starts on STORAGE_URL with a generated dataset, prints READY <url>.
import { DEFAULTS, type Config } from '../server/config/defaults.js';
import { start } from '../server/start.js';
import { loadDataset } from './load.js';
import { createStorage } from '../storage/open-storage.js';

const prefixes = Number(process.env.BENCH_PREFIXES ?? 100000);
const storage = process.env.STORAGE_URL ?? 'memory:';
const key = 'bench-key-0123456789';
// The replica's load and reload lines are kept (benches read the load time from them).
const quiet = {
  info: () => {},
  warn: (m: string) => {
    if (m.startsWith('replica:')) console.log(m);
  },
  error: (m: string) => console.error(m),
};
const replica = process.env.READ_REPLICA === 'memory';
// BENCH_LOAD=none: the database already holds the dataset (a second server on it).
const loading = process.env.BENCH_LOAD !== 'none';
const dataset = { prefixes, seed: 42, shape: 'uniform', v6Share: 1 / 6 } as const;
if (replica && loading) {
  // A replica loads what the database holds at its start: the dataset goes in first (unlogged, as bench loads are).
  const plain = await createStorage(storage);
  await plain.open();
  await loadDataset(plain, dataset, storage.split(':')[0]);
  await plain.close();
}
const running = await start(
  {
    ...DEFAULTS,
    port: 0,
    storage,
    demoData: false,
    tokens: [{ key, permissions: ['*'] }],
    readReplica: replica ? 'memory' : '',
    pageCacheMb: Number(process.env.PAGE_CACHE_MB ?? DEFAULTS.pageCacheMb),
    importMaxRows: Number(process.env.IMPORT_MAX_ROWS ?? DEFAULTS.importMaxRows),
  } as Config,
  quiet,
);
if (!replica && loading) await loadDataset(running.ctx.storage, dataset, storage.split(':')[0]);
console.log(`READY ${running.url} ${key}`);
process.on('SIGTERM', async () => {
  await running.close();
  process.exit(0);
});
