// API tokens: keys are random, stored as hashes (app/token-keys.ts: v1 SHA-256, v2 HMAC with a
// pepper); the key itself is returned once.
import { LRUCache } from 'lru-cache';
import type { Cidr } from '../engine/net/ip.js';
import { StorageConflict, versionOf, type Row, type Storage } from '../storage/types.js';
import { authority } from '../storage/replica/replicated-storage.js';
import { contentType, resource } from '../engine/schema/registry.js';
import { WatchedCache } from './watched-cache.js';
import { allRows, principalOf, type Principal } from './principal.js';
import { legacyUserOps } from './legacy-users.js';
import {
  currentPepper,
  hashKey,
  newV1Key,
  newV2Key,
  v2Matches,
  v2Parts,
  type NewKey,
  type Peppers,
} from './token-keys.js';

/** How long (ms) a token change made through another process may go unseen where nothing announces it (MySQL). */
export const DEFAULT_TOKEN_RECHECK_MS = 250;

export { tokenDisplay, type Principal } from './principal.js';

/** Token checks are dropped when a record of a token, or of what its rights come from (its user, groups
 * and object permissions), is written (created, changed or deleted by any process). */
const TOKEN_TYPES: ReadonlySet<string> = new Set(
  ['token', 'user', 'group', 'object_permission'].map((n) => contentType(resource(n))),
);

export { hashKey } from './token-keys.js';

/** last_used is written at most this often per token (ms), and never as a change record. */
export const LAST_USED_EVERY_MS = 60_000;

/** What a token of a user's is made with besides its user. */
export interface TokenOptions {
  readonly description?: string;
  /** ISO 8601, UTC; null or absent: never expires. */
  readonly expires?: string | null;
  readonly write_enabled?: boolean;
  /** Networks as CIDR text (checked by the caller); empty or absent: anywhere. */
  readonly allowed_ips?: readonly string[];
  readonly enabled?: boolean;
  /** 1 or 2; absent: 2 when a pepper is configured, else 1. */
  readonly version?: 1 | 2;
}

/** A new token: its row, the plaintext key (`Token`/`Bearer` …) and the secret part (NetBox's `token`). */
export interface MadeToken {
  readonly key: string;
  readonly secret: string;
  readonly row: Row;
}

export class Tokens {
  // A key's hash never changes, so it is computed once per key; whether the key is valid is
  // answered from memory (key hash -> the principal, null: no such token) until the change log
  // shows a token changed (watched-cache.ts): no query per request.
  private readonly hashes = new LRUCache<string, string>({ max: 1000 });
  private readonly checks: WatchedCache<Principal | null>;
  /** When this process last wrote a token's last_used (ms), by token id. */
  private readonly used = new LRUCache<string, number>({ max: 10000 });

  constructor(
    private readonly storage: Storage,
    recheckMs = DEFAULT_TOKEN_RECHECK_MS,
    /** API_TOKEN_PEPPERS: set, new tokens are v2. */
    readonly peppers: Peppers = {},
    /** TRUSTED_PROXIES: peers whose X-Forwarded-For says who the client is. */
    readonly trusted: readonly Cidr[] = [],
  ) {
    this.checks = new WatchedCache(authority(storage), recheckMs, TOKEN_TYPES, 10000);
  }

  /** The principal of a presented key (v2 `nbt_…` or v1), or null: unknown, expired, disabled, or its user inactive. */
  async authenticate(key: string): Promise<Principal | null> {
    let hash = this.hashes.get(key);
    if (hash === undefined) {
      hash = hashKey(key);
      this.hashes.set(key, hash);
    }
    const known = hash;
    // Read from the database itself, never a replica that may not have applied a revoke yet.
    const p = await this.checks.get(known, async () => {
      const row = await this.find(key, known);
      return row ? principalOf(authority(this.storage), row) : null;
    });
    if (!p || (p.expiresAt !== null && p.expiresAt <= Date.now())) return null;
    this.noteUse(p.tokenId);
    return p;
  }

  private async find(key: string, hash: string): Promise<Row | undefined> {
    const v2 = v2Parts(key);
    if (v2) {
      const rows = await authority(this.storage).findBy('token', 'key_id', v2.keyId);
      const row = rows.find((r) => v2Matches(this.peppers, r as Record<string, unknown>, v2.secret));
      if (row) return row;
    }
    const [row] = await authority(this.storage).findBy('token', 'key_hash', hash);
    return row && !row.key_id ? row : undefined;
  }

  /**
   * last_used, at most once a minute per token: written after the request's answer, compare-and-swapped on
   * the row's version (a change made meanwhile wins; the next minute tries again) and without a change
   * record, so it neither fills the change log nor drops the cached token checks.
   */
  private noteUse(tokenId: string): void {
    const now = Date.now();
    if (now - (this.used.get(tokenId) ?? 0) < LAST_USED_EVERY_MS) return;
    this.used.set(tokenId, now);
    const db = authority(this.storage);
    void (async () => {
      const row = await db.get('token', tokenId);
      if (!row) return;
      const next = { ...row, last_used: new Date(now).toISOString(), version: versionOf(row) + 1 };
      await db.apply([{ op: 'update', resource: 'token', row: next, before: row, expectVersion: versionOf(row) }], {
        log: false,
      });
    })().catch(() => this.used.delete(tokenId));
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
  async create(permissions: readonly string[], description = '', key?: string, username?: string): Promise<MadeToken> {
    const made = newV1Key(key);
    const [existing] = await this.storage.findBy('token', 'key_hash', made.stored.key_hash);
    const id = existing?.id ?? (await this.storage.newIds('token', 1))[0];
    try {
      const { userId, ops } = await legacyUserOps(this.storage, username ?? `token-${id}`, permissions);
      const now = new Date().toISOString();
      const fields = { permissions: [...permissions], description, user: userId };
      const done = { key: made.plaintext, secret: made.secret };
      if (existing) {
        const same = Object.entries(fields).every(([f, v]) => JSON.stringify(existing[f]) === JSON.stringify(v));
        if (same && !ops.length) return { ...done, row: existing };
        const kept = {
          expires: existing.expires ?? null,
          write_enabled: existing.write_enabled ?? true,
          allowed_ips: existing.allowed_ips ?? [],
          enabled: existing.enabled ?? true,
          last_used: existing.last_used ?? null,
        };
        const row = { ...existing, ...fields, ...kept, last_updated: now, version: versionOf(existing) + 1 };
        const expectVersion = versionOf(existing);
        await this.storage.apply([...ops, { op: 'update', resource: 'token', row, before: existing, expectVersion }]);
        return { ...done, row };
      }
      const row = tokenRow(id, now, made, { ...fields });
      await this.storage.apply([...ops, { op: 'create', resource: 'token', row }]);
      return { ...done, row };
    } catch (e) {
      // Another process starting on the same database stored this configured key (or its user) first: use it.
      if (key !== undefined && e instanceof StorageConflict)
        return this.create(permissions, description, key, username);
      throw e;
    }
  }

  /** Which form a new token takes: as asked, else v2 when a pepper is configured. Null: v2 asked, no pepper. */
  keyFor(version: 1 | 2 | undefined): NewKey | null {
    const pepper = currentPepper(this.peppers);
    if (version === 1 || (version === undefined && !pepper)) return newV1Key();
    return pepper ? newV2Key(pepper) : null;
  }

  /** A new token of `userId`'s: its rights are the user's (read-only ones when `write_enabled` is false). */
  async createForUser(userId: string, opts: TokenOptions = {}): Promise<MadeToken> {
    const made = this.keyFor(opts.version);
    if (!made) throw new Error('version 2 tokens need API_TOKEN_PEPPERS (checked by the routes)');
    const row = tokenRow((await this.storage.newIds('token', 1))[0], new Date().toISOString(), made, {
      permissions: [],
      description: opts.description ?? '',
      user: userId,
      expires: opts.expires ?? null,
      write_enabled: opts.write_enabled ?? true,
      allowed_ips: [...(opts.allowed_ips ?? [])],
      enabled: opts.enabled ?? true,
    });
    await this.storage.apply([{ op: 'create', resource: 'token', row }]);
    return { key: made.plaintext, secret: made.secret, row };
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

/** A new token's row: every field written, as a database's columns hold them (a copy compares rows whole). */
function tokenRow(id: string, now: string, made: NewKey, fields: Record<string, unknown>): Row {
  return {
    created: now,
    last_updated: now,
    version: 1,
    ...made.stored,
    expires: null,
    write_enabled: true,
    allowed_ips: [],
    enabled: true,
    last_used: null,
    ...fields,
    id,
  } as Row;
}

/** `dcim.view_site` granted by `*` or by the exact permission. */
export function allows(p: Principal, permission: string): boolean {
  return p.permissions.includes('*') || p.permissions.includes(permission);
}
