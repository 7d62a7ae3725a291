// Which keys are valid, answered from this process's memory: no query per request. The change log
// says when to forget: once a token record (a token created, changed or deleted by any process)
// has been written past what was read, every answer is dropped and read again from the store.
// A commit announced to this process (its own, and on PostgreSQL every process's, by NOTIFY) is
// looked at before the next check is answered; besides, the log is read at least every
// `recheckMs`: that is how long another process's change may go unseen where nothing announces
// it (MySQL and MariaDB), and the bound of a lost notification on PostgreSQL.
import { LRUCache } from 'lru-cache';
import { and, cmp } from '../../engine/plan/nodes.js';
import { CHANGE_RESOURCE } from '../../engine/changes/change-records.js';
import { contentType, resource } from '../../engine/schema/registry.js';
import { onCommitted } from '../change-log/change-feed.js';
import type { Storage } from '../types.js';

const TOKEN_TYPE = contentType(resource('token'));

export class TokenCache<T> {
  /** Key hash -> the answer (null: no such token). */
  private readonly answers = new LRUCache<string, { readonly value: T | null }>({ max: 10000 });
  /** Bumped whenever answers are dropped: a read begun before it must not be kept. */
  private generation = 0;
  /** Commits announced so far, and how many of them the last completed reading of the log covers. */
  private announced = 0;
  private covered = -1;
  /** The change seq up to which token records have been looked for (-1: not yet). */
  private seen = -1;
  /** When the last completed reading began (performance.now()). */
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;
  private readonly unsubscribe: () => void;

  constructor(private readonly storage: Storage, private readonly recheckMs: number) {
    this.unsubscribe = onCommitted(() => { this.announced++; });
  }

  /** The answer for `hash`: from memory while no token changed, else `load` (and remembered). */
  async get(hash: string, load: () => Promise<T | null>): Promise<T | null> {
    // Fresh enough: a reading of the log that covers every commit announced so far and began at
    // most recheckMs ago (with 0: one that began after this check did).
    const need = this.announced;
    const since = performance.now() - this.recheckMs;
    while (this.covered < need || this.readAt < since) await this.readLog();
    const hit = this.answers.get(hash);
    if (hit) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) this.answers.set(hash, { value });
    return value;
  }

  close(): void { this.unsubscribe(); }

  /** One reading of the log at a time: every check waiting meanwhile shares it. */
  private readLog(): Promise<void> {
    this.reading ??= this.tokenRecordsSince().finally(() => { this.reading = null; });
    return this.reading;
  }

  private async tokenRecordsSince(): Promise<void> {
    const upTo = this.announced;
    const at = performance.now();
    // The counter first: every record up to it is committed, so the read after it misses none.
    const seq = await this.storage.changeSeq();
    if (seq !== this.seen) {
      const changed = this.seen < 0 || seq < this.seen || (await this.storage.find(CHANGE_RESOURCE,
        and([cmp('seq', 'number', 'gt', false, [this.seen]), cmp('seq', 'number', 'lte', false, [seq]), cmp('changed_object_type', 'string', 'eq', false, [TOKEN_TYPE])]),
        { limit: 1, offset: 0, ordering: [] }, { noCount: true })).rows.length > 0;
      if (changed) { this.answers.clear(); this.generation++; }
      this.seen = seq;
    }
    this.covered = upTo;
    this.readAt = at;
  }
}
