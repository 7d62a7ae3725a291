// `npm run copy -- <from STORAGE_URL> <to STORAGE_URL>`: moves an inventory between backends
// (memory:/dir, postgres://…, mysql://…). The target is migrated first and must be empty; stop
// the servers on both while copying. A source that does not exist is refused, naming it. Ids are
// kept: a new target is created with the source's id style; a target of another style is refused.
import fs from 'node:fs';
import { createStorage, memoryDir, StorageConfigError } from './open-storage.js';
import { copyStorage, IdStylesDiffer, TargetNotEmpty } from './copy-storage.js';
import { IdStyleRefused } from './sql/store-style.js';
import { holdsStore } from './memory/journal-files.js';
import { argsOrExit, type CliSpec } from './cli-args.js';
import type { Storage } from './types.js';

export const COPY_CLI: CliSpec = {
  command: 'npm run copy --',
  summary:
    'Copies every row of one store into another, empty one (migrated first). ' +
    'Stop the servers on both while copying.\n' +
    'e.g. npm run copy -- memory:/var/lib/netinv postgres://netinv@db/netinv',
  positionals: [
    {
      name: 'from STORAGE_URL',
      help: 'the store to copy: memory:/path/dir (it must exist), postgres://… or mysql://…',
    },
    { name: 'to STORAGE_URL', help: 'the empty store to fill: memory:/path/dir, postgres://… or mysql://…' },
  ],
  flags: [],
};

/** Why the source cannot be copied from before it is opened (opening a memory directory would create it), or null. */
function sourceProblem(url: string): string | null {
  if (!url.startsWith('memory:')) return null;
  const dir = memoryDir(url);
  if (dir === null) return 'a volatile memory: store has nothing to copy from; use memory:/path/dir';
  if (!fs.existsSync(dir)) return `the source ${url} does not exist (no directory ${dir})`;
  if (!holdsStore(dir)) return `the source ${url} holds no store (no journal or snapshot in ${dir})`;
  return null;
}

async function main(): Promise<number> {
  const [fromUrl, toUrl] = argsOrExit(COPY_CLI).positionals;
  const problem =
    sourceProblem(fromUrl) ??
    (toUrl === 'memory:' ? 'a volatile memory: store keeps nothing; copy to memory:/path/dir' : null);
  if (problem) {
    console.error(`copy: ${problem}`);
    return 2;
  }
  const opened: Storage[] = [];
  try {
    const from = await createStorage(fromUrl);
    await from.open();
    opened.push(from);
    const to = await createStorage(toUrl, { idStyle: from.ids.name });
    opened.push(to); // closed also when its open is refused (its pool is made)
    await to.open().catch((e: unknown) => {
      throw e instanceof IdStyleRefused ? new IdStylesDiffer(from.ids.name, e.stored) : e;
    });
    const t0 = performance.now();
    const copied = await copyStorage(from, to, (r, n) => console.log(`copy: ${r}: ${n} rows`));
    const total = [...copied.values()].reduce((a, b) => a + b, 0);
    console.log(`copy: ${total} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return 0;
  } catch (e) {
    const known = e instanceof TargetNotEmpty || e instanceof StorageConfigError || e instanceof IdStylesDiffer;
    console.error(`copy: ${known ? (e as Error).message : (e as Error).message.split('\n')[0]}`);
    return 1;
  } finally {
    for (const s of opened.reverse()) await s.close().catch(() => undefined);
  }
}

process.exitCode = await main();
