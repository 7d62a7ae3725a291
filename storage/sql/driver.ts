// What SqlStorage needs from a database driver (pg / mysql2): a pool, transactions, error
// classification and value decoding. Everything else is shared.
import type { Dialect } from '../../engine/sql/dialect.js';
import type { ColumnModel } from '../../engine/sql/table-model.js';
import type { PoolWaits } from './pool-waits.js';

export interface QueryResult {
  readonly rows: Record<string, unknown>[];
  /** Rows returned, or rows matched by an UPDATE / DELETE. */
  readonly rowCount: number;
  /** MySQL: the OK packet's insert id (what LAST_INSERT_ID(expr) set), when not 0. */
  readonly insertId?: number;
}

export interface SqlSession {
  query(sql: string, params?: readonly unknown[]): Promise<QueryResult>;
}

/** A database error in terms the storage maps to StorageConflict / StorageUnavailable. */
export type ClassifiedError =
  | { readonly kind: 'unique'; readonly constraint: string }
  | { readonly kind: 'fk'; readonly constraint: string; readonly value: string | null }
  | { readonly kind: 'unavailable'; readonly message: string }
  /** The statement ran past the session's statement time limit. */
  | { readonly kind: 'timeout' }
  /** The database's regex engine refused a pattern RE2 accepts (and no rewrite covers). */
  | { readonly kind: 'pattern'; readonly message: string }
  /** The database rolled the transaction back to break a deadlock: it may run again as it was. */
  | { readonly kind: 'victim' }
  | { readonly kind: 'other' };

export interface SqlDriver extends SqlSession {
  /** host:port of the database, for messages. */
  readonly where: string;
  readonly kind: 'postgres' | 'mysql';
  /** Checks the server is reachable and returns the dialect for it; one clear line on failure. */
  connect(): Promise<Dialect>;
  /**
   * fn in one transaction: committed when it resolves, rolled back when it throws. A connection lost
   * with COMMIT in flight is a CommitInDoubt: the write may have committed.
   */
  transaction<T>(fn: (s: SqlSession) => Promise<T>): Promise<T>;
  /** One write statement that commits by itself, on a connection of its own; lost with it in flight: CommitInDoubt. */
  autocommit(sql: string, params: readonly unknown[]): Promise<QueryResult>;
  /**
   * Ends the database session `session` (CommitInDoubt.session) and returns once it is gone: a
   * COMMIT it had in flight has then either finished or never will. Throws when it cannot tell.
   */
  endSession(session: number): Promise<void>;
  /**
   * LISTEN for notifications on `channel` (PostgreSQL; absent on MySQL, which has none): each
   * payload to `onMessage`; resolves to the function that stops listening.
   */
  listen?(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  /** fn in a read-only transaction that sees one consistent snapshot of the database throughout (a replica's load). */
  readSnapshot<T>(fn: (s: SqlSession) => Promise<T>): Promise<T>;
  /**
   * The rows of one SELECT `chunk` at a time, in one read-only snapshot on a connection of its own (PostgreSQL:
   * a cursor FETCHed; MySQL: the statement's rows streamed, the socket paused while a chunk waits). Leaving the
   * loop early frees the connection (MySQL closes it: the rest of the rows would still come).
   */
  cursor(sql: string, params: readonly unknown[], chunk: number): AsyncGenerator<Record<string, unknown>[]>;
  /** fn on one connection held for its duration, serialised against other processes (migrations). */
  exclusive<T>(lockName: string, fn: (s: SqlSession) => Promise<T>): Promise<T>;
  /** DDL can run inside a transaction (PostgreSQL) or commits implicitly (MySQL). */
  readonly transactionalDdl: boolean;
  /**
   * A statement answering `n`, the rows the statistics of table $1 count, where the server is to
   * keep them up (ANALYZE after growth, storage/sql/table-growth.ts); null where the database does
   * so itself (InnoDB recalculates a table's statistics once a tenth of it changed).
   */
  readonly estimatedRowsSql: string | null;
  close(): Promise<void>;
  classify(err: unknown): ClassifiedError;
  /** Driver output -> the row value memory holds (ISO strings, booleans, parsed JSON). */
  decode(col: ColumnModel, raw: unknown): unknown;
  /** How LIMIT / OFFSET values are bound. */
  pageValue(n: number): unknown;
  /**
   * find(): COUNT and page at once on two connections (MySQL: the cost is server CPU per statement,
   * overlapping them wins), or the page first and the COUNT only when the page is full (PostgreSQL).
   */
  readonly parallelCount: boolean;
  /**
   * Runs fn inside the failed transaction with foreign-key checks off, then undoes fn's writes: how
   * a key clash that a reference error hid is found. null where a transaction cannot go on after an
   * error (PostgreSQL, which checks keys before references anyway).
   */
  readonly withoutReferenceChecks: (<T>(s: SqlSession, fn: () => Promise<T>) => Promise<T>) | null;
  /** Prefix turning a SELECT into its plan as JSON. */
  readonly explainPrefix: string;
  /** Statement answering one row whose `server_version` column is the server's version. */
  readonly serverVersionSql: string;
  /** The waits for a pooled connection (timed and bounded: POOL_WAIT_TIMEOUT_MS). */
  readonly poolWaits?: PoolWaits;
}

/**
 * A COMMIT (or a statement committing by itself) was sent and its connection was lost before the
 * answer came: the write may or may not have committed. `session`: the database's id of that
 * connection (PostgreSQL backend pid, MySQL thread id), which SqlDriver.endSession ends.
 */
export class CommitInDoubt extends Error {
  constructor(
    readonly session: number,
    readonly reason: unknown,
  ) {
    super(`the connection was lost with a commit in flight (session ${session})`);
  }
}
