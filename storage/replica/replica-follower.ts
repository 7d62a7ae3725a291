// A replica's life: load every replicated table from one consistent snapshot of the database (the
// seq it holds comes with it), then follow the change log from that seq, applying each record in
// order: the object's row as the database holds it now is read and put in place (a later state is
// fine: its own record follows and reads it again), a delete removes it. Every record read in one
// step is applied together (one read of the log, one of the rows per resource): under a stream of
// writes a step takes what came meanwhile. A write of this process is put in place from the write
// itself as it commits, when the records before it are applied (applyOwn). A gap in the log (records
// pruned before this process read them) means the replica can no longer be trusted: it reloads.
// The load may read a streaming standby of the database (READ_REPLICA_LOAD_URL): its counter says
// which seq its rows hold, and the log is followed on the primary from there, unless the primary's
// log no longer holds the records after it (the standby fell too far behind): then the standby's
// snapshot is refused, said so in one line, and the primary is read instead.
import { contentType, findResource, RESOURCES } from '../../engine/schema/registry.js';
import { rowAsStored } from '../../engine/changes/row-as-stored.js';
import { CHANGE_RESOURCE, isLogged } from '../../engine/changes/change-records.js';
import { ChangeFeed } from '../change-log/change-feed.js';
import type { ChangeWatch } from '../change-log/change-watch.js';
import type { MemoryStorage } from '../memory/memory-storage.js';
import type { SqlStorage } from '../sql/sql-storage.js';
import type { Row, WriteOp } from '../types.js';

/** Records read per step of the follow loop. */
const PAGE = 1000;
/** How often the database's counter is read for other processes' writes (ms): often where nothing
 * announces them (MySQL), rarely where commits are notified (PostgreSQL: a lost notification). */
const POLL_MS = 20;
const POLL_NOTIFIED_MS = 250;
/**
 * Under a stream of other processes' writes (the last step found records), how long a wake-up
 * waits before it reads (ms): the records of that time are read and applied in one step, one read
 * of the log and one of the rows for several writes, for this much more lag. Not when idle.
 */
const GATHER_MS = 2;
/** A progress line every this many rows of a load. */
const PROGRESS_ROWS = 100_000;

const RESOURCE_OF_TYPE = new Map(RESOURCES.map((r) => [contentType(r), r.name]));

/**
 * The follower's own stores: `follow` reads the primary's log and rows, `load` the initial snapshot
 * (the same store, or a standby's).
 */
export interface ReplicaReaders {
  readonly follow: SqlStorage;
  readonly load: SqlStorage;
}

export class ReplicaFollower {
  /** The last seq applied. */
  applied = 0;
  /** Loaded and following (reads may be answered from memory). */
  ready = false;
  /** Told, for each record applied from the log, how long ago it was written (ms): the replication lag. */
  onApplied?: (ageMs: number) => void;
  private feed: ChangeFeed;
  private readonly stop$ = new AbortController();
  private loop: Promise<void> | null = null;
  private waiters: { seq: number; done: (ok: boolean) => void }[] = [];
  /** Told what the follower looked at, so the caches of rows few writes change need not read the log themselves. */
  watch: ChangeWatch | null = null;

  private readonly sql: SqlStorage;

  constructor(
    private readonly readers: ReplicaReaders,
    private readonly notified: () => boolean,
    private readonly memory: MemoryStorage,
    private readonly resources: readonly string[],
    private readonly log: (m: string) => void,
  ) {
    this.sql = readers.follow;
    this.feed = new ChangeFeed(this.sql, { pollMs: POLL_MS });
  }

  async start(): Promise<void> {
    if (this.notified()) {
      this.feed.close();
      this.feed = new ChangeFeed(this.sql, { pollMs: POLL_NOTIFIED_MS, announced: true });
    }
    await this.load();
    this.loop = this.follow();
  }

  async stop(): Promise<void> {
    this.stop$.abort();
    await this.loop?.catch(() => undefined);
    this.feed.close();
    for (const w of this.waiters) w.done(false);
    this.waiters = [];
  }

  /** Resolves true once `seq` is applied, false after `ms` (or when stopping). */
  reach(seq: number, ms: number): Promise<boolean> {
    if (this.applied >= seq) return Promise.resolve(true);
    return new Promise((resolve) => {
      const w = {
        seq,
        done: (ok: boolean) => {
          clearTimeout(timer);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        resolve(false);
      }, ms);
      this.waiters.push(w);
    });
  }

  /** Loads, then serves: reads are answered from memory only once a snapshot is accepted. */
  private async load(): Promise<void> {
    this.ready = false;
    let done = false;
    if (this.readers.load !== this.sql) {
      const seq = await this.loadFrom(this.readers.load, 'the standby (READ_REPLICA_LOAD_URL)');
      const refused = await this.standbyRefused(seq);
      if (refused) this.log(`replica: ${refused}: its snapshot is refused; loading from the primary instead`);
      done = !refused;
    }
    if (!done) await this.loadFrom(this.sql, 'the database');
    this.ready = true;
    this.wake();
  }

  /** Why a snapshot at `seq` cannot be followed on the primary's log (null: it can). */
  private async standbyRefused(seq: number): Promise<string | null> {
    const [next] = await this.feed.read(seq, 1);
    if (next && (next.seq as number) !== seq + 1)
      return (
        `the standby holds change seq ${seq}, but the primary's change log begins at seq ${String(next.seq)} ` +
        `(records after ${seq} were pruned: the standby is too far behind)`
      );
    if (!next && (await this.feed.current()) < seq)
      return (
        `the standby holds change seq ${seq}, past the primary's ${await this.feed.current()} ` +
        '(it is not a standby of this database)'
      );
    return null;
  }

  private async loadFrom(source: SqlStorage, name: string): Promise<number> {
    const t0 = performance.now();
    this.memory.clear();
    let rows = 0,
      next = PROGRESS_ROWS;
    const seq = await source.snapshotRows((resource, page) => {
      this.memory.mirror(page.map((row) => ({ resource, id: row.id, row })));
      rows += page.length;
      if (rows >= next) {
        this.log(`replica: loading from ${name}, ${rows.toLocaleString('en-US')} rows so far`);
        next += PROGRESS_ROWS;
      }
    }, this.resources);
    await this.memory.afterBulkLoad();
    this.applied = seq;
    this.watch?.looked(seq, 'all'); // what changed before the snapshot is not known
    this.log(
      `replica: loaded ${rows.toLocaleString('en-US')} rows from ${name} at change seq ${seq} ` +
        `in ${Math.round(performance.now() - t0)} ms`,
    );
    return seq;
  }

  /**
   * A write of this process, committed, its last record numbered `seq`: when every record before
   * its first is applied here, its rows are put in place now from the write itself (as the
   * database stores them: row-as-stored.ts), with no read of the log or the rows. False when it
   * cannot be (records of others before it not applied yet, a copy of a log): the log is then
   * followed as for any write. `startedAt` (Date.now()) bounds the records' age.
   */
  applyOwn(ops: readonly WriteOp[], seq: number, startedAt: number): boolean {
    if (!this.ready) return false;
    const changes: { resource: string; id: string; row: Row | null }[] = [];
    for (const op of ops) {
      if (op.resource === CHANGE_RESOURCE) return false;
      const def = findResource(op.resource);
      if (!def || !isLogged(def)) continue; // no record, not replicated
      if (op.op === 'delete') {
        changes.push({ resource: def.name, id: op.id, row: null });
        continue;
      }
      // Through JSON, as the database's json columns give it back: nothing is shared with the writer's objects.
      const row = rowAsStored(def, JSON.parse(JSON.stringify(op.row)) as Row);
      changes.push({ resource: def.name, id: row.id, row });
    }
    // One record per logged op, numbered seq - n + 1 .. seq.
    if (!changes.length || this.applied !== seq - changes.length) return false;
    this.memory.mirror(changes);
    if (this.onApplied) {
      const age = Date.now() - startedAt;
      for (let i = 0; i < changes.length; i++) this.onApplied(age);
    }
    this.applied = seq;
    this.watch?.looked(seq, NONE); // its types were told as it committed (noteCommitted)
    this.wake();
    return true;
  }

  private async follow(): Promise<void> {
    let failing = false;
    let read = true,
      streaming = false;
    while (!this.stop$.signal.aborted) {
      try {
        if (!read) {
          // Where nothing announces other processes' commits (MySQL), the log itself is read every
          // POLL_MS: a read that finds records costs no more than the counter's, which would need one after it.
          const seen = await this.feed.waitAfter(
            this.applied,
            this.stop$.signal,
            this.notified() ? { justRead: true } : { readInsteadAfterMs: POLL_MS },
          );
          // This process's own commit wakes the loop as it commits; its rows are put in place a
          // moment later (applyOwn): let that run, then read only if the log holds more.
          await new Promise((res) => (streaming ? setTimeout(res, GATHER_MS) : setImmediate(res)));
          read = seen === null || seen > this.applied;
          continue;
        }
        // Records applied meanwhile (applyOwn) are not applied again.
        const at = performance.now();
        const page = await this.feed.read(this.applied, PAGE);
        const records = page.filter((r) => (r.seq as number) > this.applied);
        if (records.length && (records[0].seq as number) !== this.applied + 1) {
          this.log(
            `replica: the change log continues at seq ${String(records[0].seq)}, after ${this.applied} ` +
              'was applied (records pruned before they were read): reloading',
          );
          await this.load();
          continue;
        }
        // A short page holds every record committed before the read began.
        const whole = page.length < PAGE ? at : undefined;
        if (records.length) await this.applyRecords(records, whole);
        else this.watch?.looked(this.applied, NONE, whole);
        streaming = records.length > 0;
        failing = false;
        // A short page is the whole log up to the read: wait for more (no read to find it empty).
        read = page.length === PAGE;
      } catch (e) {
        if (this.stop$.signal.aborted) return;
        if (!failing) this.log(`replica: following the change log failed (${(e as Error).message}); retrying`);
        failing = true;
        await new Promise((res) => setTimeout(res, 200));
      }
    }
  }

  /** `readAt`: when the read that found them began, if it found every record committed before then. */
  private async applyRecords(records: readonly Row[], readAt?: number): Promise<void> {
    // The rows of the objects the records name, as the database holds them now, per resource (a
    // record leaves out hidden fields, the row version among them: it cannot stand for the row).
    const wanted = new Map<string, Set<string>>();
    for (const r of records) {
      const resource = RESOURCE_OF_TYPE.get(r.changed_object_type as string);
      if (!resource || actionOf(r) === 'delete') continue;
      let ids = wanted.get(resource);
      if (!ids) wanted.set(resource, (ids = new Set()));
      ids.add(r.changed_object_id as string);
    }
    const rows = new Map<string, Row>();
    for (const [resource, ids] of wanted)
      for (const row of await this.sql.getMany(resource, [...ids])) rows.set(`${resource}\u0000${row.id}`, row);
    const changes: { resource: string; id: string; row: Row | null }[] = [];
    for (const r of records) {
      const resource = RESOURCE_OF_TYPE.get(r.changed_object_type as string);
      if (!resource) continue;
      const id = r.changed_object_id as string;
      // Deleted since (its own record follows), or deleted now: gone from the replica.
      changes.push({
        resource,
        id,
        row: actionOf(r) === 'delete' ? null : (rows.get(`${resource}\u0000${id}`) ?? null),
      });
    }
    this.memory.mirror(changes);
    if (this.onApplied) {
      const now = Date.now();
      for (const r of records) this.onApplied(now - Date.parse(String(r.time)));
    }
    const last = records[records.length - 1];
    this.applied = Math.max(this.applied, last.seq as number);
    this.watch?.looked(this.applied, new Set(records.map((r) => String(r.changed_object_type))), readAt);
    this.wake();
  }

  private wake(): void {
    const done = this.waiters.filter((w) => w.seq <= this.applied);
    if (!done.length) return;
    this.waiters = this.waiters.filter((w) => w.seq > this.applied);
    for (const w of done) w.done(true);
  }
}

const NONE: ReadonlySet<string> = new Set();

/** Stored records hold the action as its value (the {value, label} form is the API's). */
const actionOf = (r: Row): string => String(r.action);
