// The steps of a compaction (journal.ts), and the test seam that can stop one at a step.
import fs from 'node:fs';

/** The steps of a compaction, in order: a crash after any of them leaves a store that starts with the same rows. */
export const COMPACTION_STEPS = [
  'snapshot-partial',
  'snapshot-written',
  'snapshot-renamed',
  'journal-written',
  'journal-renamed',
] as const;
export type CompactionStep = (typeof COMPACTION_STEPS)[number];

/** The environment variable that makes a process stop for good at a compaction step (tests only). */
export const COMPACTION_PAUSE_ENV = 'MEMORY_COMPACTION_TEST_PAUSE';

/**
 * A test seam, inert in production: called after each step of a compaction. Unset (as in
 * production) it is null and each step costs one test of null. Tests set it in-process
 * (setCompactionHook) to stop a compaction there, or start a process with
 * MEMORY_COMPACTION_TEST_PAUSE=<step>: that process then prints `compaction paused at <step>` to
 * stderr and sleeps at that step until it is killed (so a test can kill -9 it there).
 */
let compactionHook: ((step: CompactionStep) => void) | null = pauseAt(process.env[COMPACTION_PAUSE_ENV]);

/** Sets the compaction hook (tests only); returns the one it replaces. */
export function setCompactionHook(
  hook: ((step: CompactionStep) => void) | null,
): ((step: CompactionStep) => void) | null {
  const was = compactionHook;
  compactionHook = hook;
  return was;
}

/** A compaction reached `step`: the hook, when one is set, is told. */
export function compactionStep(step: CompactionStep): void {
  compactionHook?.(step);
}

function pauseAt(step: string | undefined): ((step: CompactionStep) => void) | null {
  if (!step) return null;
  if (!(COMPACTION_STEPS as readonly string[]).includes(step))
    throw new Error(`${COMPACTION_PAUSE_ENV}=${step}: not one of ${COMPACTION_STEPS.join(', ')}`);
  return (at) => {
    if (at !== step) return;
    fs.writeSync(2, `compaction paused at ${at} (pid ${process.pid})\n`);
    const cell = new Int32Array(new SharedArrayBuffer(4));
    for (;;) Atomics.wait(cell, 0, 0);
  };
}
