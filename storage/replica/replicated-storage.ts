// READ_REPLICA=memory: the in-memory engine in this process, loaded from the database and kept
// current by following its change log; the database stays the one source of truth. Reads are
// answered from memory, writes go to the database and return once this process's replica has
// applied them (a client reads its own writes through the same process). A read that asks for a
// seq the replica has not reached (X-Min-Change-Seq) waits a bounded time, then goes to the database.
// Reads made by a write request go to the database (its checks and compare-and-swap must see the
// authority), and so do the resources the log does not carry (the log itself, history rows,
// idempotency keys).
import type { IdStyle } from '../../engine/schema/id-style.js';
import { RESOURCES } from '../../engine/schema/registry.js';
import { CHANGE_RESOURCE, isLogged } from '../../engine/changes/change-records.js';
import { cmp } from '../../engine/plan/nodes.js';
import type { Plan } from '../../engine/plan/nodes.js';
import type { CoveredSpans } from '../../engine/allocation/free-space.js';
import type { AddrHex } from '../../engine/net/ip.js';
import { MemoryStorage } from '../memory/memory-storage.js';
import type { SqlStorage } from '../sql/sql-storage.js';
import { noteReadSource, writeContext, type WriteContext } from '../change-log/write-context.js';
import type {
  AllocationHint,
  ApplyOptions,
  ApplyResult,
  FindOptions,
  FindResult,
  MemoryReadState,
  NetBlock,
  OrderKey,
  Page,
  Row,
  ScanOptions,
  Storage,
  StorageOptions,
  WriteOp,
} from '../types.js';
import { ReplicaFollower, type ReplicaReaders } from './replica-follower.js';
import { changeWatch } from '../change-log/change-watch.js';

/** How long a read waits for the replica to reach X-Min-Change-Seq before it asks the database. */
export const MIN_SEQ_WAIT_MS = 1000;
/** How long a write waits for the replica to apply it before it answers anyway. */
export const OWN_WRITE_WAIT_MS = 5000;

/** Resources whose rows the change log carries: the replica holds these. */
const REPLICATED = new Set(RESOURCES.filter(isLogged).map((r) => r.name));

export class ReplicatedStorage implements Storage {
  readonly replica: MemoryStorage;
  readonly follower: ReplicaFollower;

  /**
   * `readers`: the follower's own stores, `follow` on the primary's database and `load` (the same,
   * or a standby of it).
   */
  constructor(
    readonly primary: SqlStorage,
    private readonly readers: ReplicaReaders,
    opts: StorageOptions = {},
  ) {
    this.replica = new MemoryStorage(null, opts);
    this.follower = new ReplicaFollower(
      readers,
      () => primary.notified,
      this.replica,
      [...REPLICATED],
      opts.log ?? ((m) => console.warn(m)),
    );
    // Token checks and custom field definitions learn of others' changes from the records the follower reads anyway.
    const watch = changeWatch(primary, Infinity);
    watch.followedBy(this.follower);
    this.follower.watch = watch;
  }

  get kind(): 'postgres' | 'mysql' {
    return this.primary.kind;
  }

  get ids(): IdStyle {
    return this.primary.ids;
  }

  newIds(resource: string, n: number): Promise<string[]> {
    return this.primary.newIds(resource, n);
  }

  advanceIdCounters(): Promise<void> {
    return this.primary.advanceIdCounters();
  }

  async open(): Promise<void> {
    await this.primary.open();
    // The database's own id style, known now: the replica orders and packs ids as the primary does.
    this.replica.adoptIdStyle(this.primary.ids);
    for (const r of this.readerStores()) await r.open();
    await this.follower.start();
  }

  async close(): Promise<void> {
    await this.follower.stop();
    for (const r of this.readerStores()) await r.close();
    await this.primary.close();
  }

  private readerStores(): SqlStorage[] {
    return [...new Set([this.readers.follow, this.readers.load])];
  }

  /** The store a read of `resource` goes to now (waiting for the replica when the request asks for a seq). */
  private async source(resource: string): Promise<Storage> {
    const scope = writeContext();
    if (!this.mayAnswer(resource, scope)) return this.fromDatabase();
    const need = scope?.minSeq;
    if (need !== undefined && this.follower.applied < need && !(await this.follower.reach(need, MIN_SEQ_WAIT_MS)))
      return this.fromDatabase();
    noteReadSource(scope, 'replica');
    return this.replica;
  }

  /**
   * A read that would be answered from the replica now (the same rule as `source`, without waiting):
   * its generation, and a tag naming the change seq the replica has applied, which every process on
   * this database reads alike (an answer at applied seq N holds every change up to N).
   */
  memoryRead(resource: string): MemoryReadState | null {
    const scope = writeContext();
    if (!this.mayAnswer(resource, scope) || (scope?.minSeq !== undefined && this.follower.applied < scope.minSeq))
      return null;
    noteReadSource(scope, 'replica');
    return { gen: this.replica.memoryRead().gen, tag: `s${this.follower.applied}` };
  }

  /** Whether the replica may answer this read at all: a resource the log carries, a read request, a replica loaded. */
  private mayAnswer(resource: string, scope: WriteContext | undefined): boolean {
    return REPLICATED.has(resource) && !scope?.primary && this.follower.ready;
  }

  private fromDatabase(): Storage {
    const scope = writeContext();
    noteReadSource(scope, 'database');
    return this.primary;
  }

  async get(resource: string, id: string): Promise<Row | null> {
    return (await this.source(resource)).get(resource, id);
  }
  async getMany(resource: string, ids: readonly string[]): Promise<Row[]> {
    return (await this.source(resource)).getMany(resource, ids);
  }

  async countRefs(resource: string, field: string, ids: readonly string[]): Promise<ReadonlyMap<string, number>> {
    return (await this.source(resource)).countRefs(resource, field, ids);
  }

  async findBy(resource: string, field: string, value: unknown): Promise<Row[]> {
    const found = await (await this.source(resource)).findBy(resource, field, value);
    // A token made through another process a moment ago may not be here yet: a miss asks the database.
    if (!found.length && resource === 'token' && field === 'key_hash')
      return this.primary.findBy(resource, field, value);
    return found;
  }

  async find(resource: string, plan: Plan, page: Page, opts?: FindOptions): Promise<FindResult> {
    return (await this.source(resource)).find(resource, plan, page, opts);
  }
  async *scan(resource: string, plan: Plan, ordering: readonly OrderKey[], opts: ScanOptions): AsyncGenerator<Row[]> {
    yield* (await this.source(resource)).scan!(resource, plan, ordering, opts);
  }
  async explain(resource: string, plan: Plan, page?: Page): Promise<unknown> {
    return (await this.source(resource)).explain(resource, plan, page);
  }
  async coveredSpans(
    resource: 'prefix' | 'ip_address',
    block: NetBlock,
    max: number,
    from?: AddrHex,
  ): Promise<CoveredSpans> {
    return (await this.source(resource)).coveredSpans(resource, block, max, from);
  }

  async apply(ops: readonly WriteOp[], opts?: ApplyOptions): Promise<ApplyResult> {
    const startedAt = Date.now();
    const out = await this.primary.apply(ops, opts);
    // Put in place from the write itself where it can be; else wait for the log's follower.
    if (out.seq !== null && !(opts?.log !== false && this.follower.applyOwn(ops, out.seq, startedAt)))
      await this.follower.reach(out.seq, OWN_WRITE_WAIT_MS);
    return out;
  }

  changeSeq(): Promise<number> {
    return this.primary.changeSeq();
  }

  /** Records written but not applied here, how long ago the first of them was written, and the last seq applied. */
  async replicaLag(): Promise<{ seq: number; ms: number; applied: number }> {
    const applied = this.follower.applied;
    const behind = Math.max(0, (await this.primary.changeSeq()) - applied);
    if (!behind) return { seq: 0, ms: 0, applied };
    const [next] = (
      await this.primary.find(
        CHANGE_RESOURCE,
        cmp('seq', 'number', 'eq', false, [applied + 1]),
        { limit: 1, offset: 0, ordering: [] },
        { noCount: true },
      )
    ).rows;
    return { seq: behind, ms: next ? Math.max(0, Date.now() - Date.parse(next.time as string)) : 0, applied };
  }
  onReplicaApplied(fn: (ageMs: number) => void): void {
    this.follower.onApplied = fn;
  }
  serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.primary.serialized(key, fn);
  }
  afterBulkLoad(): Promise<void> {
    return this.primary.afterBulkLoad();
  }
  serverVersion(): Promise<string | null> {
    return this.primary.serverVersion();
  }
  allocationHint(resource: 'prefix' | 'ip_address', block: NetBlock, length: number): Promise<AllocationHint | null> {
    return this.primary.allocationHint(resource, block, length);
  }
  saveAllocationHint(
    resource: 'prefix' | 'ip_address',
    block: NetBlock,
    length: number,
    nextAt: AddrHex,
    gen: number,
  ): Promise<void> {
    return this.primary.saveAllocationHint(resource, block, length, nextAt, gen);
  }
}

/** The store that is the authority: the database behind a replica, else the store itself. */
export const authority = (s: Storage): Storage => (s instanceof ReplicatedStorage ? s.primary : s);
