// What every part of SqlStorage shares: the driver, the state open() made (dialect, compiler,
// write statements, row decoders), and the mapping of database errors every statement goes
// through: a lost database -> StorageUnavailable, a statement over its time -> QueryTimeout,
// a deadlock's victim run again.
import { SqlCompiler } from '../../../engine/sql/compile.js';
import type { Dialect } from '../../../engine/sql/dialect.js';
import type { SqlText } from '../../../engine/sql/sql-builder.js';
import { TABLE_MODELS, tableModel, type TableModel } from '../../../engine/sql/table-model.js';
import { rowShape } from '../../../engine/schema/row-shape.js';
import {
  QueryRefused,
  QueryTimeout,
  StorageConflict,
  StorageUnavailable,
  type Row,
  type StorageOptions,
} from '../../types.js';
import type { QueryResult, SqlDriver } from '../driver.js';
import { WriteStatements } from '../write-statements.js';

/** How many times a write the database rolled back to break a deadlock is tried in all. */
const VICTIM_TRIES = 6;

type Decoder = (raw: Record<string, unknown>) => Row;

/** What open() sets up once the database answered with its dialect. */
export interface Opened {
  readonly d: Dialect;
  readonly compiler: SqlCompiler;
  readonly writes: WriteStatements;
  readonly decoders: ReadonlyMap<string, Decoder>;
}

export class SqlContext {
  private state: Opened | null = null;

  constructor(
    readonly driver: SqlDriver,
    readonly opts: StorageOptions,
  ) {}

  get isOpen(): boolean {
    return this.state !== null;
  }

  /** The store is usable from here on with dialect `d`. */
  start(d: Dialect): void {
    const decoders = new Map(TABLE_MODELS.map((m) => [m.table, this.decoder(m)]));
    this.state = {
      d,
      compiler: new SqlCompiler(d, (n) => this.driver.pageValue(n)),
      writes: new WriteStatements(d),
      decoders,
    };
  }

  stop(): void {
    this.state = null;
  }

  ready(): Opened {
    if (!this.state) throw new Error(`${this.driver.kind} storage used before open()`);
    return this.state;
  }

  private decoder(m: TableModel): Decoder {
    const cols = m.columns;
    const shape = rowShape(cols.map((c) => c.name)); // devices' 23 columns would make each row a dictionary
    return (raw) => {
      const row: Record<string, unknown> = { ...shape };
      for (const c of cols) row[c.name] = this.driver.decode(c, raw[c.name]);
      return row as Row;
    };
  }

  /**
   * A lost database becomes StorageUnavailable (503), a statement over its time limit QueryTimeout;
   * anything else propagates.
   */
  async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof StorageConflict || e instanceof StorageUnavailable) throw e;
      const c = this.driver.classify(e);
      if (c.kind === 'unavailable') throw new StorageUnavailable(c.message);
      if (c.kind === 'timeout') throw new QueryTimeout(this.opts.queryTimeoutMs ?? 0);
      if (c.kind === 'pattern')
        throw new QueryRefused(
          `The ${this.ready().d.label} regular expression engine cannot run a pattern of this query: ` +
            c.message.split('\n')[0],
        );
      throw e;
    }
  }

  query(sql: string, params: readonly unknown[]): Promise<QueryResult> {
    return this.guard(() => this.driver.query(sql, params));
  }

  /** A built statement run on the pool, guarded. */
  run(st: SqlText): Promise<QueryResult> {
    return this.query(st.sql, st.params);
  }

  /** Result rows of `resource` decoded to the rows memory holds. */
  rows(resource: string, r: QueryResult): Row[] {
    const dec = this.ready().decoders.get(tableModel(resource).table)!;
    return r.rows.map(dec);
  }

  /**
   * Runs a write again when the database chose it as a deadlock's victim (rolled back whole, so
   * nothing of it stays): writes that raise the same related counters in other orders may meet so.
   * Still a victim after a few tries: 503, try again later.
   */
  async againIfVictim<T>(write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (e) {
        if (
          e instanceof StorageConflict ||
          e instanceof StorageUnavailable ||
          this.driver.classify(e).kind !== 'victim'
        )
          throw e;
        if (attempt >= VICTIM_TRIES)
          throw new StorageUnavailable(
            `${this.ready().d.label}: a deadlock with other writes, ${VICTIM_TRIES} times over`,
          );
        // Apart, so the same two do not meet again at once.
        await new Promise((r) => setTimeout(r, Math.random() * 4 * attempt));
      }
    }
  }
}
