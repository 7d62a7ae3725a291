// STORAGE_URL -> a Storage. The one place that knows the URL schemes.
import { StorageConfigError, type Storage, type StorageOptions } from './types.js';
import { MemoryStorage } from './memory/memory-storage.js';
import { createPostgresStorage } from './postgres/index.js';
import { createMysqlStorage } from './mysql/index.js';
import { ReplicatedStorage } from './replica/replicated-storage.js';
import type { SqlStorage } from './sql/sql-storage.js';

export { StorageConfigError };

export const STORAGE_SCHEMES = ['memory:', 'postgres:', 'postgresql:', 'mysql:'] as const;

/**
 * READ_REPLICA=memory: the database store with a replica in this process. The replica reads through
 * stores of its own (a small pool, no migrations): its reads never queue behind the requests' queries,
 * and its initial load may come from a standby (READ_REPLICA_LOAD_URL) while the log is followed on the primary.
 */
function replicated(s: Storage, url: string, opts: StorageOptions): Storage {
  if (opts.readReplica !== 'memory') {
    if (opts.readReplicaLoadUrl)
      throw new StorageConfigError(
        'READ_REPLICA_LOAD_URL is set but READ_REPLICA is not "memory": a load URL serves only a memory replica',
      );
    return s;
  }
  const reader = (at: string) =>
    databaseStore(at, { ...opts, readReplica: undefined, reader: true, poolSize: 2 }) as SqlStorage;
  const follow = reader(url);
  return new ReplicatedStorage(
    s as SqlStorage,
    { follow, load: opts.readReplicaLoadUrl ? reader(opts.readReplicaLoadUrl) : follow },
    opts,
  );
}

/** Database URL schemes and the store each opens. */
const DATABASES: Record<string, { kind: 'postgres' | 'mysql'; open: (url: string, opts: StorageOptions) => Storage }> =
  {
    'postgres:': { kind: 'postgres', open: createPostgresStorage },
    'postgresql:': { kind: 'postgres', open: createPostgresStorage },
    'mysql:': { kind: 'mysql', open: createMysqlStorage },
  };
const databaseOf = (url: string) => DATABASES[url.slice(0, url.indexOf(':') + 1)];

/** A postgres:// or mysql:// URL -> its store. */
function databaseStore(url: string, opts: StorageOptions): Storage {
  return databaseOf(url).open(url, opts);
}

/** The directory of a `memory:/dir` URL; null for volatile `memory:`. */
export const memoryDir = (url: string): string | null => url.slice('memory:'.length).replace(/^\/\//, '') || null;

export async function createStorage(url: string, opts: StorageOptions = {}): Promise<Storage> {
  if (url.startsWith('memory:')) {
    if (opts.readReplica)
      throw new StorageConfigError(
        'READ_REPLICA=memory needs a database in STORAGE_URL (postgres://… or mysql://…): ' +
          'a memory: store is already in memory',
      );
    return new MemoryStorage(memoryDir(url), opts);
  }
  const db = databaseOf(url);
  if (!db)
    throw new StorageConfigError(
      `unknown storage scheme in STORAGE_URL "${url}" (expected one of memory:, memory:/dir, postgres://…, mysql://…)`,
    );
  const store = db.open(url, opts);
  if (opts.readReplicaLoadUrl && databaseOf(opts.readReplicaLoadUrl)?.kind !== db.kind)
    throw new StorageConfigError(
      `READ_REPLICA_LOAD_URL "${opts.readReplicaLoadUrl}" must be a database of the same kind as STORAGE_URL ` +
        '(a standby of it)',
    );
  return replicated(store, url, opts);
}

/** A storage URL as messages show it: without its password. */
export function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}
