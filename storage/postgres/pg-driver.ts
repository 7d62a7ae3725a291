// The PostgreSQL driver: a pg Pool. bigint comes back as a JS number (counts, integer fields),
// timestamptz as Date (turned into ISO strings), jsonb parsed.
import pg from 'pg';
import { postgresDialect } from '../../engine/sql/dialects/postgres.js';
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
import { classifyPgError, pgConnectReason } from './errors.js';
import { DEFAULT_POOL_WAIT_MS, PoolWaits } from '../sql/pool-waits.js';

const INT8_OID = 20;
const TIMESTAMPTZ_OID = 1184;

/** PostgreSQL's text of a UTC instant: `2026-01-01 00:00:00.12+00` (the session's TimeZone is UTC). */
const UTC_TEXT = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;
const viaDate = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text') as (v: string) => unknown;

/**
 * A timestamptz as the ISO text rows carry (`2026-01-01T00:00:00.120Z`, milliseconds cut as Date
 * cuts them): straight from UTC text, else through pg's Date parser (another offset, BC, infinity).
 * Parsing each into a Date and formatting it again took a sixth of a page of 1,000 rows (profiled).
 */
export function isoOfTimestamptz(v: string): unknown {
  const m = UTC_TEXT.exec(v);
  if (m) return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
  const d = viaDate(v);
  return d instanceof Date && !Number.isNaN(d.getTime()) ? d.toISOString() : d;
}

/** What isoOfTimestamptz gives: decode passes it on as it is. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const PARSERS: Readonly<Record<number, (v: string) => unknown>> = {
  [INT8_OID]: (v) => Number(v),
  [TIMESTAMPTZ_OID]: isoOfTimestamptz,
};

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    (format ?? 'text') === 'text' && PARSERS[oid]
      ? PARSERS[oid]
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export interface PgDriverOptions {
  readonly max?: number;
  readonly connectTimeoutMs?: number;
  readonly statementTimeoutMs?: number;
  readonly poolWaitMs?: number;
}

/** pg-pool's error when connectionTimeoutMillis passed before a client was free (or connected). */
const POOL_TIMEOUT = /timeout exceeded when trying to connect/i;

/**
 * Statement texts get a name, so each connection parses them once and may reuse their plan
 * (server-side prepared statements). Past the bound, unnamed. Statements with containment
 * operators stay unnamed, planned for their values every time: a generic plan of
 * `net_block << $1` cannot use PostgreSQL's subnet support and scans the whole index.
 */
const MAX_NAMED = 2000;
const NEEDS_VALUES = /<<|>>|^\s*(BEGIN|COMMIT|ROLLBACK|EXPLAIN|CREATE|ALTER|DROP|VACUUM|ANALYZE)\b/i;

/** Waits up to 5 s for the backend to exit (PostgreSQL 14+), then the list is watched as well. */
const PG_SESSION_END: SessionEndStatements = {
  terminate: (pid) => ({ sql: 'SELECT pg_terminate_backend($1::int, 5000)', params: [pid] }),
  alive: (pid) => ({ sql: 'SELECT 1 FROM pg_stat_activity WHERE pid = $1::int', params: [pid] }),
};

/** What pg keeps on a client and its types leave out: the backend's process id, the socket it opened. */
interface PgInternals {
  readonly processID: number;
  readonly connection: { readonly stream: Socket };
}

/**
 * The one place pg's internals are read. pg sets `processID` from the server's BackendKeyData and opens
 * `connection.stream` as a net.Socket, but its types declare neither (the stream only as a Duplex): one cast.
 */
function pgInternals(client: pg.Client): PgInternals {
  return client as unknown as PgInternals;
}

/** The socket of a pooled connection: held or closed at a fault point. */
const socketOf = (client: pg.PoolClient) => pgInternals(client).connection.stream;
const pidOf = (client: pg.PoolClient): number => pgInternals(client).processID;

const PG_LOCK: LockStatements = {
  lock: 'SELECT pg_advisory_lock(hashtext($1::text))',
  unlock: 'SELECT pg_advisory_unlock(hashtext($1::text))',
};

export class PgDriver implements SqlDriver {
  readonly kind = 'postgres' as const;
  readonly parallelCount = false;
  readonly transactionalDdl = true;
  // autovacuum may be off (it is on this project's machines): nothing else would analyze a growing table.
  readonly estimatedRowsSql = 'SELECT GREATEST(reltuples, 0)::bigint AS n FROM pg_class WHERE oid = $1::regclass';
  readonly explainPrefix = 'EXPLAIN (FORMAT JSON) ';
  readonly serverVersionSql = 'SHOW server_version';
  readonly withoutReferenceChecks = null;
  private readonly pool: pg.Pool;
  /** host:port, for messages. */
  readonly where: string;
  private readonly names = new Map<string, string>();
  /** Every wait for a pooled client, bounded by connectionTimeoutMillis (pg-pool's own bound). */
  readonly poolWaits: PoolWaits;

  private readonly url: string;

  constructor(url: string, opts: PgDriverOptions = {}) {
    this.url = url;
    const u = new URL(url);
    this.where = `${u.hostname || 'localhost'}:${u.port || '5432'}`;
    // statement_timeout is the session default of every pooled connection (sent at connect);
    // exclusive() lifts it for migrations, whose index builds may rightly take longer.
    // connectionTimeoutMillis bounds both the wait for a free client and the opening of a new one.
    this.poolWaits = new PoolWaits(opts.poolWaitMs ?? opts.connectTimeoutMs ?? DEFAULT_POOL_WAIT_MS);
    this.pool = new pg.Pool({
      connectionString: url,
      max: opts.max ?? 20,
      connectionTimeoutMillis: this.poolWaits.limitMs,
      types,
      ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
    });
    // An idle client losing its server must not crash the process; the next query reports it.
    this.pool.on('error', () => undefined);
    // Nor one checked out (a transaction under way): the query it runs fails, and that is handled.
    this.pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
  }

  async connect(): Promise<Dialect> {
    let icu: boolean;
    try {
      const r = await this.pool.query(`SELECT EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu') AS icu`);
      icu = r.rows[0].icu === true;
    } catch (e) {
      throw new StorageUnavailable(`cannot connect to PostgreSQL at ${this.where}: ${pgConnectReason(e)}`);
    }
    return postgresDialect({ ciCollation: icu ? 'und-x-icu' : null });
  }

  private config(sql: string, params: readonly unknown[]): pg.QueryConfig {
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < MAX_NAMED && params.length > 0 && !NEEDS_VALUES.test(sql)) {
      name = `s${this.names.size}`;
      this.names.set(sql, name);
    }
    return name === undefined
      ? { text: sql, values: params as unknown[] }
      : { name, text: sql, values: params as unknown[] };
  }

  /** A pooled client, its wait timed (and bounded by the pool). */
  private acquire(): Promise<pg.PoolClient> {
    return this.poolWaits.timed(
      () => this.pool.connect(),
      (e) => e instanceof Error && POOL_TIMEOUT.test(e.message),
      `PostgreSQL at ${this.where}`,
    );
  }

  async query(sql: string, params: readonly unknown[] = []): Promise<QueryResult> {
    // As pg-pool's own query(): a client whose statement failed is not pooled again.
    const client = await this.acquire();
    let failed: Error | undefined;
    try {
      const r = await client.query(this.config(sql, params));
      return { rows: r.rows, rowCount: r.rowCount ?? r.rows.length };
    } catch (e) {
      failed = e as Error;
      throw e;
    } finally {
      client.release(failed);
    }
  }

  private session(client: pg.PoolClient): SqlSession {
    return {
      query: async (sql, params = []) => {
        const r = await client.query(this.config(sql, params));
        return { rows: r.rows, rowCount: r.rowCount ?? r.rows.length };
      },
    };
  }

  async transaction<T>(fn: (s: SqlSession) => Promise<T>): Promise<T> {
    const client = await this.acquire();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const out = await fn(this.session(client));
      await committing(this.commitOn(client), () => client.query('COMMIT'));
      return out;
    } catch (e) {
      await client.query('ROLLBACK').catch((re: Error) => {
        broken = re;
      });
      throw e;
    } finally {
      client.release(broken);
    }
  }

  async autocommit(sql: string, params: readonly unknown[]): Promise<QueryResult> {
    const client = await this.acquire();
    let broken: Error | undefined;
    try {
      const r = await committing(this.commitOn(client), () => client.query(this.config(sql, params)));
      return { rows: r.rows, rowCount: r.rowCount ?? r.rows.length };
    } catch (e) {
      if (e instanceof CommitInDoubt) broken = e;
      throw e;
    } finally {
      client.release(broken);
    }
  }

  /** client's side of sending a commit (storage/sql/committing.ts). */
  private commitOn(client: pg.PoolClient): CommitConnection {
    return { socket: socketOf(client), session: pidOf(client), classify: (e) => this.classify(e) };
  }

  endSession(session: number): Promise<void> {
    return endSession((sql, params) => this.query(sql, params), PG_SESSION_END, session);
  }

  /**
   * LISTEN on a connection of its own (outside the pool): `onMessage` gets each notification's
   * payload. A lost connection is opened again after a pause (meanwhile callers rely on polling).
   * Resolves to the function that stops listening.
   */
  async listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>> {
    let stopped = false;
    let client: pg.Client | null = null;
    let retry: NodeJS.Timeout | null = null;
    const open = async (): Promise<void> => {
      if (stopped) return;
      const c = new pg.Client({ connectionString: this.url });
      c.on('notification', (n) => {
        if (n.channel === channel) onMessage(n.payload ?? '');
      });
      c.on('error', () => {
        if (client === c) {
          client = null;
          c.end().catch(() => undefined);
          retry = setTimeout(() => void open(), 1000);
        }
      });
      try {
        await c.connect();
        // Listening alone must not keep the process alive (a store not closed, a test's end).
        pgInternals(c).connection?.stream?.unref?.();
        await c.query(`LISTEN ${channel}`);
        if (stopped) {
          await c.end();
          return;
        }
        client = c;
      } catch {
        await c.end().catch(() => undefined);
        if (!stopped) retry = setTimeout(() => void open(), 1000);
      }
    };
    await open();
    return async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    };
  }

  async readSnapshot<T>(fn: (s: SqlSession) => Promise<T>): Promise<T> {
    const client = await this.acquire();
    try {
      // No statement limit: a large store takes longer to read than one query may.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      await client.query('SET LOCAL statement_timeout = 0');
      const out = await fn(this.session(client));
      await client.query('COMMIT');
      return out;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  async *cursor(sql: string, params: readonly unknown[], chunk: number): AsyncGenerator<Record<string, unknown>[]> {
    const client = await this.acquire();
    let failed: Error | undefined;
    let open = false;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      open = true;
      await client.query({ text: `DECLARE scan_rows NO SCROLL CURSOR FOR ${sql}`, values: params as unknown[] });
      for (;;) {
        const r = await client.query(`FETCH ${Math.floor(chunk)} FROM scan_rows`);
        if (r.rows.length) yield r.rows as Record<string, unknown>[];
        if (r.rows.length < chunk) break;
      }
      await client.query('COMMIT');
      open = false;
    } catch (e) {
      failed = e as Error;
      throw e;
    } finally {
      // Left early (the consumer stopped) or failed: the snapshot is given up.
      if (open) await client.query('ROLLBACK').catch((e: Error) => (failed ??= e));
      client.release(failed);
    }
  }

  async exclusive<T>(lockName: string, fn: (s: SqlSession) => Promise<T>): Promise<T> {
    const client = await this.acquire();
    const s = this.session(client);
    try {
      await client.query('SET statement_timeout = 0');
      return await withNamedLock(s, PG_LOCK, lockName, fn);
    } finally {
      // A connection that could not get its limit back is closed rather than returned to the pool.
      client.release(
        await client.query('RESET statement_timeout').then(
          () => undefined,
          (e: Error) => e,
        ),
      );
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  classify(err: unknown): ClassifiedError {
    return classifyPgError(err);
  }

  decode(col: ColumnModel, raw: unknown): unknown {
    if (raw === null || raw === undefined) return null;
    // An integer id (bigint, parsed as a number above): ids are canonical decimal text in rows.
    if (col.cls === 'uuid' && typeof raw === 'number') return String(raw);
    if (col.cls === 'datetime')
      return ISO_INSTANT.test(String(raw))
        ? raw
        : raw instanceof Date
          ? raw.toISOString()
          : new Date(String(raw)).toISOString();
    return raw;
  }

  pageValue(n: number): unknown {
    return n;
  }
}
