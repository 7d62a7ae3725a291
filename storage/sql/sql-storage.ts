// Storage on a SQL database: the plan compiled to SQL (engine/sql), rows mapped to and from
// columns by the registry, every apply() batch in one transaction with constraint violations
// mapped to the StorageConflict the memory store gives, a lost database to StorageUnavailable.
// This class only puts together the parts in store/, one concern each.
import { UUID_IDS, type IdStyle } from '../../engine/schema/id-style.js';
import { timeOrderedId } from '../time-ordered-id.js';
import { integerSpace } from '../../engine/sql/id-columns.js';
import { advanceIdCounters, takeIds } from './id-counters.js';
import type { Plan } from '../../engine/plan/nodes.js';
import type { Dialect } from '../../engine/sql/dialect.js';
import type { CountRef } from '../../engine/sql/related-counts.js';
import type { SqlText } from '../../engine/sql/sql-builder.js';
import type { AddrHex } from '../../engine/net/ip.js';
import type { CoveredSpans } from '../../engine/allocation/free-space.js';
import type {
  AllocationHint,
  ApplyOptions,
  ApplyResult,
  FindOptions,
  FindResult,
  NetBlock,
  OrderKey,
  Page,
  Row,
  ScanOptions,
  Storage,
  StorageOptions,
  WriteOp,
} from '../types.js';
import { KeyedLock } from '../keyed-lock.js';
import type { SqlDriver } from './driver.js';
import { SqlAllocation } from './store/allocation.js';
import { SqlContext } from './store/context.js';
import { CountFolding } from './store/count-folding.js';
import { CountReads } from './store/count-reads.js';
import { connect, listenForCommits } from './store/opening.js';
import { SqlReads } from './store/reads.js';
import { ReplicaFeed } from './store/replica-feed.js';
import { Statistics } from './store/statistics.js';
import { truncateAll } from './store/truncate.js';
import { SqlWrites } from './store/writes.js';

type NetResource = 'prefix' | 'ip_address';

export class SqlStorage implements Storage {
  /** Versions applied by the last open(). */
  appliedMigrations: number[] = [];

  private readonly ctx: SqlContext;
  private readonly reads: SqlReads;
  private readonly counts: CountReads;
  private readonly folding: CountFolding;
  private readonly stats: Statistics;
  private readonly writes: SqlWrites;
  private readonly feed: ReplicaFeed;
  private readonly allocation: SqlAllocation;
  private readonly locks = new KeyedLock();
  /** Stops listening for other processes' commits (null: the database has no notifications). */
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly driver: SqlDriver,
    opts: StorageOptions = {},
  ) {
    this.ctx = new SqlContext(driver, opts);
    this.reads = new SqlReads(this.ctx);
    this.counts = new CountReads(this.ctx);
    this.folding = new CountFolding(this.ctx);
    this.stats = new Statistics(this.ctx, this.folding);
    this.writes = new SqlWrites(this.ctx, this, this.folding, this.stats);
    this.feed = new ReplicaFeed(this.ctx);
    this.allocation = new SqlAllocation(this.ctx);
  }

  get kind(): 'postgres' | 'mysql' {
    return this.driver.kind;
  }

  /** The store's style, read from the database at open (store-style.ts); uuid until then. */
  get ids(): IdStyle {
    return this.ctx.isOpen ? this.ctx.ready().d.ids : UUID_IDS;
  }

  /** Time-ordered UUIDs, or in an integer store (a resource without uuidIds) the table's counter's next numbers. */
  async newIds(resource: string, n: number): Promise<string[]> {
    const { d } = this.ctx.ready();
    if (!integerSpace(d, resource)) return Array.from({ length: n }, timeOrderedId);
    return this.ctx.guard(() => takeIds(this.driver, d, resource, n));
  }

  /** Every integer table's counter past its highest id (after rows were written with their ids). */
  async advanceIdCounters(): Promise<void> {
    const { d } = this.ctx.ready();
    if (d.ids.name === 'integer') await this.ctx.guard(() => advanceIdCounters(this.driver, d));
  }

  get dialect(): Dialect {
    return this.ctx.ready().d;
  }

  /** The compiled WHERE clause of a plan (diagnostics, tests). */
  whereSql(resource: string, plan: Plan): SqlText {
    return this.ctx.ready().compiler.where(resource, plan);
  }

  async open(): Promise<void> {
    if (this.ctx.isOpen) return;
    const applied = await connect(this.ctx);
    if (applied) this.appliedMigrations = applied;
    this.stats.start();
    this.unlisten = await listenForCommits(this.ctx);
  }

  onPoolWait(fn: (seconds: number, timedOut: boolean) => void): void {
    this.driver.poolWaits?.on(fn);
  }

  /** Other processes' commits are announced (PostgreSQL): followers may read the counter rarely. */
  get notified(): boolean {
    return this.unlisten !== null;
  }

  async close(): Promise<void> {
    await this.stats.stop();
    this.ctx.stop();
    await this.unlisten?.();
    this.unlisten = null;
    await this.driver.close();
  }

  async get(resource: string, id: string): Promise<Row | null> {
    return (await this.reads.getMany(resource, [id]))[0] ?? null;
  }

  getMany(resource: string, ids: readonly string[]): Promise<Row[]> {
    return this.reads.getMany(resource, ids);
  }

  findBy(resource: string, field: string, value: unknown): Promise<Row[]> {
    return this.reads.findBy(resource, field, value);
  }

  find(resource: string, plan: Plan, page: Page, opts: FindOptions = {}): Promise<FindResult> {
    return this.reads.find(resource, plan, page, opts);
  }

  scan(resource: string, plan: Plan, ordering: readonly OrderKey[], opts: ScanOptions): AsyncIterable<Row[]> {
    return this.reads.scan(resource, plan, ordering, opts);
  }

  explain(resource: string, plan: Plan, page?: Page): Promise<unknown> {
    return this.reads.explain(resource, plan, page);
  }

  serverVersion(): Promise<string | null> {
    return this.reads.serverVersion();
  }

  /** One grouped count over the foreign key's index for the whole page of ids. */
  countRefs(resource: string, field: string, ids: readonly string[]): Promise<ReadonlyMap<string, number>> {
    return this.counts.countRefs(resource, field, ids);
  }

  /** Counts kept by triggers (related-counts.ts), every reference asked in one query. */
  countRefsOf(refs: readonly CountRef[], ids: readonly string[]): Promise<ReadonlyMap<string, number>[]> {
    return this.counts.countRefsOf(refs, ids);
  }

  /** Moves related-count deltas into their base rows (store/count-folding.ts); how many it moved. */
  foldCounts(passes = Infinity): Promise<number> {
    return this.folding.fold(passes);
  }

  apply(ops: readonly WriteOp[], opts: ApplyOptions = {}): Promise<ApplyResult> {
    return this.writes.apply(ops, opts);
  }

  afterBulkLoad(): Promise<void> {
    return this.stats.afterBulkLoad();
  }

  /** Every row in one consistent snapshot, a page at a time, and the change seq it holds (a replica's load). */
  snapshotRows(each: (resource: string, rows: Row[]) => void, resources?: readonly string[]): Promise<number> {
    return this.feed.snapshotRows(each, resources);
  }

  changeSeq(): Promise<number> {
    return this.feed.changeSeq();
  }

  /**
   * A database-wide named lock (advisory lock / GET_LOCK) on a connection of its own. Callers in
   * this process queue first, so one connection at most waits for the lock: a pool spent on
   * waiters would leave the holder none for its own statements.
   */
  serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.locks.run(key, () => this.ctx.guard(() => this.driver.exclusive(`netinv.${key}`, () => fn())));
  }

  coveredSpans(resource: NetResource, block: NetBlock, max: number, from?: AddrHex): Promise<CoveredSpans> {
    return this.allocation.coveredSpans(resource, block, max, from);
  }

  allocationHint(resource: NetResource, block: NetBlock, length: number): Promise<AllocationHint> {
    return this.allocation.allocationHint(resource, block, length);
  }

  saveAllocationHint(
    resource: NetResource,
    block: NetBlock,
    length: number,
    nextAt: AddrHex,
    gen: number,
  ): Promise<void> {
    return this.allocation.saveAllocationHint(resource, block, length, nextAt, gen);
  }

  /** Test helper: empties every table (join tables and dependents first). */
  truncateAll(): Promise<void> {
    return truncateAll(this.ctx);
  }
}
