// The Storage interface: what every backend (memory, PostgreSQL, MySQL) provides.
// Signatures are async and plan-based so SQL backends fit without memory-only assumptions.
import type { CountRef } from '../engine/sql/related-counts.js';
import type { Plan } from '../engine/plan/nodes.js';
import type { CoveredSpans } from '../engine/allocation/free-space.js';
import type { AddrHex, Family } from '../engine/net/ip.js';
import type { IdStyle, IdStyleName } from '../engine/schema/id-style.js';

export type Row = Record<string, unknown> & { id: string };

import type { OrderKey, Page } from '../engine/plan/page.js';
export type { OrderKey, Page } from '../engine/plan/page.js';
export interface FindResult {
  readonly count: number;
  readonly rows: readonly Row[];
}

/** An address block: its network and broadcast address in hex (engine/net/ip.ts) and its length. */
export interface NetBlock {
  readonly family: Family;
  readonly network: AddrHex;
  readonly broadcast: AddrHex;
  readonly length: number;
}

/** A store's allocation hint: its generation, and where the parent stops being full (null: no hint). */
export interface AllocationHint {
  readonly gen: number;
  readonly nextAt: AddrHex | null;
}

/** One write; a batch of them is applied atomically by `apply`. Rows are complete (derived fields included). */
export type WriteOp =
  | { readonly op: 'create'; readonly resource: string; readonly row: Row }
  /**
   * `expectVersion`: compare-and-swap on the row's `version` column (a row without one is version 0);
   * a mismatch is a StorageConflict on `version`.
   */
  | {
      readonly op: 'update';
      readonly resource: string;
      readonly row: Row;
      readonly expectVersion?: number;
      readonly before?: Row;
    }
  | {
      readonly op: 'delete';
      readonly resource: string;
      readonly id: string;
      readonly expectVersion?: number;
      readonly before?: Row;
    };
// `before`: the row as the writer read it (the change record's prechange data; with expectVersion it
// is the stored row).

export interface ApplyOptions {
  /**
   * false: write no change records (a copy of a store or a restore, which carry their log over
   * as it is, and bulk loads of benchmark data). Default: each op of a logged resource gets one.
   */
  readonly log?: false;
  /** Conditions the batch commits under, tested in its transaction (a caller's object permissions). */
  readonly checks?: readonly RowCheck[];
}

/**
 * The rows `ids` of `resource` exist and satisfy `plan`: as the store holds them before the batch's
 * writes (`before`), or as the writes leave them (`after`), in the same transaction as the writes, so
 * no other writer's commit falls between the test and the write.
 */
export interface RowCheck {
  readonly resource: string;
  readonly ids: readonly string[];
  readonly plan: Plan;
  readonly when: 'before' | 'after';
}

/** A RowCheck of the batch did not hold: nothing was written. */
export class CheckFailed extends Error {
  constructor(readonly check: RowCheck) {
    super(`a ${check.resource} of the write is outside what the write may touch (${check.when} it)`);
  }
}

/** What a batch wrote: the highest change `seq` it took (null when it logged nothing). */
export interface ApplyResult {
  readonly seq: number | null;
}

/** A write refused by the store's own integrity checks (unique or foreign key), naming the field. */
export class StorageConflict extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** A row's version (the compare-and-swap of `expectVersion`); a row written without one is version 0. */
export const versionOf = (row: Row): number => (row.version as number | null | undefined) ?? 0;

/** A memory store's journal could not take a write (nothing was changed): 507 for no room, else 503. */
export class JournalWriteFailed extends Error {
  constructor(
    readonly code: 'insufficient_storage' | 'journal_unavailable',
    message: string,
  ) {
    super(message);
  }
}

/** The store cannot be opened as configured (a memory directory owned by another process, a damaged journal). */
export class StorageConfigProblem extends Error {}

/** The backend could not be reached; the server answers 503. */
export class StorageUnavailable extends Error {}

/**
 * A write's connection was lost with its COMMIT in flight and the database could not be asked
 * afterwards whether it committed: 503 `commit_unknown`. A retry with the same Idempotency-Key
 * gets the real outcome.
 */
export class CommitUnknown extends Error {}

/** The database cannot run a pattern of the query (its regex engine refused it); the server answers 400. */
export class QueryRefused extends Error {}

/** A query ran past the configured time budget and was cancelled; the server answers 503. */
export class QueryTimeout extends Error {
  constructor(readonly budgetMs: number) {
    super(`query cancelled after its ${budgetMs} ms time budget`);
  }
}

/** The client went away while its query ran; nobody is left to answer. */
export class QueryAborted extends Error {
  constructor() {
    super('query abandoned: the client went away');
  }
}

/** Per-call options of a find. */
export interface FindOptions {
  /** Aborted when the request's client has gone away: the query may stop (QueryAborted). */
  readonly signal?: AbortSignal;
  /** The caller does not read `count` (cursor paging): a backend that counts apart may skip it (count is then -1). */
  readonly noCount?: boolean;
}

/** Options of a scan: rows come `chunk` at a time; the scan stops once `signal` is aborted. */
export interface ScanOptions {
  readonly chunk: number;
  readonly signal?: AbortSignal;
}

/** A store cannot be used as configured (a wrong URL, a schema it may not migrate): one line for the operator. */
export class StorageConfigError extends Error {}

export interface StorageOptions {
  /** Time budget of one query (find / explain); 0 = none. */
  readonly queryTimeoutMs?: number;
  /** `memory`: a database store keeps an in-memory replica in this process and answers reads from it (READ_REPLICA). */
  readonly readReplica?: 'memory';
  /**
   * READ_REPLICA_LOAD_URL: the replica's initial load reads this database (a streaming standby of
   * STORAGE_URL's) instead.
   */
  readonly readReplicaLoadUrl?: string;
  /** Connections a database store may hold (default 20). */
  readonly poolSize?: number;
  /** How long a statement waits for one of them (POOL_WAIT_TIMEOUT_MS) before the store answers StorageUnavailable. */
  readonly poolWaitTimeoutMs?: number;
  /**
   * Open a database store to read only: no migrations run (the schema must be current), no
   * notifications listened to.
   */
  readonly reader?: boolean;
  /** Where the store says what it did on its own (a lock taken over, a torn journal end dropped). */
  readonly log?: (message: string) => void;
  /**
   * ID_STYLE: the id style a store created by this open gets (default uuid). A store that exists keeps
   * its own; an explicit style that differs from it refuses the open (StorageConfigError naming both).
   */
  readonly idStyle?: IdStyleName;
}

/** What a read from this process's memory is answered from (Storage.memoryRead). */
export interface MemoryReadState {
  readonly gen: number;
  readonly tag: string;
}

export interface Storage {
  readonly kind: 'memory' | 'postgres' | 'mysql';
  open(): Promise<void>;
  close(): Promise<void>;
  /** The store's id style (engine/schema/id-style.ts): the one it was created with, known once open. */
  readonly ids: IdStyle;
  /**
   * `n` new ids for rows of `resource`, in the order they are to be used: UUIDs, or in an integer
   * store (for a resource without `uuidIds`) the next numbers of the resource's counter, which the
   * store keeps (memory: journaled; PostgreSQL: the table's identity; MySQL: its counter) and never
   * hands out twice, even after a delete or a write that failed.
   */
  newIds(resource: string, n: number): Promise<string[]>;
  /**
   * After rows were written with ids of their own (an import or a copy keeps the source's ids):
   * moves each counter past the highest id its table holds, so the next new id follows them.
   */
  advanceIdCounters(): Promise<void>;
  get(resource: string, id: string): Promise<Row | null>;
  getMany(resource: string, ids: readonly string[]): Promise<Row[]>;
  /** How many rows of `resource` hold each of `ids` in the foreign key `field` (related counts), read
   * from the key's index; ids no row names are absent from the map. */
  countRefs(resource: string, field: string, ids: readonly string[]): Promise<ReadonlyMap<string, number>>;
  /**
   * Several counts of the same ids at once, a map per reference in order (a database: one query, not
   * one per count).
   */
  countRefsOf?(refs: readonly CountRef[], ids: readonly string[]): Promise<ReadonlyMap<string, number>[]>;
  /** Rows whose field equals value exactly (for reference resolution and dependents). */
  findBy(resource: string, field: string, value: unknown): Promise<Row[]>;
  find(resource: string, plan: Plan, page: Page, opts?: FindOptions): Promise<FindResult>;
  /**
   * Every row the plan matches in `ordering`, a chunk at a time, at a cost that does not grow with the depth
   * reached (no OFFSET): an export. Memory orders the matches once; PostgreSQL reads a cursor and MySQL a
   * streamed statement on a connection of their own, each in one snapshot. Absent: paged by offset.
   */
  scan?(resource: string, plan: Plan, ordering: readonly OrderKey[], opts: ScanOptions): AsyncIterable<Row[]>;
  /** How the backend runs the plan (for `page`: the requested ordering and window, else its default). */
  explain(resource: string, plan: Plan, page?: Page): Promise<unknown>;
  /**
   * Apply a batch of writes atomically: all or nothing, with its change records (one per op of a
   * logged resource, numbered gap-free in commit order). Throws StorageConflict.
   */
  apply(ops: readonly WriteOp[], opts?: ApplyOptions): Promise<ApplyResult>;
  /** The last change `seq` handed out (0 before the first). */
  changeSeq(): Promise<number>;
  /**
   * How far this process's replica is behind the database (READ_REPLICA), and the last seq it
   * applied; absent without one.
   */
  replicaLag?(): Promise<{ readonly seq: number; readonly ms: number; readonly applied: number }>;
  /** READ_REPLICA: `fn` is told, for each change record the replica applies, how long ago it was written (ms). */
  onReplicaApplied?(fn: (ageMs: number) => void): void;
  /** Database stores: `fn` gets each wait for a pooled connection, in seconds, and whether it timed out. */
  onPoolWait?(fn: (seconds: number, timedOut: boolean) => void): void;
  /**
   * When a read of `resource` would be answered now from this process's memory: the store's
   * generation (moves with every change it takes) and an entity tag for that state that means the
   * same in any process; null when the read goes to a database.
   */
  memoryRead?(resource: string): MemoryReadState | null;
  /**
   * fn while holding the lock named `key`, against every process on this store (memory: this
   * process, which owns it): for checks that read several rows before a write depends on them.
   */
  serialized<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /**
   * After a bulk load: refresh what the backend plans queries with (SQL statistics). Without it a
   * database that has not yet analyzed the new rows may pick an ordered full-index scan.
   */
  afterBulkLoad(): Promise<void>;
  /** The database server's version (as /api/status/ shows it); null for a store in this process (memory). */
  serverVersion(): Promise<string | null>;
  /**
   * What is taken inside an address block, for IP allocation (engine/allocation/free-space.ts): the
   * addresses of the prefixes strictly inside it (`prefix`) or the hosts of the IP addresses in it
   * (`ip_address`), in address order, at most about `max` spans (touching ones may come as one);
   * with `from`, only the children whose first address is `from` or later.
   */
  coveredSpans(resource: 'prefix' | 'ip_address', block: NetBlock, max: number, from?: AddrHex): Promise<CoveredSpans>;
  /**
   * Where allocation of `length` in the block may start reading (engine/allocation/sql-hints.ts),
   * with the generation it holds for; null where the store keeps no hints (memory needs none).
   */
  allocationHint(resource: 'prefix' | 'ip_address', block: NetBlock, length: number): Promise<AllocationHint | null>;
  /** Records that no free block of `length` lies in the block before `nextAt`, if still at generation `gen`. */
  saveAllocationHint(
    resource: 'prefix' | 'ip_address',
    block: NetBlock,
    length: number,
    nextAt: AddrHex,
    gen: number,
  ): Promise<void>;
}
