// The MySQL / MariaDB driver: a mysql2 pool. Statements with parameters go through server-side
// prepared statements (cached per connection); those without (bulk INSERTs, whose values are
// written into the text) go through the text protocol as they are. JSON and DATETIME come back as
// text and are decoded here, so MariaDB (JSON = LONGTEXT) and MySQL 8 read the same.
import mysql from 'mysql2/promise';
import { mysqlDialect, TEXT_COLLATION, type MysqlFlavour } from '../../engine/sql/dialects/mysql.js';
import type { Dialect } from '../../engine/sql/dialect.js';
import type { ColumnModel } from '../../engine/sql/table-model.js';
import { StorageUnavailable } from '../types.js';
import { withNamedLock, type LockStatements } from '../sql/named-lock.js';
import {
  CommitInDoubt,
  type ClassifiedError,
  type QueryResult,
  type SqlDriver,
  type SqlSession,
} from '../sql/driver.js';
import { endSession, type SessionEndStatements } from '../sql/session-end.js';
import { committing, type CommitConnection } from '../sql/committing.js';
import type { Socket } from 'node:net';
import { classifyMysqlError, mysqlConnectReason } from './errors.js';
import { SERVER_TIMED, STATEMENT_TIMEOUT, timeLimitStatements } from './statement-timeout.js';
import { DEFAULT_POOL_WAIT_MS, PoolWaits } from '../sql/pool-waits.js';

export interface MysqlDriverOptions {
  readonly connectionLimit?: number;
  readonly connectTimeoutMs?: number;
  readonly statementTimeoutMs?: number;
  readonly poolWaitMs?: number;
}

type Conn = mysql.Pool | mysql.PoolConnection;

/** A statement with a regular expression (the compiler's only use of REGEXP). */
const REGEX_STATEMENT = /\sREGEXP\s/;
/** MariaDB: "Regex error 'match limit exceeded'" and the like, raised as a warning. */
const MARIADB_REGEX_WARNING = 1139;

/**
 * mysql2's text formatting, replaced: a statement's values are bound (execute) or already written
 * into its text (mysqlLiteral), so the text goes as it is. mysql2's own would scan every text for
 * `?` outside quotes: ~2% of a bulk create's CPU, for the INSERTs' written-out values.
 */
function asWritten(sql: string, values: unknown): string {
  if (Array.isArray(values) && values.length)
    throw new Error('mysql driver: values are bound with execute, never formatted into text');
  return sql;
}

async function run(c: Conn, sql: string, params: readonly unknown[]): Promise<QueryResult> {
  const [r] = params.length ? await c.execute(sql, params as never) : await c.query(sql);
  if (Array.isArray(r)) return { rows: r as Record<string, unknown>[], rowCount: r.length };
  const h = r as mysql.ResultSetHeader;
  return h.insertId
    ? { rows: [], rowCount: h.affectedRows, insertId: Number(h.insertId) }
    : { rows: [], rowCount: h.affectedRows };
}

/**
 * KILL takes no placeholder: the id is a number the driver read itself. Whether the session is
 * still there is read from `processlist`: on MySQL 8.0.22+ the performance_schema one where it can be read, as
 * information_schema.PROCESSLIST fails whole ("Cannot convert string ... to utf8mb3") while any
 * session on the server runs a statement whose text is not UTF-8 (a prepared INSERT with binary ids
 * shows its values there); MariaDB's (and an older MySQL's, or one without performance_schema)
 * information_schema one.
 */
const sessionEnd = (processlist: string): SessionEndStatements => ({
  terminate: (id) => ({ sql: `KILL CONNECTION ${Math.trunc(id)}`, params: [] }),
  alive: (id) => ({ sql: `SELECT 1 FROM ${processlist} WHERE ID = ?`, params: [id] }),
});
/** performance_schema.processlist works here (it exists, performance_schema is on, this user may read it): one row. */
const PS_PROCESSLIST_PROBE = 'SELECT 1 AS ok FROM performance_schema.processlist WHERE ID = CONNECTION_ID()';

/** A connection of mysql2's callback core, as this driver uses it. */
interface MysqlCore {
  readonly stream: Socket;
  on(ev: string, f: () => void): void;
  query(sql: string, cb: () => void): void;
  /** A statement whose rows come as a stream (mysql2 pauses the socket while `highWaterMark` rows wait). */
  execute(sql: string, params: readonly unknown[]): { stream(o: { highWaterMark: number }): AsyncIterable<unknown> };
}

/**
 * The one place mysql2's internals are read. Its typings give a promise connection's `connection` the promise
 * type, and the pool's 'connection' event a promise connection, where both are the callback core (whose `stream`,
 * undeclared, is the socket): one cast.
 */
function mysqlCore(c: mysql.Connection): MysqlCore {
  return c as unknown as MysqlCore;
}

/** The socket of a pooled connection: held or closed at a fault point. */
const socketOf = (c: mysql.PoolConnection) => mysqlCore(c.connection).stream;

/** Where the two servers differ for the driver (what the dialect writes differs in engine/sql/dialects/mysql.ts). */
const SERVERS: Record<
  MysqlFlavour,
  {
    /**
     * The time limit stops every statement (MariaDB's max_statement_time), not only SELECTs (MySQL's
     * max_execution_time).
     */
    readonly timesEveryStatement: boolean;
    /** performance_schema.processlist may be there to look sessions up in (MySQL 8.0.22+). */
    readonly psProcesslist: boolean;
    /** A regular expression past its backtracking limit gives up with a warning only (MariaDB's PCRE2). */
    readonly regexGivesUpQuietly: boolean;
  }
> = {
  mariadb: { timesEveryStatement: true, psProcesslist: false, regexGivesUpQuietly: true },
  mysql: { timesEveryStatement: false, psProcesslist: true, regexGivesUpQuietly: false },
};

const MYSQL_LOCK: LockStatements = {
  lock: 'SELECT GET_LOCK(?, 120) AS ok',
  unlock: 'SELECT RELEASE_LOCK(?) AS ok',
  granted: (rows) => Number(rows[0]?.ok) === 1,
};

export class MysqlDriver implements SqlDriver {
  readonly kind = 'mysql' as const;
  readonly parallelCount = true;
  readonly transactionalDdl = false;
  readonly estimatedRowsSql = null;
  readonly explainPrefix = 'EXPLAIN FORMAT=JSON ';
  readonly serverVersionSql = 'SELECT VERSION() AS server_version';
  private readonly pool: mysql.Pool;
  /** host:port, for messages. */
  readonly where: string;
  flavour: MysqlFlavour = 'mariadb';
  private readonly timeLimitMs: number;
  /** MySQL (not MariaDB) with a time limit: statements the server does not time are watched here. */
  private watchOthers = false;
  /** MariaDB: statements with a regular expression have their warnings read. */
  private regexWarnings = SERVERS.mariadb.regexGivesUpQuietly;
  /** How a session is ended for sure (chosen at connect by what the server offers). */
  private sessionEnd = sessionEnd('information_schema.PROCESSLIST');
  /** Every wait for a pooled connection; mysql2 queues waiters without a bound, so the bound is kept here. */
  readonly poolWaits: PoolWaits;

  constructor(url: string, opts: MysqlDriverOptions = {}) {
    const u = new URL(url);
    this.where = `${u.hostname || 'localhost'}:${u.port || '3306'}`;
    this.pool = mysql.createPool({
      uri: url,
      connectionLimit: opts.connectionLimit ?? 20,
      connectTimeout: opts.connectTimeoutMs ?? 5000,
      charset: 'utf8mb4',
      jsonStrings: true,
      dateStrings: true,
      maxPreparedStatements: 500,
      timezone: 'Z',
      queryFormat: asWritten,
    });
    // Idle connections dropped by the server must not crash the process.
    this.timeLimitMs = opts.statementTimeoutMs ?? 0;
    this.poolWaits = new PoolWaits(opts.poolWaitMs ?? DEFAULT_POOL_WAIT_MS);
    this.pool.on('connection', (c) => {
      const core = mysqlCore(c);
      core.on('error', () => undefined);
      if (this.timeLimitMs) for (const sql of timeLimitStatements(this.timeLimitMs)) core.query(sql, () => undefined);
    });
  }

  async connect(): Promise<Dialect> {
    let version: string;
    try {
      const [rows] = await this.pool.query('SELECT VERSION() AS v');
      version = String((rows as { v: string }[])[0].v);
    } catch (e) {
      throw new StorageUnavailable(`cannot connect to MySQL at ${this.where}: ${mysqlConnectReason(e)}`);
    }
    this.flavour = /mariadb/i.test(version) ? 'mariadb' : 'mysql';
    const server = SERVERS[this.flavour];
    this.watchOthers = !server.timesEveryStatement && this.timeLimitMs > 0;
    this.regexWarnings = server.regexGivesUpQuietly;
    if (server.psProcesslist) {
      const [me] = await this.pool.query(PS_PROCESSLIST_PROBE).catch(() => [[]]);
      if ((me as unknown[]).length === 1) this.sessionEnd = sessionEnd('performance_schema.processlist');
    }
    const [coll] = await this.pool.execute(
      'SELECT COUNT(*) AS n FROM information_schema.COLLATIONS WHERE COLLATION_NAME = ?',
      [TEXT_COLLATION[this.flavour]],
    );
    if (Number((coll as { n: number }[])[0].n) === 0)
      throw new StorageUnavailable(
        `MySQL at ${this.where} (${version}) lacks collation ${TEXT_COLLATION[this.flavour]}: ` +
          'MariaDB >= 10.5 or MySQL >= 8.0 needed',
      );
    return mysqlDialect(this.flavour);
  }

  /** A pooled connection within POOL_WAIT_TIMEOUT_MS, its wait timed; one that comes later goes back at once. */
  private acquire(): Promise<mysql.PoolConnection> {
    return this.poolWaits.bounded(
      () => this.pool.getConnection(),
      (c) => c.release(),
      `MySQL at ${this.where}`,
    );
  }

  async query(sql: string, params: readonly unknown[] = []): Promise<QueryResult> {
    const c = await this.acquire();
    try {
      return await this.exec(c, sql, params);
    } finally {
      c.release();
    }
  }

  private exec(c: Conn, sql: string, params: readonly unknown[]): Promise<QueryResult> {
    // A regular expression is always a bound parameter: a text without any (a bulk INSERT's
    // written-out values, which may say REGEXP) is not looked through.
    if (this.regexWarnings && params.length && REGEX_STATEMENT.test(sql))
      return this.onOwnConnection(c, (pc) => this.regexChecked(pc, sql, params));
    if (!this.watchOthers || SERVER_TIMED.test(sql)) return run(c, sql, params);
    return this.onOwnConnection(c, (pc) => this.watched(pc, sql, params));
  }

  /**
   * MariaDB's PCRE2 gives up on a row past its backtracking limit with only a warning, and the row
   * counts as not matching: a short answer nobody is told about. The warnings are read right after
   * such a statement, on its connection, and a given-up match fails the statement instead.
   */
  private async regexChecked(c: mysql.PoolConnection, sql: string, params: readonly unknown[]): Promise<QueryResult> {
    const out = await run(c, sql, params);
    const [warnings] = await c.query('SHOW WARNINGS');
    const gaveUp = (warnings as { Code: number; Message: string }[]).find(
      (w) => Number(w.Code) === MARIADB_REGEX_WARNING,
    );
    if (gaveUp)
      throw Object.assign(new Error(gaveUp.Message), {
        errno: MARIADB_REGEX_WARNING,
        sqlMessage: `${gaveUp.Message} (the regex engine gave up on a row)`,
      });
    return out;
  }

  /** fn on `c` when it is a connection already (a transaction's), else on one taken from the pool for it. */
  private async onOwnConnection<T>(c: Conn, fn: (c: mysql.PoolConnection) => Promise<T>): Promise<T> {
    if ('release' in c) return fn(c);
    const own = await this.acquire();
    try {
      return await fn(own);
    } finally {
      own.release();
    }
  }

  /**
   * A statement MySQL's own limit does not cover, cancelled with KILL QUERY from another connection
   * once it runs past the limit. The kill is awaited before the connection is used again, so it can
   * only ever reach this statement (a kill that finds the connection idle is dropped by the server).
   */
  private async watched(c: mysql.PoolConnection, sql: string, params: readonly unknown[]): Promise<QueryResult> {
    let kill: Promise<unknown> | null = null;
    const timer = setTimeout(() => {
      kill = this.pool.query(`KILL QUERY ${Number(c.threadId)}`).catch(() => undefined);
    }, this.timeLimitMs);
    try {
      return await run(c, sql, params);
    } catch (e) {
      if (kill && typeof e === 'object' && e !== null) Object.assign(e, { [STATEMENT_TIMEOUT]: true });
      throw e;
    } finally {
      clearTimeout(timer);
      if (kill) await kill;
    }
  }

  async transaction<T>(fn: (s: SqlSession) => Promise<T>): Promise<T> {
    const c = await this.acquire();
    let broken = false;
    try {
      await c.beginTransaction();
      const out = await fn({ query: (sql, params = []) => this.exec(c, sql, params) });
      await committing(this.commitOn(c), () => c.commit());
      return out;
    } catch (e) {
      await c.rollback().catch(() => {
        broken = true;
      });
      throw e;
    } finally {
      if (broken) c.destroy();
      else c.release();
    }
  }

  async autocommit(sql: string, params: readonly unknown[]): Promise<QueryResult> {
    const c = await this.acquire();
    let broken = false;
    try {
      return await committing(this.commitOn(c), () => this.exec(c, sql, params));
    } catch (e) {
      broken = e instanceof CommitInDoubt;
      throw e;
    } finally {
      if (broken) c.destroy();
      else c.release();
    }
  }

  /** c's side of sending a commit (storage/sql/committing.ts). */
  private commitOn(c: mysql.PoolConnection): CommitConnection {
    return { socket: socketOf(c), session: Number(c.threadId), classify: (e) => this.classify(e) };
  }

  endSession(session: number): Promise<void> {
    return endSession((sql, params) => this.query(sql, params), this.sessionEnd, session);
  }

  async readSnapshot<T>(fn: (s: SqlSession) => Promise<T>): Promise<T> {
    const c = await this.acquire();
    const limit = async (ms: number) => {
      for (const sql of timeLimitStatements(ms)) await c.query(sql).catch(() => undefined);
    };
    try {
      if (this.timeLimitMs) await limit(0);
      await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ'); // the next transaction only
      await c.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
      const out = await fn({ query: (sql, params = []) => this.exec(c, sql, params) });
      await c.query('COMMIT');
      return out;
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      if (this.timeLimitMs) await limit(this.timeLimitMs);
      c.release();
    }
  }

  async *cursor(sql: string, params: readonly unknown[], chunk: number): AsyncGenerator<Record<string, unknown>[]> {
    const c = await this.acquire();
    let whole = false;
    try {
      if (this.timeLimitMs) for (const q of timeLimitStatements(0)) await c.query(q).catch(() => undefined);
      await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      await c.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
      const stream = mysqlCore(c.connection).execute(sql, params).stream({ highWaterMark: chunk });
      let rows: Record<string, unknown>[] = [];
      for await (const row of stream) {
        rows.push(row as Record<string, unknown>);
        if (rows.length < chunk) continue;
        yield rows;
        rows = [];
      }
      if (rows.length) yield rows;
      await c.query('COMMIT');
      whole = true;
    } finally {
      // Rows still coming would hold the connection: a scan left early closes it.
      if (whole) {
        if (this.timeLimitMs)
          for (const q of timeLimitStatements(this.timeLimitMs)) await c.query(q).catch(() => undefined);
        c.release();
      } else c.destroy();
    }
  }

  async exclusive<T>(lockName: string, fn: (s: SqlSession) => Promise<T>): Promise<T> {
    const c = await this.acquire();
    const s: SqlSession = { query: (sql, params = []) => run(c, sql, params) };
    // Migrations may rightly run longer than a query's limit: lifted here, restored after.
    const limit = async (ms: number) => {
      for (const sql of timeLimitStatements(ms)) await c.query(sql).catch(() => undefined);
    };
    try {
      if (this.timeLimitMs) await limit(0);
      return await withNamedLock(s, MYSQL_LOCK, lockName, fn);
    } finally {
      if (this.timeLimitMs) await limit(this.timeLimitMs);
      c.release();
    }
  }

  async withoutReferenceChecks<T>(s: SqlSession, fn: () => Promise<T>): Promise<T> {
    await s.query('SAVEPOINT without_references');
    await s.query('SET SESSION foreign_key_checks = 0');
    try {
      return await fn();
    } finally {
      await s.query('ROLLBACK TO SAVEPOINT without_references');
      await s.query('SET SESSION foreign_key_checks = 1');
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  classify(err: unknown): ClassifiedError {
    return classifyMysqlError(err);
  }

  decode(col: ColumnModel, raw: unknown): unknown {
    if (raw === null || raw === undefined) return null;
    switch (col.cls) {
      // DATETIME(3) holds UTC; prepared statements return it without a zero fraction.
      case 'datetime':
        return new Date(`${String(raw).replace(' ', 'T')}Z`).toISOString();
      case 'boolean':
        return raw === 1 || raw === '1' || raw === true;
      case 'json':
      case 'opaque':
        return typeof raw === 'string' ? JSON.parse(raw) : raw;
      case 'number':
        return typeof raw === 'number' ? raw : Number(raw);
      // An integer id (BIGINT) comes back as a number: ids are canonical decimal text in rows.
      case 'uuid':
        return typeof raw === 'number' || typeof raw === 'bigint'
          ? String(raw)
          : Buffer.isBuffer(raw)
            ? raw.toString('utf8')
            : raw;
      default:
        return Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
    }
  }

  // MySQL 8 rejects numeric LIMIT parameters of prepared statements; strings work everywhere.
  pageValue(n: number): unknown {
    return String(n);
  }
}
