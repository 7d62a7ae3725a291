// What IP allocation reads and keeps in the database: the spans taken inside a block (from the
// prefixes' cover marks, or the addresses' rows) and where the search for a free block may start.
import type { AddrHex } from '../../../engine/net/ip.js';
import type { CoveredSpans } from '../../../engine/allocation/free-space.js';
import type { AllocationHint, NetBlock } from '../../types.js';
import { sqlAllocationHint, sqlSaveAllocationHint } from '../allocation/hints.js';
import { markedSpans } from '../allocation/cover-mark-upkeep.js';
import { sqlCoveredSpans } from '../allocation/covered-spans.js';
import type { SqlContext } from './context.js';

type NetResource = 'prefix' | 'ip_address';

export class SqlAllocation {
  constructor(private readonly ctx: SqlContext) {}

  coveredSpans(resource: NetResource, block: NetBlock, max: number, from?: AddrHex): Promise<CoveredSpans> {
    const { driver } = this.ctx;
    const spans = {
      d: this.ctx.ready().d,
      run: (sql: string, params: readonly unknown[]) => driver.query(sql, params),
      limitValue: (n: number) => driver.pageValue(n),
    };
    if (resource === 'prefix') return this.ctx.guard(() => markedSpans(spans.run, spans.d, driver, block, max, from));
    return this.ctx.guard(() => sqlCoveredSpans(spans, resource === 'ip_address', block, max, from));
  }

  allocationHint(resource: NetResource, block: NetBlock, length: number): Promise<AllocationHint> {
    return this.ctx.guard(() => sqlAllocationHint(this.ctx.driver, this.ctx.ready().d, resource, block, length));
  }

  saveAllocationHint(
    resource: NetResource,
    block: NetBlock,
    length: number,
    nextAt: AddrHex,
    gen: number,
  ): Promise<void> {
    const { driver } = this.ctx;
    return this.ctx.guard(() =>
      sqlSaveAllocationHint(driver, this.ctx.ready().d, resource, block, length, nextAt, gen),
    );
  }
}
