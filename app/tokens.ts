// API tokens: keys are random, stored as SHA-256 hashes; the key itself is returned once.
import { createHash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { StorageConflict, type Row, type Storage } from '../storage/types.js';
import { authority } from '../storage/replica/replicated-storage.js';
import { contentType, resource } from '../engine/schema/registry.js';
import { WatchedCache } from './watched-cache.js';

/** How long (ms) a token change made through another process may go unseen where nothing announces it (MySQL). */
export const DEFAULT_TOKEN_RECHECK_MS = 250;

export interface Principal {
  readonly tokenId: string;
  readonly permissions: readonly string[];
  /** What change records name as user_name: the token's description, else its key's last characters. */
  readonly name: string;
}

export const tokenDisplay = (row: Row): string =>
  typeof row.description === 'string' && row.description ? row.description : `token …${String(row.key_tail)}`;

/** Token checks are dropped when a token record is written (created, changed or deleted by any process). */
const TOKEN_TYPES: ReadonlySet<string> = new Set([contentType(resource('token'))]);

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export class Tokens {
  // A key's hash never changes, so it is computed once per key; whether the key is valid is
  // answered from memory (key hash -> the principal, null: no such token) until the change log
  // shows a token changed (watched-cache.ts): no query per request.
  private readonly hashes = new LRUCache<string, string>({ max: 1000 });
  private readonly checks: WatchedCache<Principal | null>;

  constructor(
    private readonly storage: Storage,
    recheckMs = DEFAULT_TOKEN_RECHECK_MS,
  ) {
    this.checks = new WatchedCache(authority(storage), recheckMs, TOKEN_TYPES, 10000);
  }

  async authenticate(key: string): Promise<Principal | null> {
    let hash = this.hashes.get(key);
    if (hash === undefined) {
      hash = hashKey(key);
      this.hashes.set(key, hash);
    }
    const known = hash;
    // Read from the database itself, never a replica that may not have applied a revoke yet.
    return this.checks.get(known, async () => {
      const [row] = await authority(this.storage).findBy('token', 'key_hash', known);
      return row ? { tokenId: row.id, permissions: row.permissions as string[], name: tokenDisplay(row) } : null;
    });
  }

  /** Stops following the change log. */
  close(): void {
    this.checks.close();
  }

  /** Create a token; with `key` given (from config) it is stored if not already present. */
  async create(permissions: readonly string[], description = '', key?: string): Promise<{ key: string; row: Row }> {
    const k = key ?? randomBytes(20).toString('hex');
    const hash = hashKey(k);
    const [existing] = await this.storage.findBy('token', 'key_hash', hash);
    if (existing) {
      // A configured token as stored already: nothing to write (a start then writes nothing).
      if (JSON.stringify(existing.permissions) === JSON.stringify(permissions) && existing.description === description)
        return { key: k, row: existing };
      const row = { ...existing, permissions: [...permissions], description };
      await this.storage.apply([{ op: 'update', resource: 'token', row, before: existing }]);
      return { key: k, row };
    }
    const now = new Date().toISOString();
    const row: Row = {
      id: (await this.storage.newIds('token', 1))[0],
      created: now,
      last_updated: now,
      key_hash: hash,
      key_tail: k.slice(-4),
      permissions: [...permissions],
      description,
    };
    try {
      await this.storage.apply([{ op: 'create', resource: 'token', row }]);
    } catch (e) {
      // Another process starting on the same database stored this configured key first: use it.
      if (key !== undefined && e instanceof StorageConflict && e.field === 'key_hash')
        return this.create(permissions, description, key);
      throw e;
    }
    return { key: k, row };
  }

  async count(): Promise<number> {
    const r = await this.storage.find('token', { kind: 'const', value: true }, { limit: 1, offset: 0, ordering: [] });
    return r.count;
  }
}

/** `dcim.view_site` granted by `*` or by the exact permission. */
export function allows(p: Principal, permission: string): boolean {
  return p.permissions.includes('*') || p.permissions.includes(permission);
}
