// Following the change log: records after a seq, in seq order, and a wake-up when there may be
// more. Writes of this process wake followers at once (noteCommitted, called by each store after a
// batch commits); writes of other processes on the same database are seen by polling the counter
// (one indexed row: cheap). Used by the event stream and the webhook outbox.
import { EventEmitter } from 'node:events';
import { and, cmp, TRUE, type Plan } from '../../engine/plan/nodes.js';
import { CHANGE_RESOURCE } from '../../engine/changes/change-records.js';
import type { Row, Storage, WriteOp } from '../types.js';

const committed = new EventEmitter();
committed.setMaxListeners(0);

/** A commit made by this process: the store it went through, and the types its change records name. */
export interface OwnCommit {
  readonly store: object;
  readonly types: ReadonlySet<string>;
}

/**
 * Called by a store after a batch that took numbers committed: followers in this process wake.
 * `own`: the store's own write (what it wrote is known); without it, another process's commit
 * announced to this one (PostgreSQL's NOTIFY), of which only the seq is known.
 */
export function noteCommitted(seq: number, own?: OwnCommit): void {
  committed.emit('seq', seq, own);
}

/** The content types a logged batch's change records name. */
export function typesWritten(batch: readonly WriteOp[]): Set<string> {
  const types = new Set<string>();
  for (const o of batch)
    if (o.op === 'create' && o.resource === CHANGE_RESOURCE) types.add(String(o.row.changed_object_type));
  return types;
}

/**
 * `fn` runs at every commit announced to this process (its own, and others' where notified);
 * returns the unsubscribe.
 */
export function onCommitted(fn: (seq: number, own: OwnCommit | undefined) => void): () => void {
  committed.on('seq', fn);
  return () => {
    committed.off('seq', fn);
  };
}

export interface FeedOptions {
  /** How often the counter is read for other processes' writes (ms). */
  readonly pollMs?: number;
  /**
   * Every commit on the database is announced in this process (PostgreSQL's notifications): a wait
   * starts without reading the counter; the counter is read every pollMs only in case an
   * announcement was lost. Saves a round trip per wait.
   */
  readonly announced?: boolean;
}

/** waitAfter's options. */
export interface WaitOptions {
  /**
   * The caller has just read the log up to `after`: the counter is first read after pollMs, not at
   * once (where nothing announces other processes' commits, a read at once would find what the
   * caller's read found). Commits announced in this process still wake it at once.
   */
  readonly justRead?: boolean;
  /**
   * Ends the wait after this many ms (resolving null) instead of reading the counter: for a caller
   * whose next read of the log costs no more than a read of the counter, and finds the records too.
   */
  readonly readInsteadAfterMs?: number;
}

export class ChangeFeed {
  private readonly pollMs: number;
  /** Who waits, and for a seq past what. One poll of the counter serves them all. */
  private readonly waiters = new Set<{ readonly after: number; wake: (seen: number | null) => void }>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private pollAgain = false;
  private readonly announced: boolean;
  /**
   * The highest seq announced in this process (its own commits; on announced feeds every
   * process's), and what it was when the last read began. A wait after a seq below an announcement
   * made since then ends at once, with no read of the counter; one made before it was read already
   * (announcements from another database of this process, in tests, cannot make a reader spin).
   */
  private announcedSeq = 0;
  private readFrom = 0;
  private readonly onAnnounced = (seq: number) => {
    if (seq > this.announcedSeq) this.announcedSeq = seq;
  };

  constructor(
    private readonly storage: Storage,
    opts: FeedOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 250;
    this.announced = opts.announced ?? false;
    committed.on('seq', this.onAnnounced);
  }

  /** Stops listening for announcements. */
  close(): void {
    committed.off('seq', this.onAnnounced);
  }

  /** Up to `limit` records with seq > after (and matching `plan`), in seq order. */
  async read(after: number, limit: number, plan: Plan = TRUE): Promise<Row[]> {
    this.readFrom = this.announcedSeq;
    const where = and([cmp('seq', 'number', 'gt', false, [after]), plan]);
    const got = await this.storage.find(
      CHANGE_RESOURCE,
      where,
      { limit, offset: 0, ordering: [{ field: 'seq', desc: false }] },
      { noCount: true },
    );
    return [...got.rows];
  }

  /** The last seq handed out. */
  current(): Promise<number> {
    return this.storage.changeSeq();
  }

  /**
   * Resolves once the log may hold a record after `after` (a local commit, or the counter past it),
   * with the seq seen then (every record up to it is committed and visible), or null when `signal`
   * aborts or `readInsteadAfterMs` passed. Spurious wake-ups are allowed: the caller reads and waits again.
   * However many wait (an event stream each, the webhook outbox), the counter is read by one poll
   * at a time: at once when someone starts waiting (a commit may have come since the caller read),
   * then every pollMs while anyone waits. An announced feed skips the read at the start (see
   * FeedOptions.announced), and so does a wait `justRead` (WaitOptions). A wait for a seq already
   * announced in this process resolves at once, with that seq.
   */
  waitAfter(after: number, signal?: AbortSignal, opts: WaitOptions = {}): Promise<number | null> {
    return new Promise((resolve) => {
      if (signal?.aborted) {
        resolve(null);
        return;
      }
      // Taken once: a caller that finds nothing new (or reads nothing) waits for the next one.
      if (this.announcedSeq > after && this.announcedSeq > this.readFrom) {
        this.readFrom = this.announcedSeq;
        resolve(this.announcedSeq);
        return;
      }
      const waiter = {
        after,
        wake: (seen: number | null) => {
          this.waiters.delete(waiter);
          committed.off('seq', onSeq);
          signal?.removeEventListener('abort', onAbort);
          if (!this.waiters.size && this.timer) {
            clearTimeout(this.timer);
            this.timer = null;
          }
          resolve(seen);
        },
      };
      const onSeq = (seq: number) => {
        if (seq > after) waiter.wake(seq);
      };
      const onAbort = () => waiter.wake(null);
      committed.on('seq', onSeq);
      signal?.addEventListener('abort', onAbort);
      this.waiters.add(waiter);
      if (opts.readInsteadAfterMs !== undefined) {
        const t = setTimeout(() => waiter.wake(null), opts.readInsteadAfterMs);
        const wake = waiter.wake;
        waiter.wake = (seen) => {
          clearTimeout(t);
          wake(seen);
        };
        return;
      }
      if (!this.announced && !opts.justRead) {
        this.pollSoon();
        return;
      }
      // Else the announcement will come; the counter is read after pollMs in case it does not.
      if (!this.timer && !this.polling)
        this.timer = setTimeout(() => {
          this.timer = null;
          this.pollSoon();
        }, this.pollMs);
    });
  }

  /** Read the counter now, or right after the read under way. */
  private pollSoon(): void {
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.polling = true;
    const settle = (n: number | null) => {
      if (n !== null) for (const w of [...this.waiters]) if (n > w.after) w.wake(n);
      this.polling = false;
      if (this.pollAgain) {
        this.pollAgain = false;
        this.pollSoon();
        return;
      }
      if (this.waiters.size && !this.timer)
        this.timer = setTimeout(() => {
          this.timer = null;
          this.pollSoon();
        }, this.pollMs);
    };
    this.storage.changeSeq().then(settle, () => settle(null));
  }
}
