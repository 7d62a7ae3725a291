// The statistics the database plans queries with: tables analyzed by this process as they grow
// (table-growth.ts, where the database does not keep them up itself), and all of them after a
// bulk load.
import { COVER_TABLE } from '../../../engine/allocation/sql-cover-marks.js';
import { COUNT_DELTAS, COUNT_TABLE } from '../../../engine/sql/related-counts.js';
import { TABLE_MODELS, tableModel } from '../../../engine/sql/table-model.js';
import type { WriteOp } from '../../types.js';
import { TableGrowth } from '../table-growth.js';
import type { SqlContext } from './context.js';
import type { CountFolding } from './count-folding.js';

export class Statistics {
  /** Tables analyzed by this process as they grow (null where the database keeps its own statistics). */
  private growth: TableGrowth | null = null;

  constructor(
    private readonly ctx: SqlContext,
    private readonly folding: CountFolding,
  ) {}

  /** After open(): a store that writes keeps up the statistics where the driver says how many rows they count. */
  start(): void {
    const rowsSql = this.ctx.driver.estimatedRowsSql;
    if (!rowsSql || this.ctx.opts.reader) return;
    const { d } = this.ctx.ready();
    this.growth = new TableGrowth(async (table) => {
      await this.ctx.query(d.analyze(table), []);
      return Number((await this.ctx.query(rowsSql, [table])).rows[0]?.n ?? 0);
    });
  }

  /** Waits for an analyze under way; none starts after. */
  async stop(): Promise<void> {
    await this.growth?.idle();
    this.growth = null;
  }

  /** A committed batch's creates, counted per table (a prefix also adds its block's cover mark row). */
  grew(batch: readonly WriteOp[]): void {
    if (!this.growth) return;
    const by = new Map<string, number>();
    for (const o of batch) {
      if (o.op !== 'create') continue;
      const m = tableModel(o.resource);
      by.set(m.table, (by.get(m.table) ?? 0) + 1);
      if (m.net && m.resource.name === 'prefix') by.set(COVER_TABLE, (by.get(COVER_TABLE) ?? 0) + 1);
    }
    for (const [table, n] of by) this.growth.created(table, n);
  }

  async afterBulkLoad(): Promise<void> {
    const { d } = this.ctx.ready();
    // The tag join tables too: without their statistics a tag filter is estimated blind. And the
    // prefixes' cover marks: estimated as a few rows, their range lookup reads the whole family.
    for (const m of TABLE_MODELS) for (const t of [m.table, m.tagsTable]) if (t) await this.ctx.query(d.analyze(t), []);
    await this.ctx.query(d.analyze(COVER_TABLE), []);
    await this.folding.fold();
    for (const t of [COUNT_TABLE, COUNT_DELTAS]) await this.ctx.query(d.analyze(t), []);
  }
}
