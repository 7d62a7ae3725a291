// What a replica of the database reads: every row in one consistent snapshot with the change seq
// it holds (its load), and the change counter (how far the log is).
import { currentNumber } from '../../../engine/sql/change-counter.js';
import { SqlBuilder } from '../../../engine/sql/sql-builder.js';
import { TABLE_MODELS } from '../../../engine/sql/table-model.js';
import { idParam } from '../../../engine/sql/id-columns.js';
import type { Row } from '../../types.js';
import type { SqlSession } from '../driver.js';
import type { SqlContext } from './context.js';

/** Rows per page of a replica's load. */
const SNAPSHOT_PAGE = 10000;

export class ReplicaFeed {
  constructor(private readonly ctx: SqlContext) {}

  /**
   * Every row of every resource in one consistent snapshot, each table in id order a page at a
   * time (`each` per page), and the change seq that snapshot holds: what a replica loads.
   */
  snapshotRows(
    each: (resource: string, rows: Row[]) => void,
    resources: readonly string[] = TABLE_MODELS.map((m) => m.resource.name),
  ): Promise<number> {
    const { d } = this.ctx.ready();
    return this.ctx.guard(() =>
      this.ctx.driver.readSnapshot(async (s) => {
        const counter = currentNumber(d);
        const seq = Number((await s.query(counter.sql, counter.params)).rows[0]?.seq ?? 0);
        for (const resource of resources) await this.pages(s, resource, each);
        return seq;
      }),
    );
  }

  /** One table's rows in id order, SNAPSHOT_PAGE at a time. */
  private async pages(s: SqlSession, resource: string, each: (resource: string, rows: Row[]) => void): Promise<void> {
    const { d, compiler } = this.ctx.ready();
    const head = compiler.heads(resource).select;
    const id = `m.${d.quote('id')}`;
    for (let after: string | null = null; ;) {
      const b = new SqlBuilder(d).emit(head);
      if (after !== null) b.emit(` WHERE ${id} > `).param(after, idParam(d, resource));
      const page = b.emit(` ORDER BY ${id} LIMIT ${SNAPSHOT_PAGE}`).build();
      const rows = this.ctx.rows(resource, await s.query(page.sql, page.params));
      if (rows.length) each(resource, rows);
      if (rows.length < SNAPSHOT_PAGE) return;
      after = rows[rows.length - 1].id;
    }
  }

  async changeSeq(): Promise<number> {
    const st = currentNumber(this.ctx.ready().d);
    return Number((await this.ctx.run(st)).rows[0]?.seq ?? 0);
  }
}
