// Which keys are valid, answered from this process's memory: no query per request. The change log
// says when to forget (change-watch.ts): once a token record (a token created, changed or deleted
// by any process) has been written past what was read, every answer is dropped and read again
// from the store. Another process's change is seen within `recheckMs` at most.
import { LRUCache } from 'lru-cache';
import { contentType, resource } from '../engine/schema/registry.js';
import { changeWatch, type ChangeWatch } from '../storage/change-log/change-watch.js';
import type { Storage } from '../storage/types.js';

const TOKEN_TYPES: ReadonlySet<string> = new Set([contentType(resource('token'))]);

export class TokenCache<T> {
  /** Key hash -> the answer (null: no such token). */
  private readonly answers = new LRUCache<string, { readonly value: T | null }>({ max: 10000 });
  /** Bumped whenever answers are dropped: a read begun before it must not be kept. */
  private generation = 0;
  private readonly watch: ChangeWatch;
  private readonly unwatch: () => void;

  constructor(storage: Storage, recheckMs: number) {
    this.watch = changeWatch(storage, recheckMs);
    this.unwatch = this.watch.watch(TOKEN_TYPES, () => {
      this.answers.clear();
      this.generation++;
    });
  }

  /** The answer for `hash`: from memory while no token changed, else `load` (and remembered). */
  async get(hash: string, load: () => Promise<T | null>): Promise<T | null> {
    await this.watch.fresh();
    const hit = this.answers.get(hash);
    if (hit) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) this.answers.set(hash, { value });
    return value;
  }

  close(): void {
    this.unwatch();
  }
}
