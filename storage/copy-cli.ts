// `npm run copy -- <from STORAGE_URL> <to STORAGE_URL>`: moves an inventory between backends
// (memory:/dir, postgres://…, mysql://…). The target is migrated first and must be empty; stop
// the servers on both while copying.
import { createStorage, StorageConfigError } from './open-storage.js';
import { copyStorage, TargetNotEmpty } from './copy-storage.js';
import type { Storage } from './types.js';

async function main(): Promise<number> {
  const [fromUrl, toUrl] = process.argv.slice(2);
  if (!fromUrl || !toUrl) {
    console.error('copy: usage: npm run copy -- <from STORAGE_URL> <to STORAGE_URL>   (e.g. memory:/var/lib/netinv postgres://netinv@db/netinv)');
    return 2;
  }
  if (fromUrl === 'memory:' || toUrl === 'memory:') {
    console.error('copy: a volatile memory: store has nothing to copy from or keep; use memory:/path/dir');
    return 2;
  }
  const opened: Storage[] = [];
  try {
    const from = await createStorage(fromUrl); await from.open(); opened.push(from);
    const to = await createStorage(toUrl); await to.open(); opened.push(to);
    const t0 = performance.now();
    const copied = await copyStorage(from, to, (r, n) => console.log(`copy: ${r}: ${n} rows`));
    const total = [...copied.values()].reduce((a, b) => a + b, 0);
    console.log(`copy: ${total} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return 0;
  } catch (e) {
    const known = e instanceof TargetNotEmpty || e instanceof StorageConfigError;
    console.error(`copy: ${known ? (e as Error).message : (e as Error).message.split('\n')[0]}`);
    return 1;
  } finally {
    for (const s of opened.reverse()) await s.close().catch(() => undefined);
  }
}

process.exitCode = await main();
