// Drives a stepwise engine computation (a long scan pauses every few thousand rows) so that it
// neither holds the event loop for long nor runs past its time budget.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Steps } from '../../engine/memory/evaluate.js';
import { QueryTimeout } from '../types.js';

/** Longest stretch a query computes before other requests get a turn. */
export const SLICE_MS = 20;
/** After this many restarts (writes landed during pauses) a query runs to the end without pausing. */
const MAX_RESTARTS = 2;

export interface StepControl {
  /** 0 = no budget. */
  readonly budgetMs: number;
  /** Changes whenever the data changes: a paused scan must not mix two states of the tables. */
  readonly version: () => number;
}

export async function runStepwise<T>(start: () => Steps<T>, ctl: StepControl): Promise<T> {
  const t0 = performance.now();
  for (let attempt = 0; ; attempt++) {
    const seen = ctl.version();
    const steps = start();
    let sliceStart = performance.now();
    // Leaves by returning, by throwing, or by `break` when writes landed during a pause (restart).
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      const now = performance.now();
      if (ctl.budgetMs > 0 && now - t0 > ctl.budgetMs) { steps.return(undefined as never); throw new QueryTimeout(ctl.budgetMs); }
      if (attempt < MAX_RESTARTS && now - sliceStart >= SLICE_MS) {
        await nextTurn();
        if (ctl.version() !== seen) break;
        sliceStart = performance.now();
      }
    }
  }
}
