// STORAGE_URL -> a Storage. The one place that knows the URL schemes.
import type { Storage, StorageOptions } from './types.js';
import { MemoryStorage } from './memory/memory-storage.js';
import { createPostgresStorage } from './postgres/index.js';
import { createMysqlStorage } from './mysql/index.js';
import { ReplicatedStorage } from './replica/replicated-storage.js';
import type { SqlStorage } from './sql/sql-storage.js';

export class StorageConfigError extends Error {}

export const STORAGE_SCHEMES = ['memory:', 'postgres:', 'postgresql:', 'mysql:'] as const;

/** READ_REPLICA=memory: the database store with a replica in this process. */
function replicated(s: Storage, opts: StorageOptions): Storage {
  return opts.readReplica === 'memory' ? new ReplicatedStorage(s as SqlStorage, opts) : s;
}

/** The directory of a `memory:/dir` URL; null for volatile `memory:`. */
export const memoryDir = (url: string): string | null => url.slice('memory:'.length).replace(/^\/\//, '') || null;

export async function createStorage(url: string, opts: StorageOptions = {}): Promise<Storage> {
  const scheme = url.slice(0, url.indexOf(':') + 1);
  switch (scheme) {
    case 'memory:': {
      if (opts.readReplica) throw new StorageConfigError('READ_REPLICA=memory needs a database in STORAGE_URL (postgres://… or mysql://…): a memory: store is already in memory');
      return new MemoryStorage(memoryDir(url), opts);
    }
    case 'postgres:': case 'postgresql:': return replicated(createPostgresStorage(url, opts), opts);
    case 'mysql:': return replicated(createMysqlStorage(url, opts), opts);
    default:
      throw new StorageConfigError(`unknown storage scheme in STORAGE_URL "${url}" (expected one of memory:, memory:/dir, postgres://…, mysql://…)`);
  }
}
