// Idempotency-Key on inventory writes. A key is scoped to (token, method, path): the same client
// key on another URL, or from another token, is another key. Its row is written in the same batch
// as the write it answers, so it exists if and only if the write committed, in every process on
// the store; a retry finds it and gets the first answer without writing anything. The row first
// holds the written objects' ids; once the answer is sent it holds the answer itself.
import { createHash, randomUUID } from 'node:crypto';
import { cmp } from '../engine/plan/nodes.js';
import type { Row, Storage, WriteOp } from '../storage/types.js';

const RESOURCE = 'idempotency';
/** Stored keys of inventory writes start so (lifecycle keys start with their operation). */
const SCOPE = 'inv:';
/** Keys a client may send: as on the lifecycle API. */
export const MAX_KEY_LENGTH = 128;
const PRUNE_BATCH = 1000;

export interface KeyedWrite {
  /** The stored key: the scope hashed with the client's key. */
  readonly stored: string;
  /** The request body's hash: the same key with another body is refused. */
  readonly hash: string;
  /** The id the key's row gets. */
  readonly rowId: string;
  /**
   * The status of the answer the write gets once committed: the caller's (the server's) word,
   * kept in the key's row as it gave it, for a replay.
   */
  readonly answer: number;
  /** A row of this key past its time to live, deleted in the write's batch. */
  expired: Row | null;
}

/** What a key's row says: the answer to give again, or the objects whose answer is to be built again. */
export type Replay =
  | { readonly kind: 'none' }
  | { readonly kind: 'other_body' }
  | { readonly kind: 'answer'; readonly status: number; readonly body: unknown }
  | { readonly kind: 'objects'; readonly status: number; readonly ids: readonly string[] };

interface StoredResponse {
  readonly body?: unknown;
  readonly ids?: readonly string[];
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export class WriteKeys {
  constructor(
    private readonly storage: Storage,
    private readonly ttlMs: number,
  ) {}

  /**
   * The key of a write by `token` with the client's `key`, for `method` on `path` with `body`;
   * `answer`: the status its answer will have (kept for a replay).
   */
  keyOf(token: string, method: string, path: string, key: string, body: unknown, answer: number): KeyedWrite {
    return {
      answer,
      stored: SCOPE + sha256(JSON.stringify([token, method.toUpperCase(), path, key])),
      hash: sha256(JSON.stringify(body ?? null)),
      rowId: randomUUID(),
      expired: null,
    };
  }

  async replay(k: KeyedWrite, now = Date.now()): Promise<Replay> {
    const [row] = await this.storage.findBy(RESOURCE, 'key', k.stored);
    if (!row) return { kind: 'none' };
    if (this.ttlMs > 0 && Date.parse(String(row.created)) + this.ttlMs <= now) {
      k.expired = row;
      return { kind: 'none' };
    }
    if (row.request_hash !== k.hash) return { kind: 'other_body' };
    const status = Number(row.status);
    const response = (row.response ?? {}) as StoredResponse;
    return 'body' in response
      ? { kind: 'answer', status, body: response.body }
      : { kind: 'objects', status, ids: response.ids ?? [] };
  }

  /** The key's row (and the removal of its expired predecessor), for the batch of the write it answers. */
  opsFor(k: KeyedWrite, ids: readonly string[]): WriteOp[] {
    const now = new Date().toISOString();
    const row: Row = {
      id: k.rowId,
      created: now,
      last_updated: now,
      key: k.stored,
      request_hash: k.hash,
      status: k.answer,
      response: { ids },
    };
    return [
      ...(k.expired ? [{ op: 'delete', resource: RESOURCE, id: k.expired.id } as const] : []),
      { op: 'create', resource: RESOURCE, row },
    ];
  }

  /** Keeps the answer sent for the key's write. Best effort: without it a replay builds the answer again. */
  async remember(k: KeyedWrite, status: number, ids: readonly string[], body: unknown): Promise<void> {
    const [row] = await this.storage.getMany(RESOURCE, [k.rowId]);
    if (!row) return;
    await this.storage.apply(
      [
        {
          op: 'update',
          resource: RESOURCE,
          row: { ...row, status, response: { ids, body }, last_updated: new Date().toISOString() },
        },
      ],
      { log: false },
    );
  }

  /** Deletes inventory keys past their time to live; how many. */
  async prune(now = Date.now()): Promise<number> {
    if (this.ttlMs <= 0) return 0;
    const before = new Date(now - this.ttlMs).toISOString();
    let deleted = 0;
    // Lifecycle keys (kept whatever their age) stay where they are: skipped past, not deleted.
    for (let skipped = 0; ;) {
      const { rows } = await this.storage.find(
        RESOURCE,
        cmp('created', 'datetime', 'lt', false, [before]),
        {
          limit: PRUNE_BATCH,
          offset: skipped,
          ordering: [
            { field: 'created', desc: false },
            { field: 'id', desc: false },
          ],
        },
        { noCount: true },
      );
      const ours = rows.filter((r) => String(r.key).startsWith(SCOPE));
      if (ours.length)
        await this.storage.apply(
          ours.map((r) => ({ op: 'delete', resource: RESOURCE, id: r.id })),
          { log: false },
        );
      deleted += ours.length;
      skipped += rows.length - ours.length;
      if (rows.length < PRUNE_BATCH) return deleted;
    }
  }
}
