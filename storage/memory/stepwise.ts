// Drives a stepwise engine computation (a long scan pauses every few thousand rows) so that it
// neither holds the event loop for long, nor runs past its time budget, nor goes on computing for
// a client that has gone away.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Steps } from '../../engine/memory/steps.js';
import { QueryAborted, QueryTimeout } from '../types.js';

/** Longest stretch a query computes before other requests get a turn. */
export const SLICE_MS = 20;
/** After this many restarts (writes landed during pauses) a query runs to the end without pausing. */
const MAX_RESTARTS = 2;

export interface StepControl {
  /**
   * Budget of the query's own computing time in ms (0 = none). Time spent waiting while other
   * requests have their turn does not count: under load every query would otherwise run out of
   * budget together and the server would do nothing but cancel.
   */
  readonly budgetMs: number;
  /** Changes whenever the data changes: a paused scan must not mix two states of the tables. */
  readonly version: () => number;
  /** Aborted when the client has gone away. */
  readonly signal?: AbortSignal;
}

export async function runStepwise<T>(start: () => Steps<T>, ctl: StepControl): Promise<T> {
  let spent = 0;
  for (let attempt = 0; ; attempt++) {
    const seen = ctl.version();
    const steps = start();
    let sliceStart = performance.now();
    // Leaves by returning, by throwing, or by `break` when writes landed during a pause (restart).
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      const now = performance.now();
      if (ctl.budgetMs > 0 && spent + (now - sliceStart) > ctl.budgetMs) throw new QueryTimeout(ctl.budgetMs);
      if (attempt < MAX_RESTARTS && now - sliceStart >= SLICE_MS) {
        spent += now - sliceStart;
        await nextTurn();
        if (ctl.signal?.aborted) throw new QueryAborted();
        if (ctl.version() !== seen) break;
        sliceStart = performance.now();
      }
    }
  }
}
