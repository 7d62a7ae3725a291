// What this process keeps in memory of rows few writes change (token checks, custom field
// definitions), and when the change log says to forget it: a cache registers the content types its
// answers come from, and is dropped once a record of one of them has been written past what it read.
// One watch per store, shared by every such cache: one reading of the log serves them all.
// - This process's own commits say what they wrote (noteCommitted): a record of a watched type drops
//   at once, any other costs nothing (no read of the database for a write of this process).
// - Another process's commit announced to this one (PostgreSQL's NOTIFY, its seq only) is looked at
//   before the next answer: by the replica's follower, which reads those records anyway
//   (READ_REPLICA=memory), else by a reading of the log here.
// - Besides, the log is read at least every `recheckMs`: how long another process's change may go
//   unseen where nothing announces it (MySQL and MariaDB), and the bound of a lost notification.
import { cmp, and } from '../../engine/plan/nodes.js';
import { CHANGE_RESOURCE } from '../../engine/changes/change-records.js';
import { onCommitted } from './change-feed.js';
import type { Storage } from '../types.js';

/** A follower of the log in this process that reports what it has looked at (the replica's). */
export interface LogReader {
  /** Resolves true once every record up to `seq` has been reported, false after `ms`. */
  reach(seq: number, ms: number): Promise<boolean>;
}

/**
 * How long an answer waits for the replica's follower to get past an announced commit before
 * reading the log itself (ms).
 */
const FOLLOWER_WAIT_MS = 100;
/**
 * Own commits remembered (the last this many) to tell their announcements (NOTIFY, which comes
 * back to this process too, once per listening store) from another's.
 */
const OWN_KEPT = 1000;

interface Watcher {
  readonly types: ReadonlySet<string>;
  readonly drop: () => void;
}

export class ChangeWatch {
  /** Every record up to this seq has been looked at (-1: nothing yet, every cache is suspect). */
  private seen = -1;
  /** When the last reading that found every record committed before it began (performance.now()). */
  private readAt = -Infinity;
  /**
   * Seqs announced by other processes' commits, not looked at yet. An announcement of this
   * process's own commit may come before the commit's answer: it is taken out when that comes.
   */
  private readonly announced = new Set<number>();
  /** This process's own commits' seqs whose announcement has not come back yet. */
  private readonly own = new Set<number>();
  private readonly watchers = new Set<Watcher>();
  private reading: Promise<void> | null = null;
  private follower: LogReader | null = null;
  /**
   * Listening to this process's announcements while anyone watches (a store's watch then lives as
   * long as it is used).
   */
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly storage: Storage,
    public recheckMs: number,
  ) {}

  /** `drop` runs whenever a record of one of `types` may have been written since; returns the unsubscribe. */
  watch(types: ReadonlySet<string>, drop: () => void): () => void {
    const w = { types, drop };
    if (!this.watchers.size) this.listen();
    this.watchers.add(w);
    return () => {
      this.watchers.delete(w);
      if (!this.watchers.size) {
        this.unsubscribe?.();
        this.unsubscribe = null;
      }
    };
  }

  private listen(): void {
    // Nothing was heard while no one listened: every record is to be looked at again.
    this.seen = -1;
    this.own.clear();
    this.announced.clear();
    this.unsubscribe = onCommitted((seq, own) => {
      // What any store of this process wrote drops at once (dropping more than needed is safe).
      if (own) this.dropFor(own.types);
      if (own?.store === this.storage) {
        this.announced.delete(seq);
        if (this.own.add(seq).size > OWN_KEPT) this.own.delete(this.own.values().next().value!);
      } else if (!this.own.has(seq) && seq > this.seen) this.announced.add(seq);
    });
  }

  /** The replica's follower reports what it looks at (`looked`); checks then wait for it instead of reading. */
  followedBy(reader: LogReader): void {
    this.follower = reader;
  }

  /**
   * Every record up to `seq` has been looked at, types `types` among them ('all': not known, as
   * after a reload); `readAt` (performance.now()), when the reading began, if it found every
   * record committed before then.
   */
  looked(seq: number, types: ReadonlySet<string> | 'all', readAt?: number): void {
    if (types === 'all') for (const w of this.watchers) w.drop();
    else this.dropFor(types);
    if (seq > this.seen) this.seen = seq;
    for (const a of this.announced) if (a <= this.seen) this.announced.delete(a);
    if (readAt !== undefined && readAt > this.readAt) this.readAt = readAt;
  }

  /**
   * Resolves once the caches may answer: every commit announced so far (and `minSeq`, a read's
   * X-Min-Change-Seq) looked at, by a reading that began at most recheckMs ago (with 0: after this call).
   */
  async fresh(minSeq = 0): Promise<void> {
    // A store only this process writes (memory:) announces every change as its own.
    if (this.storage.kind === 'memory') return;
    let need = minSeq;
    for (const a of this.announced) if (a > need) need = a;
    const since = performance.now() - this.recheckMs;
    while (this.seen < need || this.readAt < since) {
      if (
        this.follower &&
        this.readAt >= since &&
        (await this.follower.reach(need, FOLLOWER_WAIT_MS)) &&
        this.seen >= need
      )
        continue;
      const at = performance.now();
      await this.readLog();
      // A reading begun after this check found every record there is (a minSeq past them is not written yet).
      if (this.readAt >= at) return;
    }
  }

  private dropFor(types: ReadonlySet<string>): void {
    for (const w of this.watchers)
      for (const t of w.types)
        if (types.has(t)) {
          w.drop();
          break;
        }
  }

  /** One reading of the log at a time: every check waiting meanwhile shares it. */
  private readLog(): Promise<void> {
    this.reading ??= this.recordsSince().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async recordsSince(): Promise<void> {
    const at = performance.now();
    const from = this.seen;
    // The counter first: every record up to it is committed, so the read after it misses none.
    const seq = await this.storage.changeSeq();
    if (seq < from) {
      this.seen = -1;
      this.looked(seq, 'all', at);
      return;
    } // a counter gone back: another database
    if (seq > from || from < 0) {
      const types = new Set<string>();
      for (const w of this.watchers) for (const t of w.types) types.add(t);
      // Whether any watched record came: which one is not asked (they are rare), every cache drops.
      const changed =
        from < 0 ||
        (types.size > 0 &&
          (
            await this.storage.find(
              CHANGE_RESOURCE,
              and([
                cmp('seq', 'number', 'gt', false, [from]),
                cmp('seq', 'number', 'lte', false, [seq]),
                cmp('changed_object_type', 'string', 'eq', false, [...types]),
              ]),
              { limit: 1, offset: 0, ordering: [] },
              { noCount: true },
            )
          ).rows.length > 0);
      this.looked(seq, changed ? 'all' : new Set(), at);
    } else this.looked(from, new Set(), at);
  }
}

/** The one watch of each store (its authority: the database behind a replica). */
const watches = new WeakMap<Storage, ChangeWatch>();
/** The one watch of `storage`; the shortest `recheckMs` any user asked for holds. */
export function changeWatch(storage: Storage, recheckMs: number): ChangeWatch {
  let w = watches.get(storage);
  if (!w) watches.set(storage, (w = new ChangeWatch(storage, recheckMs)));
  w.recheckMs = Math.min(w.recheckMs, recheckMs);
  return w;
}
