// Heap figures for the memory benchmarks: live JS heap plus ArrayBuffer bytes, after collections.
const gc = (globalThis as { gc?: () => void }).gc;

/** Whether `--expose-gc` was given (without it the figures include garbage). */
export const canCollect = !!gc;

/** Live heap + ArrayBuffer bytes. Waits between GCs: freed ArrayBuffer backing stores are released asynchronously. */
export async function heapBytes(): Promise<number> {
  for (let k = 0; k < 4; k++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 25));
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
