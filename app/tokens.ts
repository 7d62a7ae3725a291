// API tokens: keys are random, stored as SHA-256 hashes; the key itself is returned once.
import { createHash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { StorageConflict, type Row, type Storage } from '../storage/types.js';
import { authority } from '../storage/replica/replicated-storage.js';
import { contentType, resource } from '../engine/schema/registry.js';
import { WatchedCache } from './watched-cache.js';
import { allRows, principalOf, type Principal } from './principal.js';
import { legacyUserOps } from './legacy-users.js';

/** How long (ms) a token change made through another process may go unseen where nothing announces it (MySQL). */
export const DEFAULT_TOKEN_RECHECK_MS = 250;

export { tokenDisplay, type Principal } from './principal.js';

/** Token checks are dropped when a record of a token, or of what its rights come from (its user, groups
 * and object permissions), is written (created, changed or deleted by any process). */
const TOKEN_TYPES: ReadonlySet<string> = new Set(
  ['token', 'user', 'group', 'object_permission'].map((n) => contentType(resource(n))),
);

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** What a token of a user's is made with besides its user. */
export interface TokenOptions {
  readonly description?: string;
  /** ISO 8601, UTC; null or absent: never expires. */
  readonly expires?: string | null;
  readonly write_enabled?: boolean;
}

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
    const p = await this.checks.get(known, async () => {
      const [row] = await authority(this.storage).findBy('token', 'key_hash', known);
      return row ? principalOf(authority(this.storage), row) : null;
    });
    return p && (p.expiresAt === null || p.expiresAt > Date.now()) ? p : null;
  }

  /** Stops following the change log. */
  close(): void {
    this.checks.close();
  }

  /**
   * Create a token of the old form, its permission list held by a user of its own (`username`, else
   * `token-<id>`: app/legacy-users.ts); with `key` given (from config) it is stored if not already
   * present, and a start whose configuration holds it unchanged writes nothing.
   */
  async create(
    permissions: readonly string[],
    description = '',
    key?: string,
    username?: string,
  ): Promise<{ key: string; row: Row }> {
    const k = key ?? randomBytes(20).toString('hex');
    const hash = hashKey(k);
    const [existing] = await this.storage.findBy('token', 'key_hash', hash);
    const id = existing?.id ?? (await this.storage.newIds('token', 1))[0];
    try {
      const { userId, ops } = await legacyUserOps(this.storage, username ?? `token-${id}`, permissions);
      const now = new Date().toISOString();
      const fields = { permissions: [...permissions], description, user: userId };
      if (existing) {
        const same = Object.entries(fields).every(([f, v]) => JSON.stringify(existing[f]) === JSON.stringify(v));
        if (same && !ops.length) return { key: k, row: existing };
        const kept = { expires: existing.expires ?? null, write_enabled: existing.write_enabled ?? true };
        const row = { ...existing, ...fields, ...kept, last_updated: now };
        await this.storage.apply([...ops, { op: 'update', resource: 'token', row, before: existing }]);
        return { key: k, row };
      }
      // Every field written, as a database's columns hold them (a copy between stores compares rows whole).
      const row: Row = {
        id,
        created: now,
        last_updated: now,
        key_hash: hash,
        key_tail: k.slice(-4),
        ...fields,
        expires: null,
        write_enabled: true,
      };
      await this.storage.apply([...ops, { op: 'create', resource: 'token', row }]);
      return { key: k, row };
    } catch (e) {
      // Another process starting on the same database stored this configured key (or its user) first: use it.
      if (key !== undefined && e instanceof StorageConflict)
        return this.create(permissions, description, key, username);
      throw e;
    }
  }

  /** A new token of `userId`'s: its rights are the user's (read-only ones when `write_enabled` is false). */
  async createForUser(userId: string, opts: TokenOptions = {}): Promise<{ key: string; row: Row }> {
    const key = randomBytes(20).toString('hex');
    const now = new Date().toISOString();
    const row: Row = {
      id: (await this.storage.newIds('token', 1))[0],
      created: now,
      last_updated: now,
      key_hash: hashKey(key),
      key_tail: key.slice(-4),
      permissions: [],
      description: opts.description ?? '',
      user: userId,
      expires: opts.expires ?? null,
      write_enabled: opts.write_enabled ?? true,
    };
    await this.storage.apply([{ op: 'create', resource: 'token', row }]);
    return { key, row };
  }

  /**
   * Tokens of an earlier release (a permission list, no user) each given a user holding that list
   * (`token-<id>`), once, at start; another process doing the same at once makes one of the two
   * batches fail whole (the username is unique), and that token is then left as the other made it.
   */
  async giveUsersToOldTokens(): Promise<number> {
    let n = 0;
    for (const t of await allRows(this.storage, 'token')) {
      if (t.user !== null && t.user !== undefined) continue;
      const { userId, ops } = await legacyUserOps(this.storage, `token-${t.id}`, (t.permissions as string[]) ?? []);
      const row = { ...t, user: userId, last_updated: new Date().toISOString() };
      try {
        await this.storage.apply([...ops, { op: 'update', resource: 'token', row, before: t }]);
        n++;
      } catch (e) {
        if (!(e instanceof StorageConflict)) throw e;
      }
    }
    return n;
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
