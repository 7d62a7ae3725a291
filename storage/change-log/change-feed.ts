// Following the change log: records after a seq, in seq order, and a wake-up when there may be
// more. Writes of this process wake followers at once (noteCommitted, called by each store after a
// batch commits); writes of other processes on the same database are seen by polling the counter
// (one indexed row: cheap). Used by the event stream and the webhook outbox.
import { EventEmitter } from 'node:events';
import { and, cmp, TRUE, type Plan } from '../../engine/plan/nodes.js';
import { CHANGE_RESOURCE } from '../../engine/changes/change-records.js';
import type { Row, Storage } from '../types.js';

const committed = new EventEmitter();
committed.setMaxListeners(0);

/** Called by a store after a batch that took numbers committed: followers in this process wake. */
export function noteCommitted(seq: number): void {
  committed.emit('seq', seq);
}

export interface FeedOptions {
  /** How often the counter is read for other processes' writes (ms). */
  readonly pollMs?: number;
}

export class ChangeFeed {
  private readonly pollMs: number;

  constructor(private readonly storage: Storage, opts: FeedOptions = {}) {
    this.pollMs = opts.pollMs ?? 250;
  }

  /** Up to `limit` records with seq > after (and matching `plan`), in seq order. */
  async read(after: number, limit: number, plan: Plan = TRUE): Promise<Row[]> {
    const where = and([cmp('seq', 'number', 'gt', false, [after]), plan]);
    const got = await this.storage.find(CHANGE_RESOURCE, where, { limit, offset: 0, ordering: [{ field: 'seq', desc: false }] }, { noCount: true });
    return [...got.rows];
  }

  /** The last seq handed out. */
  current(): Promise<number> {
    return this.storage.changeSeq();
  }

  /**
   * Resolves once the log may hold a record after `after` (a local commit, or the counter past it),
   * or when `signal` aborts. Spurious wake-ups are allowed: the caller reads and waits again.
   */
  waitAfter(after: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | null = null;
      const done = () => {
        committed.off('seq', onSeq);
        signal?.removeEventListener('abort', done);
        if (timer) clearTimeout(timer);
        resolve();
      };
      const onSeq = (seq: number) => { if (seq > after) done(); };
      const poll = () => {
        this.storage.changeSeq().then((n) => { if (n > after) done(); else timer = setTimeout(poll, this.pollMs); }, () => { timer = setTimeout(poll, this.pollMs); });
      };
      if (signal?.aborted) { resolve(); return; }
      committed.on('seq', onSeq);
      signal?.addEventListener('abort', done);
      poll();
    });
  }
}
