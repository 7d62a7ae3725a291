// STORAGE_URL -> a Storage. The one place that knows the URL schemes.
import type { Storage, StorageOptions } from './types.js';
import { MemoryStorage } from './memory/memory-storage.js';
import { createPostgresStorage } from './postgres/index.js';
import { createMysqlStorage } from './mysql/index.js';

export class StorageConfigError extends Error {}

export const STORAGE_SCHEMES = ['memory:', 'postgres:', 'postgresql:', 'mysql:'] as const;

export async function createStorage(url: string, opts: StorageOptions = {}): Promise<Storage> {
  const scheme = url.slice(0, url.indexOf(':') + 1);
  switch (scheme) {
    case 'memory:': {
      const dir = url.slice('memory:'.length).replace(/^\/\//, '');
      return new MemoryStorage(dir ? dir : null, opts);
    }
    case 'postgres:': case 'postgresql:': return createPostgresStorage(url, opts);
    case 'mysql:': return createMysqlStorage(url, opts);
    default:
      throw new StorageConfigError(`unknown storage scheme in STORAGE_URL "${url}" (expected one of memory:, memory:/dir, postgres://…, mysql://…)`);
  }
}
