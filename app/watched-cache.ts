// Values read from the store and kept in this process's memory until the change log says to forget
// them (storage/change-log/change-watch.ts): once a record of one of the watched content types has
// been written past what was read, every value is dropped and read again when next asked for.
// Another process's change is seen within `recheckMs` at most. Token checks and custom field
// definitions are kept so.
import { LRUCache } from 'lru-cache';
import { changeWatch, type ChangeWatch } from '../storage/change-log/change-watch.js';
import type { Storage } from '../storage/types.js';

export class WatchedCache<V> {
  private readonly kept: LRUCache<string, { readonly value: V }>;
  /** Bumped whenever values are dropped: a read begun before it must not be kept. */
  private generation = 0;
  private readonly watch: ChangeWatch;
  private readonly unwatch: () => void;

  constructor(storage: Storage, recheckMs: number, types: ReadonlySet<string>, max: number) {
    this.kept = new LRUCache({ max });
    this.watch = changeWatch(storage, recheckMs);
    this.unwatch = this.watch.watch(types, () => {
      this.kept.clear();
      this.generation++;
    });
  }

  /**
   * `key`'s value: from memory while no watched record was written, else `load` (and kept, unless
   * dropped meanwhile). `minSeq`: a change the caller must see (X-Min-Change-Seq); `again`: load anyway.
   */
  async get(key: string, load: () => Promise<V>, opts: { minSeq?: number; again?: boolean } = {}): Promise<V> {
    await this.watch.fresh(opts.minSeq);
    const hit = opts.again ? undefined : this.kept.get(key);
    if (hit) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) this.kept.set(key, { value });
    return value;
  }

  /** Stops following the change log. */
  close(): void {
    this.unwatch();
  }
}
