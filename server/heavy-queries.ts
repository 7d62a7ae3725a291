// A cap on heavy list queries running at once (MAX_HEAVY_QUERIES; which are heavy: engine/plan/
// query-weight.ts), so that light work (sign-in, single objects, writes) stays responsive while
// many scans run: past the cap a heavy query is answered 429 with Retry-After at once.
import type { Response } from 'express';
import type { Plan } from '../engine/plan/nodes.js';
import { isHeavy } from '../engine/plan/query-weight.js';

export class HeavyQueryGate {
  private running = 0;
  constructor(private readonly max: number) {}

  /** fn under the cap when the plan is heavy (or `heavy` says so: an export); past the cap a 429 and fn is not run. */
  async run(plan: Plan, res: Response, fn: () => Promise<void>, heavy = isHeavy(plan)): Promise<void> {
    if (!heavy) return fn();
    if (this.running >= this.max) {
      res
        .set('Retry-After', '1')
        .status(429)
        .json({
          detail:
            `${this.max} heavy queries (regular expressions, case-insensitive text lookups, filters that ` +
            `narrow nothing through an index, exports) are running already (MAX_HEAVY_QUERIES); try again shortly.`,
          code: 'too_many_heavy_queries',
        });
      return;
    }
    this.running++;
    try {
      await fn();
    } finally {
      this.running--;
    }
  }
}
