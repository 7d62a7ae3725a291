// SqlStorage.apply: a batch and its change records in one transaction (or, for the most frequent
// shape, one statement), numbered by the change counter, run again when a deadlock chose it, and
// asked after when the connection went with its COMMIT in flight.
import { CHANGE_RESOURCE, numberChanges, toNumber } from '../../../engine/changes/change-records.js';
import { readTaken, takeNumbers } from '../../../engine/sql/change-counter.js';
import { tableModel } from '../../../engine/sql/table-model.js';
import { CheckFailed, type ApplyOptions, type ApplyResult, type RowCheck, type WriteOp } from '../../types.js';
import { checkStatement } from './row-checks.js';
import { noteCommitted, typesWritten } from '../../change-log/change-feed.js';
import { withChangeRecords } from '../../change-log/logged-batch.js';
import { noteSeq } from '../../change-log/write-context.js';
import { commitOutcome, notCommitted } from '../commit-outcome.js';
import { CommitInDoubt, type SqlSession } from '../driver.js';
import type { SqlContext } from './context.js';
import type { CountFolding } from './count-folding.js';
import type { Statistics } from './statistics.js';
import { NO_SESSION, writeError } from './write-errors.js';
import { groups, writeGroup, type Group } from './write-groups.js';

type Create = Extract<WriteOp, { op: 'create' }>;

const isRecord = (o: WriteOp): boolean => o.resource === CHANGE_RESOURCE;

export class SqlWrites {
  /** `store`: what followers of the change log are told the commits went through. */
  constructor(
    private readonly ctx: SqlContext,
    private readonly store: object,
    private readonly folding: CountFolding,
    private readonly stats: Statistics,
  ) {}

  async apply(ops: readonly WriteOp[], opts: ApplyOptions = {}): Promise<ApplyResult> {
    const batch = withChangeRecords(ops, opts);
    if (!batch.length) return { seq: null };
    try {
      return await this.applyBatch(batch, opts.checks ?? []);
    } catch (e) {
      if (!(e instanceof CommitInDoubt)) throw e;
      // The connection went with COMMIT in flight: ask the database what became of the write.
      const records = batch.filter(isRecord);
      const last = records.length ? (records[records.length - 1] as Create).row.id : null;
      const changes = tableModel(CHANGE_RESOURCE).table;
      const out = await commitOutcome(this.ctx.driver, this.ctx.ready().d, changes, e, last);
      if (!out.committed) throw notCommitted(e);
      this.committed(out.seq, batch);
      this.folding.deltasMade(batch);
      return { seq: out.seq };
    }
  }

  private async applyBatch(batch: readonly WriteOp[], checks: readonly RowCheck[]): Promise<ApplyResult> {
    const { count, carried } = toNumber(batch);
    const fast =
      count && !carried && !checks.length
        ? await this.ctx.againIfVictim(() => this.createsLogged(batch, count))
        : undefined;
    if (fast !== undefined) {
      this.folding.deltasMade(batch);
      this.stats.grew(batch);
      return fast;
    }
    const seq = await this.ctx.againIfVictim(() =>
      this.ctx.guard(() =>
        this.ctx.driver.transaction(async (s) => {
          // The change records go last, numbered just before they are written (change-counter.ts).
          const data = batch.filter((o) => !isRecord(o));
          let records = batch.filter(isRecord);
          let last: number | null = null;
          await this.check(s, checks, 'before');
          for (const g of groups(data)) await this.write(s, g);
          await this.check(s, checks, 'after');
          if (records.length) {
            last = await this.takeNumbers(s, count, carried);
            records = numberChanges(records, last - count + 1, new Date().toISOString());
            for (const g of groups(records)) await this.write(s, g);
          }
          return last;
        }),
      ),
    );
    if (seq !== null) this.committed(seq, batch); // noteSeq(null) would note nothing
    this.folding.deltasMade(batch);
    this.stats.grew(batch);
    return { seq };
  }

  /** The batch committed as change `seq`: this request's context and the log's followers are told. */
  private committed(seq: number, batch: readonly WriteOp[]): void {
    noteSeq(seq);
    noteCommitted(seq, { store: this.store, types: typesWritten(batch) });
  }

  /**
   * Creates of one resource and their records in one statement (WriteStatements.createsLogged), the
   * most frequent write: one round trip instead of five. undefined where the batch is of another shape.
   */
  private async createsLogged(batch: readonly WriteOp[], count: number): Promise<ApplyResult | undefined> {
    const [g, ...more] = groups(batch.filter((o) => !isRecord(o)));
    // Address resources keep bookkeeping of their own in the write's transaction (allocation): not here.
    if (more.length || g?.kind !== 'create' || g.m.net) return undefined;
    const records = numberChanges(batch.filter(isRecord), 1).map((o) => (o as Create).row);
    const st = this.ctx.ready().writes.createsLogged(
      g.m,
      g.ops.map((o) => o.row),
      records,
    );
    if (!st) return undefined;
    const r = await this.ctx.guard(async () => {
      try {
        return await this.ctx.driver.autocommit(st.sql, st.params);
      } catch (e) {
        throw await writeError(this.ctx, e, g, NO_SESSION);
      }
    });
    const seq = Math.max(...r.rows.map((x) => Number(x.seq)));
    if (r.rows.length !== count) throw new Error(`createsLogged: ${r.rows.length} records written, ${count} expected`);
    this.committed(seq, batch);
    return { seq };
  }

  private async write(s: SqlSession, g: Group): Promise<void> {
    try {
      await writeGroup(this.ctx, s, g);
    } catch (e) {
      throw await writeError(this.ctx, e, g, s);
    }
  }

  /** Each check of the batch that is to hold `when`, tested on the transaction's session (rolled back if not). */
  private async check(s: SqlSession, checks: readonly RowCheck[], when: RowCheck['when']): Promise<void> {
    for (const c of checks) {
      if (c.when !== when) continue;
      const st = checkStatement(this.ctx.ready(), c);
      if (Number((await s.query(st.sql, st.params)).rows[0].n) !== new Set(c.ids).size) throw new CheckFailed(c);
    }
  }

  /** Raises the change counter by `count` (past `carried`) in the transaction; the new value. */
  private async takeNumbers(s: SqlSession, count: number, carried: number): Promise<number> {
    const { d } = this.ctx.ready();
    const take = takeNumbers(d, count, carried);
    const r = await s.query(take.sql, take.params);
    if (r.insertId) return r.insertId; // MySQL: LAST_INSERT_ID(expr) comes back with the UPDATE, no SELECT
    const read = readTaken(d);
    const row = read ? (await s.query(read.sql, read.params)).rows[0] : r.rows[0];
    return Number(row.seq);
  }
}
