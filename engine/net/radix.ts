// LSD radix sort of row ids by 16-bit digits. A comparator sort over 1M rows
// costs ~1 s; a few linear counting passes cost tens of milliseconds.

/** Writes each row's digit (0..65535) for one pass into digits[row]. */
export type DigitFill = (digits: Uint16Array, n: number) => void;

/**
 * Returns the permutation of rows 0..n-1 sorted by the passes, which must be
 * listed least significant first (LSD order; each pass is stable).
 */
export function radixOrder(n: number, passes: DigitFill[]): Int32Array {
  let src = new Int32Array(n);
  for (let i = 0; i < n; i++) src[i] = i;
  if (n < 2) return src;
  let dst = new Int32Array(n);
  const digits = new Uint16Array(n);
  const counts = new Int32Array(65536);
  for (const fill of passes) {
    fill(digits, n);
    counts.fill(0);
    for (let r = 0; r < n; r++) counts[digits[r]]++;
    // A pass where every row has the same digit cannot change the order.
    if (counts[digits[0]] === n) continue;
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const r = src[i];
      dst[counts[digits[r]]++] = r;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}
