// A cap on heavy list queries running at once (MAX_HEAVY_QUERIES), so that light work (sign-in,
// single objects, writes) stays responsive while many regular-expression or case-insensitive
// substring scans run: past the cap a heavy query is answered 429 with Retry-After at once.
import type { Response } from 'express';
import type { Plan } from '../engine/plan/nodes.js';

/** Lookups no index serves on every backend: a regex, or a case-insensitive text comparison. */
function heavyNode(p: Plan): boolean {
  switch (p.kind) {
    case 'and': case 'or': return p.children.some(heavyNode);
    case 'not': return heavyNode(p.child);
    case 'via': return heavyNode(p.plan);
    case 'cmp': case 'cf': return p.op === 'regex' || (p.ci && p.valueType === 'string');
    default: return false;
  }
}

const known = new WeakMap<Plan, boolean>(); // plans are cached and immutable: decided once each

export function isHeavy(plan: Plan): boolean {
  let h = known.get(plan);
  if (h === undefined) known.set(plan, (h = heavyNode(plan)));
  return h;
}

export class HeavyQueryGate {
  private running = 0;
  constructor(private readonly max: number) {}

  /** fn under the cap when the plan is heavy; past the cap a 429 and fn is not run. */
  async run(plan: Plan, res: Response, fn: () => Promise<void>): Promise<void> {
    if (!isHeavy(plan)) return fn();
    if (this.running >= this.max) {
      res.set('Retry-After', '1').status(429).json({
        detail: `${this.max} heavy queries (regular expressions, case-insensitive text lookups) are running already (MAX_HEAVY_QUERIES); try again shortly.`,
        code: 'too_many_heavy_queries',
      });
      return;
    }
    this.running++;
    try { await fn(); } finally { this.running--; }
  }
}
