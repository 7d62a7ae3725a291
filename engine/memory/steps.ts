// Stepwise computations: long loops of the memory evaluator pause (yield) every STEP_ROWS rows so
// that the caller can give the event loop a turn, or stop at a time budget.

/**
 * Rows handled between two pauses. Small, because a row can be costly (six catastrophic patterns
 * while the regex engine is still cold: ~15 µs a row, so 4,096 rows once made a 60 ms step); the
 * caller decides by the clock at each pause whether to give other requests a turn.
 */
export const STEP_ROWS = 512;

/** A computation that pauses (yields) every STEP_ROWS rows and returns its result at the end. */
export type Steps<T> = Generator<void, T, void>;

/** Runs steps to the end without pausing. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
