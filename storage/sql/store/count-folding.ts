// Related-count deltas folded into their base rows (engine/sql/related-counts.ts): in the
// background every FOLD_EVERY writes of counted resources, and in full after a bulk load.
import {
  addToBase,
  COUNTED_RESOURCES,
  dropDeltas,
  FOLD_BATCH,
  takeDeltas,
} from '../../../engine/sql/related-counts.js';
import type { WriteOp } from '../../types.js';
import type { SqlContext } from './context.js';

/** Write batches of counted resources between two background folds of their count deltas. */
const FOLD_EVERY = 200;

export class CountFolding {
  /** Write batches since this process last folded related-count deltas, and the fold under way. */
  private deltaBatches = 0;
  private folding: Promise<number> | null = null;

  constructor(private readonly ctx: SqlContext) {}

  /** A write of a counted resource left deltas: every FOLD_EVERY such writes, fold in the background. */
  deltasMade(batch: readonly WriteOp[]): void {
    if (!batch.some((o) => COUNTED_RESOURCES.has(o.resource))) return;
    if (++this.deltaBatches < FOLD_EVERY || this.folding) return;
    this.deltaBatches = 0;
    // Not awaited by the write; a fold that fails (the store closing) leaves the deltas for the next.
    this.folding = this.fold(4)
      .catch(() => 0)
      .finally(() => {
        this.folding = null;
      });
  }

  /**
   * Moves related-count deltas into their base rows, FOLD_BATCH per transaction, until none are
   * left or `passes` ran; how many it moved. Reads are right either way (base plus deltas): folding
   * keeps them reading few rows.
   */
  async fold(passes = Infinity): Promise<number> {
    const { d } = this.ctx.ready();
    let moved = 0;
    for (let pass = 0; pass < passes; pass++) {
      const n = await this.ctx.againIfVictim(() =>
        this.ctx.guard(() =>
          this.ctx.driver.transaction(async (s) => {
            const take = takeDeltas(d);
            const taken = (await s.query(take.sql, take.params)).rows;
            if (!taken.length) return 0;
            const add = addToBase(d, taken);
            if (add) await s.query(add.sql, add.params);
            const drop = dropDeltas(
              d,
              taken.map((r) => r.id as string | number),
            );
            await s.query(drop.sql, drop.params);
            return taken.length;
          }),
        ),
      );
      moved += n;
      if (n < FOLD_BATCH) break;
    }
    return moved;
  }
}
